"""The run's logical date as the freshness reference time, ``{{ ds }}`` in a source path, and the Spark UI link,
through dag.test() at two logical dates (one Spark job per run checks all three)."""

from __future__ import annotations

import json
import pathlib
import re

import pandas as pd
import pendulum
import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.dq_airflow_queries import rendered_fields

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

ROOT = pathlib.Path(__file__).resolve().parent.parent
DAGS = ROOT / "tests" / "dags" / "severity_extra_dags.py"
SAMPLE = ROOT / "dags_example" / "data" / "purchase_events.csv"
# the sample's newest update is 2026-11-21 20:00 UTC; the assertion's lookback is 1 day
FRESH_AS_OF = pendulum.datetime(2026, 11, 22, 6, tz="UTC")  # 10 hours later: fresh
STALE_AS_OF = pendulum.datetime(2026, 11, 23, 0, tz="UTC")  # 28 hours later: stale
DAILY_ROWS = {"2026-11-22": 7, "2026-11-23": 13}  # a different size per day shows which file was read


@pytest.fixture(scope="module")
def as_of(dag_loader):
    """The task, with one small per-day file written for each logical date the tests use."""
    op = dag_loader(DAGS, "severity_as_of").get_task("dq")
    template = op.sources["daily_events"].removesuffix(":csv")
    assert "{{ ds }}" in template
    sample = pd.read_csv(SAMPLE)
    for ds, rows in DAILY_ROWS.items():
        path = pathlib.Path(template.replace("{{ ds }}", ds))
        path.parent.mkdir(parents=True, exist_ok=True)
        sample.head(rows).to_csv(path, index=False)
    return op, template


def result_document(run) -> dict:
    return json.loads(pathlib.Path(xcom_value(run, "dq")["result_location"]).read_text())


def test_the_sample_spans_the_dates_the_tests_rely_on():
    updated = pd.read_csv(SAMPLE, parse_dates=["updated_at"]).updated_at
    assert str(updated.max()) == "2026-11-21 20:00:00" and str(updated.min()) == "2026-11-01 00:30:00"


def test_fresh_as_of_its_logical_date_reads_that_days_file_and_links_the_spark_ui(dag_runner, as_of):
    op, template = as_of
    run = dag_runner(DAGS, "severity_as_of", logical_date=FRESH_AS_OF)
    assert task_states(run) == {"dq": "success"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "pass" and summary["by_status"]["pass"] == 2, summary
    doc = result_document(run)
    results = {r["name"]: r for r in doc["results"]}

    # freshness judged as of the run's logical date (no data interval without a schedule), not of today
    assert doc["reference_time"] == "2026-11-22T06:00:00+00:00"
    fresh = results["events_fresh"]
    assert fresh["status"] == "pass" and fresh["actual"] == "2026-11-21T20:00:00+00:00"
    assert fresh["details"]["reference_time"] == "2026-11-22T06:00:00+00:00"
    assert fresh["details"]["age_seconds"] == 10 * 3600

    # {{ ds }} in the source path: the run read the file of its own day
    assert results["daily_rows"]["actual"] == DAILY_ROWS["2026-11-22"]
    rendered = rendered_fields(run, "dq")["sources"]["daily_events"]
    assert rendered == template.replace("{{ ds }}", "2026-11-22") + ":csv"

    # the Spark UI extra link: the template filled with this job's application id and master
    engine = doc["engine"]
    assert re.fullmatch(r"local-\d+", engine["application_id"]), engine
    link = xcom_value(run, "dq", key="_link_SparkUILink")
    assert link == (f"http://spark-history.example:18080/history/{engine['application_id']}/jobs/"
                    f"?master={engine['master']}")
    assert engine["master"].startswith("local")
    # the other links of the task point at this try's files
    assert xcom_value(run, "dq", key="_link_DataQualityResultLink") == "file://" + summary["result_location"]
    report = xcom_value(run, "dq", key="_link_DataQualityReportLink")
    assert report == "file://" + summary["report_location"] and pathlib.Path(report[7:]).is_file()


def test_stale_as_of_a_later_logical_date_fails_and_reads_that_days_file(dag_runner, as_of):
    run = dag_runner(DAGS, "severity_as_of", logical_date=STALE_AS_OF)
    assert task_states(run) == {"dq": "failed"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "fail"
    (failed,) = summary["failed"]
    assert (failed["name"], failed["status"], failed["severity"]) == ("events_fresh", "fail", "error")
    # the window is the logical date minus the lookback: the same data that was fresh a day earlier is stale now
    assert failed["expected"] == "updated after 2026-11-22T00:00:00+00:00 (lookback 1 day)"
    assert failed["message"] == "last update 2026-11-21T20:00:00+00:00 is 1 day, 4:00:00 before the reference time"
    doc = result_document(run)
    assert doc["reference_time"] == "2026-11-23T00:00:00+00:00"
    assert {r["name"]: r["actual"] for r in doc["results"]}["daily_rows"] == DAILY_ROWS["2026-11-23"]
