"""Example: assets and templating. The check reads the day's partition ({{ ds }}), declares the source as an inlet
Asset and emits a "validated" Asset event (with the summary in its extra) when the data passes; a downstream DAG
is scheduled on that validated Asset, so it only ever runs on validated data.
"""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG, task

from airflow_dq.operators.assets import validated_asset
from airflow_dq.operators.data_quality import DataQualityOperator

HERE = Path(__file__).resolve().parent
EVENTS = str(HERE / "data" / "purchase_events.csv")

with DAG(dag_id="example_dq_assets", schedule="@daily", start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
         catchup=False, params={"min_daily_events": 40}, tags=["airflow-dq", "example"]) as dag:
    DataQualityOperator(
        task_id="validate_daily_events",
        spec=str(HERE / "specs" / "purchase_events_daily.yml"),  # rendered as a Jinja template
        sources={"shop.purchase_events": EVENTS},
        filters={"shop.purchase_events": "event_type IN ('purchase', 'refund')"},  # templated too
        conn_id=None,
        validated_on_warn=True,
    )

with DAG(dag_id="example_dq_on_validated_events", schedule=[validated_asset(EVENTS)],
         start_date=pendulum.datetime(2026, 11, 1, tz="UTC"), catchup=False,
         tags=["airflow-dq", "example"]) as consumer:

    @task(inlets=[validated_asset(EVENTS)])
    def build_report(triggering_asset_events=None) -> dict:
        extra = {}
        for events in (triggering_asset_events or {}).values():
            extra = events[-1].extra
        print(f"building on validated data: {extra.get('airflow_dq')}")
        return extra.get("airflow_dq") or {}

    build_report()
