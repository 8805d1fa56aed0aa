"""Example: wait for fresh, complete data with DataQualitySensor, then validate it all.

The sensor re-runs only the volume (and freshness) assertions of the spec until they pass. ``deferrable=True``
waits in the triggerer: spark-submit runs detached and the trigger watches its result document, so no worker
slot is held; ``mode="reschedule"`` would free the slot between checks too, ``mode="poke"`` holds it.
"""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator
from airflow_dq.sensors.data_quality import DataQualitySensor

HERE = Path(__file__).resolve().parent
SPEC = str(HERE / "specs" / "purchase_events.yml")
SOURCES = {"shop.purchase_events": str(HERE / "data" / "purchase_events.csv")}

with DAG(dag_id="example_dq_sensor", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
         catchup=False, tags=["airflow-dq", "example"]) as dag:
    wait = DataQualitySensor(
        task_id="wait_for_complete_extract",
        spec=SPEC,
        sources=SOURCES,
        conn_id=None,
        deferrable=True,
        poke_interval=60,
        timeout=6 * 3600,
    )
    validate = DataQualityOperator(task_id="validate", spec=SPEC, sources=SOURCES, conn_id=None)
    wait >> validate
