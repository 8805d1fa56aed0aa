"""Test DAG for diagnostics and the HTML report (run by tests/test_report_operator.py through dag.test())."""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"

SPEC = {"version": 1, "assertions": [
    {"entity": ENTITY, "name": "amount_small", "severity": "warn", "type": "field", "field": "amount",
     "condition": {"type": "less_than", "value": 5}, "exclude_nulls": True,
     "dimensions": ["event_type", "product_id"], "top_n": 3,
     "samples": {"limit": 5, "columns": ["id", "amount", "product_id", "email_address"],
                 "mask": {"email_address": "hash"}}},
    {"entity": ENTITY, "name": "rows_present", "type": "volume", "condition": {"type": "greater_than", "value": 0}},
]}

with DAG(dag_id="dq_report", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
         tags=["airflow-dq-tests"]) as report_dag:
    DataQualityOperator(task_id="dq", spec=SPEC, sources={"purchase_events": DATA}, conn_id=None)
