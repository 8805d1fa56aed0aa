"""Volume assertions: the row count (optionally of a filtered subset) against a condition."""

from __future__ import annotations

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.conditions import NotComparable, evaluate_metric
from airflow_dq.engine.aggregates import rows
from airflow_dq.engine.context import Dataset, Outcome, Pending
from airflow_dq.engine.errors import NotEvaluable


def prepare(a: Assertion, ds: Dataset) -> Pending:
    if (a.metric or "row_count") != "row_count":
        raise NotEvaluable(f"volume metric {a.metric!r} is not supported (only row_count)")
    count = rows(ds, a.filter)

    def finish(values: dict) -> Outcome:
        rows = values["rows"]
        try:
            ok = evaluate_metric(a.condition, rows)
        except NotComparable as exc:
            return Outcome("error", actual=rows, expected=a.condition.describe(), message=str(exc))
        return Outcome("pass" if ok else "fail", actual=rows, expected=a.condition.describe(), total_rows=rows)

    return Pending({"rows": count}, finish)
