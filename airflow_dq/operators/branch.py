"""Severity-gated branching: route the DAG on an upstream data-quality task's outcome, without re-running Spark."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from airflow.providers.standard.operators.branch import BaseBranchOperator
from airflow.sdk.exceptions import AirflowFailException

Branch = str | Sequence[str] | None


class DataQualityBranchOperator(BaseBranchOperator):
    """Follow ``on_pass``, ``on_warn`` or ``on_fail`` according to the ``outcome`` in ``check_task_id``'s XCom summary.

    The check task is typically a ``DataQualityOperator(fail_on="never")``. With the default ``fail_on="error"``
    the check task fails on a ``fail`` outcome, after pushing its summary: give this operator
    ``trigger_rule="all_done"`` to still route that run to ``on_fail``. A branch may be a task id, a task group
    id, a list of them, or None (skip everything downstream). A missing summary (the check never ran, or Spark
    itself failed) fails this task: no branch is taken on results that do not exist.

    :param check_task_id: the data-quality task whose summary decides.
    :param on_pass: branch(es) when every assertion passed.
    :param on_warn: branch(es) when only warn-severity assertions failed; defaults to ``on_pass``.
    :param on_fail: branch(es) when an error-severity assertion failed (or the empty-input policy said fail).
    """

    template_fields: Sequence[str] = ("check_task_id",)
    ui_color = "#f3e8d2"

    def __init__(self, *, check_task_id: str, on_pass: Branch, on_fail: Branch, on_warn: Branch | Any = ...,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check_task_id = check_task_id
        self.on_pass = on_pass
        self.on_warn = on_pass if on_warn is ... else on_warn
        self.on_fail = on_fail

    def choose_branch(self, context) -> str | Iterable[str] | None:
        summary = context["ti"].xcom_pull(task_ids=self.check_task_id, key="return_value")
        if not isinstance(summary, dict) or summary.get("outcome") not in ("pass", "warn", "fail"):
            raise AirflowFailException(
                f"no data-quality summary from task {self.check_task_id!r} in this run (it did not run, or its "
                f"Spark job failed before producing results); got {summary!r}")
        outcome = summary["outcome"]
        branch = {"pass": self.on_pass, "warn": self.on_warn, "fail": self.on_fail}[outcome]
        failed = ", ".join(f"{f.get('name')} ({f.get('severity')})" for f in summary.get("failed") or []) or "none"
        self.log.info("Data-quality outcome of %s is %s (did not pass: %s) → branch %s",
                      self.check_task_id, outcome.upper(), failed, branch)
        return list(branch) if isinstance(branch, (list, tuple)) else branch
