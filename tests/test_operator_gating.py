"""DataQualityOperator in real Airflow (dag.test() on SQLite) with a real spark-submit on local[2]."""

from __future__ import annotations

import pathlib
import re

import pytest

from tests.airflow_helpers import task_states, xcom_value

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "gating_dags.py"


def test_error_failure_fails_the_task_after_pushing_the_summary(dag_runner):
    run = dag_runner(DAGS, "dq_error_fails")
    assert task_states(run) == {"dq": "failed"}
    summary = xcom_value(run, "dq")
    assert summary is not None, "the XCom summary must be pushed before the task fails"
    assert summary["outcome"] == "fail"
    assert summary["by_status"] == {"pass": 1, "fail": 1, "error": 0}
    assert [f["name"] for f in summary["failed"]] == ["amount_has_no_nulls"]
    assert summary["failed"][0]["actual"] == 4
    assert pathlib.Path(summary["result_location"]).is_file()


def test_warn_only_failures_succeed_with_a_marked_warning_in_the_log(dag_runner, capfd):
    run = dag_runner(DAGS, "dq_warn_passes")
    out = capfd.readouterr()
    log = out.out + out.err
    assert task_states(run) == {"dq": "success"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "warn" and summary["by_severity"]["warn"]["fail"] == 1
    assert "DATA QUALITY WARNING: 1 warn-severity assertion(s) did not pass" in log
    # a compact results table: header, rule, one row per warn failure with actual and expected, then the totals
    assert re.search(r"STATUS\s+SEV\s+ASSERTION\s+COLUMN\s+ACTUAL\s+EXPECTED", log)
    assert re.search(r"FAIL\s+warn\s+amount_has_no_nulls\s+amount\s+4\s+== 0", log)


def test_invalid_spec_fails_without_running_spark(dag_runner, capfd):
    run = dag_runner(DAGS, "dq_bad_spec")
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"dq": "failed"}
    assert "condition 'between' needs both 'min' and 'max'" in log
    assert "Spark-Submit cmd" not in log


def _ti(run, task_id="dq"):
    return next(ti for ti in run.get_task_instances() if ti.task_id == task_id)


def test_data_failure_is_not_retried_but_infrastructure_failure_is(dag_runner, capfd):
    data = dag_runner(DAGS, "dq_error_fails")
    assert task_states(data)["dq"] == "failed" and _ti(data).try_number == 1  # retries=2 were not used

    infra = dag_runner(DAGS, "dq_infra_fails")
    log = "".join(capfd.readouterr())
    assert "the Spark validation job failed" in log
    assert xcom_value(infra, "dq") is None  # nothing pushed, nothing reported as pass
    ti = _ti(infra)
    assert (task_states(infra)["dq"], ti.try_number) in {("up_for_retry", 1), ("failed", 2)}, (ti.state, ti.try_number)
