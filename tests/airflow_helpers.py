"""Helpers for dag.test() based tests: read task states and XComs of a finished DagRun."""

from __future__ import annotations

import json


def task_states(dag_run) -> dict[str, str]:
    return {ti.task_id: str(ti.state.value if hasattr(ti.state, "value") else ti.state)
            for ti in dag_run.get_task_instances()}


def xcom_value(dag_run, task_id: str, key: str = "return_value"):
    from airflow.models.xcom import XComModel
    from airflow.utils.session import create_session

    with create_session() as session:
        row = session.query(XComModel).filter(
            XComModel.dag_id == dag_run.dag_id, XComModel.run_id == dag_run.run_id,
            XComModel.task_id == task_id, XComModel.key == key).one_or_none()
        if row is None:
            return None
        value = row.value
    while isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            break
    return value
