"""Test DAGs for the OpenLineage facets of further assertion kinds, and for lineage that fails while the task does
not (run by tests/test_lineage_extra.py through dag.test() with the file transport)."""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
EVENTS_CSV = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
PRODUCTS_CSV = str(ROOT / "dags_example" / "data" / "products.csv")
EVENTS = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
PRODUCTS = "urn:li:dataset:(urn:li:dataPlatform:hive,shop.products,PROD)"
START = pendulum.datetime(2026, 11, 1, tz="UTC")

# custom SQL over the entity's view (``purchase_events``), as the SQL text the lineage must carry verbatim
REFUNDS_SQL = "SELECT COUNT(*) FROM purchase_events WHERE event_type = 'refund' AND amount IS NULL"
PRODUCT_IDS = ["product_1", "product_2", "product_3", "product_4", "product_5"]

# every assertion is unfiltered: the metrics facet describes the whole file
KINDS = {"version": 1, "assertions": [{"entity": EVENTS, **a} for a in (
    {"name": "no_refund_without_amount", "type": "sql", "statement": REFUNDS_SQL,
     "condition": {"type": "less_than_or_equal_to", "value": 5}},
    {"name": "events_fresh", "type": "freshness", "last_modified_field": "updated_at",
     "lookback_interval": "1 day"},
    {"name": "has_core_columns", "type": "schema", "condition": {"type": "contains", "columns": [
        {"name": "id", "type": "number"}, {"name": "updated_at", "type": "timestamp"}]}},
    {"name": "product_known", "type": "field", "field": "product_id",
     "condition": {"type": "in", "value": PRODUCT_IDS}},
    {"name": "amount_min", "type": "field", "field": "amount", "metric": "min",
     "condition": {"type": "greater_than_or_equal_to", "value": 0}},
)]}

TINY = {"version": 1, "assertions": [
    {"entity": PRODUCTS, "name": "products_exist", "type": "volume", "condition": {"type": "greater_than", "value": 0}},
]}


class ExplodingLineageOperator(DataQualityOperator):
    """A DataQualityOperator whose facet builder always raises: the task must not notice."""

    def _dq_build_lineage(self, plan, result, tests):
        raise RuntimeError("facet builder exploded")


with DAG(dag_id="dq_lineage_kinds", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as kinds:
    DataQualityOperator(task_id="dq", spec=KINDS, sources={"purchase_events": EVENTS_CSV})

with DAG(dag_id="dq_lineage_broken", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as broken:
    ExplodingLineageOperator(task_id="dq", spec=TINY, sources={"products": PRODUCTS_CSV})
