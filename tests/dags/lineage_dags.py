"""Test DAGs for OpenLineage facets (run by tests/test_lineage_dags.py through dag.test() with the file transport)."""

from __future__ import annotations

import os
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
EVENTS_CSV = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
PRODUCTS_CSV = str(ROOT / "dags_example" / "data" / "products.csv")
EVENTS = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
PRODUCTS = "urn:li:dataset:(urn:li:dataPlatform:hive,shop.products,PROD)"
# A Hive-style partition directory; tests/test_lineage_dags.py puts a copy of the events there before running.
PARTITION_DIR = os.path.join(os.environ.get("AIRFLOW_HOME", "/tmp"), "data", "lineage", "purchase_events",
                             "dt=2026-11-01")
START = pendulum.datetime(2026, 11, 1, tz="UTC")

MIXED = {"version": 1, "assertions": [
    {"entity": EVENTS, "name": "rows_ok", "type": "volume", "condition": {"type": "equal_to", "value": 1000}},
    {"entity": EVENTS, "name": "amount_not_null", "description": "Every event has an amount", "type": "field",
     "field": "amount", "metric": "null_count", "condition": {"type": "equal_to", "value": 0}},
    {"entity": EVENTS, "name": "id_unique", "type": "field", "field": "id", "metric": "unique_percentage",
     "condition": {"type": "equal_to", "value": 100}},
    {"entity": EVENTS, "name": "id_present", "type": "field", "field": "id", "condition": {"type": "is_not_null"}},
    {"entity": EVENTS, "name": "email_valid", "severity": "warn", "type": "field", "field": "email_address",
     "condition": {"type": "matches_regex", "value": "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}"},
     "failure_threshold": {"type": "count", "value": 5}},
    {"entity": EVENTS, "name": "ghost_column", "severity": "warn", "type": "field", "field": "no_such_column",
     "condition": {"type": "is_not_null"}},
    {"entity": EVENTS, "name": "purchases_present", "type": "volume", "filters": "event_type = 'purchase'",
     "condition": {"type": "greater_than_or_equal_to", "value": 100}},
    {"entity": EVENTS, "name": "amount_median", "type": "field", "field": "amount", "metric": "median",
     "condition": {"type": "between", "min": 0, "max": 10}},
    {"entity": EVENTS, "name": "amount_mean", "type": "field", "field": "amount", "metric": "mean",
     "condition": {"type": "between", "min": 1, "max": 9}},
    {"entity": PRODUCTS, "name": "pricey_products", "type": "volume", "filters": "price >= 8",
     "condition": {"type": "equal_to", "value": 4}},
    {"entity": PRODUCTS, "name": "pricey_max", "type": "field", "field": "price", "metric": "max",
     "filters": "price >= 8", "condition": {"type": "less_than_or_equal_to", "value": 12.5}},
    {"entity": PRODUCTS, "name": "one_product_5", "type": "volume", "filters": "(price >= 8) AND (name = 'Product 5')",
     "condition": {"type": "equal_to", "value": 1}},
]}

PURCHASES = "event_type = 'purchase'"
WARN_ONLY = {"version": 1, "assertions": [
    {"entity": EVENTS, "name": "purchase_rows", "type": "volume", "filters": PURCHASES,
     "condition": {"type": "greater_than", "value": 0}},
    {"entity": EVENTS, "name": "purchase_amount_not_null", "severity": "warn", "type": "field", "field": "amount",
     "metric": "null_count", "filters": {"type": "sql", "sql": PURCHASES},
     "condition": {"type": "equal_to", "value": 0}},
]}


with DAG(dag_id="dq_lineage_mixed", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as mixed:
    DataQualityOperator(task_id="dq", spec=MIXED, sources={"purchase_events": EVENTS_CSV, "products": PRODUCTS_CSV})

with DAG(dag_id="dq_lineage_warn", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as warn_only:
    DataQualityOperator(task_id="dq", spec=WARN_ONLY, sources={"purchase_events": PARTITION_DIR + "/:csv"})
