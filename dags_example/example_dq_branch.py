"""Example: severity-gated branching. pass → publish; warn → publish and notify; fail → quarantine.

The check never fails the task (``fail_on="never"``); DataQualityBranchOperator reads its XCom summary (no second
Spark run) and follows the branch for the outcome.
"""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG, task

from airflow_dq.operators.branch import DataQualityBranchOperator
from airflow_dq.operators.data_quality import DataQualityOperator

HERE = Path(__file__).resolve().parent

with DAG(dag_id="example_dq_branch", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
         catchup=False, tags=["airflow-dq", "example"]) as dag:
    check = DataQualityOperator(
        task_id="check_purchase_events",
        spec=str(HERE / "specs" / "purchase_events.yml"),
        sources={"shop.purchase_events": str(HERE / "data" / "purchase_events.csv")},
        conn_id=None,
        fail_on="never",  # the branch decides what a failure means
    )
    route = DataQualityBranchOperator(
        task_id="route_on_quality",
        check_task_id="check_purchase_events",
        on_pass="publish",
        on_warn=["publish", "notify_owners"],
        on_fail="quarantine",
    )

    @task
    def publish() -> str:
        return "published"

    @task
    def notify_owners(ti=None) -> list[str]:
        summary = ti.xcom_pull(task_ids="check_purchase_events")
        names = [f["name"] for f in summary["failed"]]
        print(f"data-quality warnings on purchase_events: {names}")
        return names

    @task
    def quarantine() -> str:
        return "moved to quarantine"

    check >> route >> [publish(), notify_owners(), quarantine()]
