"""Test DAGs for DataQualityBranchOperator: pass → publish; warn → publish + notify; fail → quarantine."""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

from airflow_dq.operators.branch import DataQualityBranchOperator
from airflow_dq.operators.data_quality import DataQualityOperator

DATA = str(Path(__file__).resolve().parent.parent.parent / "dags_example" / "data" / "purchase_events.csv")
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
ROWS_OK = {"name": "rows_ok", "type": "volume", "condition": {"type": "equal_to", "value": 1000}}
AMOUNT_NULLS = {"name": "amount_has_no_nulls", "type": "field", "field": "amount", "metric": "null_count",
                "condition": {"type": "equal_to", "value": 0}}
SPECS = {
    "pass": [ROWS_OK],
    "warn": [ROWS_OK, {**AMOUNT_NULLS, "severity": "warn"}],
    "fail": [ROWS_OK, {**AMOUNT_NULLS, "severity": "error"}],
}


def branch_dag(dag_id: str, items: list[dict], **check_kwargs) -> DAG:
    with DAG(dag_id=dag_id, schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
             tags=["airflow-dq-tests"]) as dag:
        check = DataQualityOperator(task_id="check", spec={"version": 1, "assertions": [
            {"entity": ENTITY, **i} for i in items]}, sources={"purchase_events": DATA},
            **{"fail_on": "never", **check_kwargs})
        route = DataQualityBranchOperator(
            task_id="route", check_task_id="check", on_pass="publish", on_warn=["publish", "notify"],
            on_fail="quarantine", trigger_rule="all_done")
        check >> route >> [EmptyOperator(task_id="publish"), EmptyOperator(task_id="notify"),
                           EmptyOperator(task_id="quarantine")]
    return dag


branch_pass = branch_dag("severity_branch_pass", SPECS["pass"])
branch_warn = branch_dag("severity_branch_warn", SPECS["warn"])
branch_fail = branch_dag("severity_branch_fail", SPECS["fail"])
# the check fails the task (default fail_on="error") after pushing its summary; trigger_rule="all_done" routes it
branch_fail_gated = branch_dag("severity_branch_fail_gated", SPECS["fail"], fail_on="error")
# Spark never ran: there is no summary, and the branch refuses to route
branch_no_summary = branch_dag("severity_branch_no_summary", SPECS["pass"], master="bogus://nowhere")
