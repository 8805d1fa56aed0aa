"""Test DAGs for severity gating (run by tests/test_operator_gating.py through dag.test())."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
START = pendulum.datetime(2026, 11, 1, tz="UTC")

ROWS_OK = {"name": "rows_ok", "type": "volume", "condition": {"type": "equal_to", "value": 1000}}
AMOUNT_NULLS = {"name": "amount_has_no_nulls", "type": "field", "field": "amount", "metric": "null_count",
                "condition": {"type": "equal_to", "value": 0}}


def _spec(*items: dict) -> dict:
    return {"version": 1, "assertions": [{"entity": ENTITY, **i} for i in items]}


def _dag(dag_id: str, spec: dict, **op_kwargs) -> DAG:
    with DAG(dag_id=dag_id, schedule=None, start_date=START, tags=["airflow-dq-tests"]) as dag:
        DataQualityOperator(task_id="dq", spec=spec, sources={"purchase_events": DATA}, **op_kwargs)
    return dag


# retries are set so the tests can tell a non-retryable data failure from a retryable infrastructure one
error_fails = _dag("dq_error_fails", _spec(ROWS_OK, {**AMOUNT_NULLS, "severity": "error"}),
                   retries=2, retry_delay=timedelta(seconds=0))
infra_fails = _dag("dq_infra_fails", _spec(ROWS_OK), master="bogus://nowhere", retries=1,
                   retry_delay=timedelta(seconds=0))
warn_passes = _dag("dq_warn_passes", _spec(ROWS_OK, {**AMOUNT_NULLS, "severity": "warn"}))
bad_spec = _dag("dq_bad_spec", {"version": 1, "assertions": [
    {"entity": ENTITY, "type": "volume", "condition": {"type": "between", "min": 1}}]})
