"""Test DAGs for DataQualitySensor in poke, reschedule and deferrable modes (tests/test_sensor_data_quality.py).

Each sensor watches a landing directory under AIRFLOW_HOME that starts with a header-only CSV (0 rows); the test
drops the real data in after the sensor's first check, so the second check passes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pendulum
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

from airflow_dq.sensors.data_quality import DataQualitySensor

LANDING = Path(os.environ.get("AIRFLOW_HOME", "/tmp")) / "dq_landing"
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
SPEC = {"version": 1, "assertions": [
    {"entity": ENTITY, "name": "landed_rows", "type": "volume",
     "condition": {"type": "greater_than_or_equal_to", "value": 1000}},
    # not a freshness/volume assertion: the sensor leaves it to the check task
    {"entity": ENTITY, "name": "amount_has_no_nulls", "type": "field", "field": "amount", "metric": "null_count",
     "condition": {"type": "equal_to", "value": 0}},
]}


def landing(mode: str) -> str:
    return str(LANDING / mode)


def sensor_dag(name: str, **sensor_kwargs) -> DAG:
    with DAG(dag_id=f"severity_sensor_{name}", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
             tags=["airflow-dq-tests"]) as dag:
        DataQualitySensor(task_id="wait_for_data", spec=SPEC, sources={"purchase_events": landing(name) + ":csv"},
                          poke_interval=1, **sensor_kwargs) >> EmptyOperator(task_id="downstream")
    return dag


sensor_poke = sensor_dag("poke", mode="poke", timeout=600)
sensor_reschedule = sensor_dag("reschedule", mode="reschedule", timeout=600)
sensor_deferrable = sensor_dag("deferrable", deferrable=True, timeout=600, check_poll_interval=0.5)
sensor_timeout = sensor_dag("timeout", mode="poke", timeout=1)
