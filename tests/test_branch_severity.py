"""Severity-gated branching from the upstream check's XCom summary, through dag.test() (Spark runs once per DAG)."""

from __future__ import annotations

import pathlib

import pytest

from tests.airflow_helpers import task_states, xcom_value

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "severity_branch_dags.py"


@pytest.mark.parametrize("dag_id, expected", [
    ("severity_branch_pass", {"check": "success", "route": "success", "publish": "success", "notify": "skipped",
                              "quarantine": "skipped"}),
    ("severity_branch_warn", {"check": "success", "route": "success", "publish": "success", "notify": "success",
                              "quarantine": "skipped"}),
    ("severity_branch_fail", {"check": "success", "route": "success", "publish": "skipped", "notify": "skipped",
                              "quarantine": "success"}),
    ("severity_branch_fail_gated", {"check": "failed", "route": "success", "publish": "skipped",
                                    "notify": "skipped", "quarantine": "success"}),
])
def test_branch_follows_the_outcome(dag_runner, dag_id, expected, task_log):
    run = dag_runner(DAGS, dag_id)
    log = task_log()
    assert task_states(run) == expected
    outcome = xcom_value(run, "check")["outcome"]
    assert outcome == dag_id.split("_")[2]
    assert f"Data-quality outcome of check is {outcome.upper()}" in log
    assert log.count("Spark-Submit cmd") == 1  # the branch reads XCom, it does not re-run Spark


def test_branch_without_a_summary_fails_instead_of_guessing(dag_runner, task_log):
    run = dag_runner(DAGS, "severity_branch_no_summary")
    log = task_log()
    states = task_states(run)
    assert states["check"] in ("failed", "up_for_retry") and states["route"] == "failed"
    assert {states[t] for t in ("publish", "notify", "quarantine")} <= {"upstream_failed", "skipped"}
    assert "no data-quality summary from task 'check'" in log


def test_branch_operator_checks_its_arguments():
    from airflow_dq.operators.branch import DataQualityBranchOperator

    op = DataQualityBranchOperator(task_id="r", check_task_id="c", on_pass="a", on_fail=None)
    assert op.on_warn == "a"  # warn follows the pass branch unless told otherwise
