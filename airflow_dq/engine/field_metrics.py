"""Field-metric assertions: one aggregate of a column (nulls, uniqueness, emptiness, statistics) vs a condition."""

from __future__ import annotations

from typing import Any, Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.conditions import NotComparable, evaluate_metric
from airflow_dq.engine.columns import find_field, quoted, require_numeric, require_string
from airflow_dq.engine.context import Dataset, Outcome, Pending
from airflow_dq.engine.errors import NotEvaluable

# metric -> (needs, aggregates(col, scope) -> {name: Column}, value(vals) -> metric)
_Aggs = Callable[[Column, Column], dict[str, Column]]


def _count_where(cond: Column) -> Column:
    return F.count(F.when(cond, F.lit(1)))


def _pct(part: str, whole: str) -> Callable[[dict], Any]:
    def value(v: dict) -> Any:
        if not v[whole]:
            raise NotComparable(f"percentage is undefined: no rows in scope ({whole} = 0)")
        return v[part] * 100.0 / v[whole]
    return value


METRICS: dict[str, tuple[str | None, _Aggs, Callable[[dict], Any]]] = {
    "null_count": (None, lambda c, s: {"nulls": _count_where(s & c.isNull())}, lambda v: v["nulls"]),
    "null_percentage": (None, lambda c, s: {"nulls": _count_where(s & c.isNull()), "rows": _count_where(s)},
                        _pct("nulls", "rows")),
    "unique_count": (None, lambda c, s: {"distinct": F.count_distinct(F.when(s, c))}, lambda v: v["distinct"]),
    "unique_percentage": (None, lambda c, s: {"distinct": F.count_distinct(F.when(s, c)),
                                              "non_null": F.count(F.when(s, c))}, _pct("distinct", "non_null")),
    "empty_count": ("string", lambda c, s: {"empty": _count_where(s & (c == F.lit("")))}, lambda v: v["empty"]),
    "empty_percentage": ("string", lambda c, s: {"empty": _count_where(s & (c == F.lit(""))), "rows": _count_where(s)},
                         _pct("empty", "rows")),
    "min": ("numeric", lambda c, s: {"min": F.min(F.when(s, c))}, lambda v: v["min"]),
    "max": ("numeric", lambda c, s: {"max": F.max(F.when(s, c))}, lambda v: v["max"]),
    "mean": ("numeric", lambda c, s: {"mean": F.avg(F.when(s, c))}, lambda v: v["mean"]),
    "median": ("numeric", lambda c, s: {"median": F.median(F.when(s, c))}, lambda v: v["median"]),
    "stddev": ("numeric", lambda c, s: {"stddev": F.stddev_samp(F.when(s, c))}, lambda v: v["stddev"]),
    "negative_count": ("numeric", lambda c, s: {"neg": _count_where(s & (c < 0))}, lambda v: v["neg"]),
    "negative_percentage": ("numeric", lambda c, s: {"neg": _count_where(s & (c < 0)), "rows": _count_where(s)},
                            _pct("neg", "rows")),
    "zero_count": ("numeric", lambda c, s: {"zero": _count_where(s & (c == 0))}, lambda v: v["zero"]),
    "zero_percentage": ("numeric", lambda c, s: {"zero": _count_where(s & (c == 0)), "rows": _count_where(s)},
                        _pct("zero", "rows")),
}


def prepare(a: Assertion, ds: Dataset) -> Pending:
    if a.metric not in METRICS:
        raise NotEvaluable(f"unknown field metric {a.metric!r} (known: {', '.join(METRICS)})")
    needs, aggregates, value_of = METRICS[a.metric]
    field = find_field(ds.schema, a.field)
    if needs == "numeric":
        require_numeric(field, f"metric {a.metric}")
    elif needs == "string":
        require_string(field, f"metric {a.metric}")
    col = F.col(quoted(field.name))
    scope = ds.scope(a.filter)
    expected = a.condition.describe()

    def finish(values: dict) -> Outcome:
        try:
            actual = value_of(values)
            ok = evaluate_metric(a.condition, actual)
        except NotComparable as exc:
            return Outcome("error", expected=expected, message=f"{a.metric}: {exc}", details={"inputs": values})
        return Outcome("pass" if ok else "fail", actual=actual, expected=expected, details={"metric": a.metric})

    return Pending(aggregates(col, scope), finish)
