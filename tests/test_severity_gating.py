"""Gating policy, empty inputs, UI report, extra links and assets of DataQualityOperator, through dag.test()."""

from __future__ import annotations

import pathlib

import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.dq_airflow_queries import asset_events, clear_queue, queued_for, rendered_fields, try_number, unpause

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "severity_dags.py"
VALIDATED = "x-airflow-dq-validated:file://" + str(
    pathlib.Path(__file__).resolve().parent.parent / "dags_example" / "data" / "purchase_events.csv")


def test_fail_on_warn_fails_a_warn_only_outcome(dag_runner, capfd):
    run = dag_runner(DAGS, "severity_fail_on_warn")
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"dq": "failed"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "warn" and summary["gate"]["action"] == "fail"
    assert "1 assertion(s) did not pass (fail_on='warn'): amount_has_no_nulls" in log


def test_fail_on_never_succeeds_reports_fail_and_emits_no_validated_event(dag_runner):
    run = dag_runner(DAGS, "severity_fail_on_never")
    assert task_states(run) == {"dq": "success"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "fail" and summary["gate"] == {
        "fail_on": "never", "on_empty": "fail", "action": "succeed",
        "reason": "outcome FAIL with fail_on='never' → task succeeds"}
    assert asset_events(run) == []  # failed data is never announced as validated
    report = rendered_fields(run, "dq")["quality_report"]
    assert report.startswith("## Data quality: FAIL")
    # the markdown table: header, then the failed error assertion first with its actual and expected values
    assert "| status | severity | assertion | column | actual | expected |" in report
    rows = [line for line in report.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert rows[0] == "| FAIL | error | amount_has_no_nulls | amount | 4 | == 0 |", rows
    assert rows[1].startswith("| PASS | error | rows_ok |"), rows


def test_retry_on_failure_makes_data_failures_retryable(dag_runner):
    run = dag_runner(DAGS, "severity_retry_on_failure")
    state = task_states(run)["dq"]
    # retries=1 was used: a second try ran (or is queued for retry), unlike the default final failure
    assert (state, try_number(run, "dq")) in {("failed", 2), ("up_for_retry", 1)}
    assert xcom_value(run, "dq")["outcome"] == "fail"


def test_empty_input_is_decided_by_explicit_policy(dag_runner, capfd):
    run = dag_runner(DAGS, "severity_empty_input")
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"on_empty_fail": "failed", "on_empty_warn": "success",
                                "on_empty_skip": "skipped", "on_empty_ignore": "success"}
    entity = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
    fail = xcom_value(run, "on_empty_fail")
    # the only assertion passed (0 nulls in 0 rows): the default policy still refuses the empty input
    assert fail["assertions_outcome"] == "pass" and fail["outcome"] == "fail"
    assert fail["empty_inputs"] == [entity]
    assert xcom_value(run, "on_empty_warn")["outcome"] == "warn"
    assert xcom_value(run, "on_empty_ignore")["outcome"] == "pass"
    assert "empty input (0 rows)" in log and "on_empty='skip'" in log
    assert asset_events(run, "on_empty_warn") == [] and asset_events(run, "on_empty_ignore") != []


def test_pass_emits_the_validated_asset_event_with_the_summary(dag_runner):
    unpause("severity_validated_consumer")
    clear_queue("severity_validated_consumer")
    run = dag_runner(DAGS, "severity_assets")
    assert task_states(run) == {"passes": "success", "warns": "success", "warns_validated": "success"}
    passed = asset_events(run, "passes")
    assert [e["uri"] for e in passed] == [VALIDATED]
    extra = passed[0]["extra"]
    assert extra["airflow_dq"]["outcome"] == "pass" and extra["airflow_dq"]["by_status"]["pass"] == 2
    assert extra["result_location"] == xcom_value(run, "passes")["result_location"]
    # warn: no validated event by default; with validated_on_warn=True, one listing what did not pass
    assert asset_events(run, "warns") == []
    warned = asset_events(run, "warns_validated")
    assert [e["uri"] for e in warned] == [VALIDATED] and warned[0]["extra"]["failed"] == ["amount_has_no_nulls"]
    # the downstream DAG scheduled on the validated asset is queued to run
    assert VALIDATED in queued_for("severity_validated_consumer")

    # what the UI shows without the log: the report in Rendered Templates, the result link, no broken Spark link
    fields = rendered_fields(run, "warns")
    assert fields["quality_report"].startswith("## Data quality: WARN")
    assert "amount_has_no_nulls" in fields["quality_report"]
    link = xcom_value(run, "warns", key="_link_DataQualityResultLink")
    assert link == "file://" + xcom_value(run, "warns")["result_location"]
    assert pathlib.Path(link[len("file://"):]).is_file()
    assert xcom_value(run, "warns", key="_link_SparkUILink") in ("", None)  # no UI configured, local UI gone
