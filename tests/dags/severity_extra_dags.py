"""Test DAG for the reference time and templated sources of DataQualityOperator (tests/test_severity_extra.py).

One task validates two entities in one Spark job, so each dag.test() run checks both:

* ``purchase_events`` (the static sample): a freshness assertion judged against the run's logical date;
* ``daily_events``: a per-day file whose path contains ``{{ ds }}`` (the test writes one file per day).

The task also sets a Spark UI link template, so the run shows the link the operator produces.
"""

from __future__ import annotations

import os
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
DAILY_DIR = os.path.join(os.environ.get("AIRFLOW_HOME", "/tmp"), "data", "severity_extra", "daily")
EVENTS = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
DAILY = "urn:li:dataset:(urn:li:dataPlatform:file,shop.daily_events,PROD)"
SPARK_UI = "http://spark-history.example:18080/history/{application_id}/jobs/?master={master}"

AS_OF = {"version": 1, "assertions": [
    {"entity": EVENTS, "name": "events_fresh", "type": "freshness", "last_modified_field": "updated_at",
     "lookback_interval": "1 day"},
    {"entity": DAILY, "name": "daily_rows", "type": "volume", "condition": {"type": "greater_than", "value": 0}},
]}

with DAG(dag_id="severity_as_of", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
         tags=["airflow-dq-tests"]) as as_of:
    DataQualityOperator(task_id="dq", spec=AS_OF, spark_ui_url=SPARK_UI,
                        sources={"purchase_events": DATA,
                                 "daily_events": DAILY_DIR + "/events_{{ ds }}.csv:csv"})
