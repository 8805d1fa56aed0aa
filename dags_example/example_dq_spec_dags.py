"""Example: DAGs generated from a folder of spec files, one per spec file and schedule.

``specs/scheduled/purchase_events_checks.yml`` declares two schedules and so gives two DAGs:
``dq_purchase_events_checks__every_6_hours`` (interval) and ``dq_purchase_events_checks__on_table_change``
(runs when the purchase_events Asset is updated, e.g. by the producer DAG below); ``products_daily.yml`` gives
``dq_products_daily`` (cron, 06:00 Europe/Paris). A broken spec file would give an import error for its DAG only.
"""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG, task

from airflow_dq.dag_factory import dags_from_specs
from airflow_dq.operators.assets import source_asset

HERE = Path(__file__).resolve().parent
SOURCES = {
    "shop.purchase_events": str(HERE / "data" / "purchase_events.csv"),
    "shop.products": str(HERE / "data" / "products.csv"),
}

globals().update(dags_from_specs(
    HERE / "specs" / "scheduled", SOURCES,
    dag_kwargs={"start_date": pendulum.datetime(2026, 11, 1, tz="UTC"), "tags": ["airflow-dq", "example"]},
    operator_kwargs={"conn_id": None, "fail_on": "error"},
))

# A producer: when it succeeds, the purchase_events Asset gets an event and the on_table_change DAG runs.
with DAG(dag_id="example_dq_purchase_events_producer", schedule=None,
         start_date=pendulum.datetime(2026, 11, 1, tz="UTC"), tags=["airflow-dq", "example"]) as producer:

    @task(outlets=[source_asset(SOURCES["shop.purchase_events"])])
    def load_purchase_events() -> str:
        return "loaded"  # a real DAG would write the data here

    load_purchase_events()
