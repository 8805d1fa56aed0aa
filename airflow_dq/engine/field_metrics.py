"""Field-metric assertions: one aggregate of a column (nulls, uniqueness, emptiness, statistics) vs a condition."""

from __future__ import annotations

from typing import Any, Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.conditions import NotComparable, evaluate_metric
from airflow_dq.engine.aggregates import on_column, rows
from airflow_dq.engine.columns import find_field, is_floating, quoted, require_numeric, require_string
from airflow_dq.engine.context import Agg, CountIf, Dataset, Outcome, Pending
from airflow_dq.engine.errors import NotEvaluable

# Primitive aggregates over a column `c` on the rows the assertion's filter `f` selects (all rows when None).
# Counts are returned as CountIf so that the fused scan can pack them (engine/packed_counts.py).
PRIMITIVES: dict[str, Callable[[Dataset, Column, str | None], Column | CountIf]] = {
    "nulls": lambda ds, c, f: CountIf(ds.within(f, c.isNull())),
    "non_null": lambda ds, c, f: CountIf(ds.within(f, c.isNotNull())),
    "distinct": lambda ds, c, f: F.count_distinct(ds.restrict(f, c)),
    "empty": lambda ds, c, f: CountIf(ds.within(f, c == "")),
    "min": lambda ds, c, f: F.min(ds.restrict(f, c)),
    "max": lambda ds, c, f: F.max(ds.restrict(f, c)),
    "mean": lambda ds, c, f: F.avg(ds.restrict(f, c)),
    "median": lambda ds, c, f: F.median(ds.restrict(f, c)),
    "stddev": lambda ds, c, f: F.stddev_samp(ds.restrict(f, c)),
    "negative": lambda ds, c, f: CountIf(ds.within(f, c < 0)),
    "zero": lambda ds, c, f: CountIf(ds.within(f, c == 0)),
    "nan": lambda ds, c, f: CountIf(ds.within(f, F.isnan(c))),
}
STATISTICS = ("min", "max", "mean", "median", "stddev")


def _value(name: str) -> Callable[[dict], Any]:
    return lambda v: v[name]


def _pct(part: str, whole: str) -> Callable[[dict], Any]:
    def value(v: dict) -> Any:
        if not v[whole]:
            raise NotComparable(f"percentage is undefined: no rows in scope ({whole} = 0)")
        return v[part] * 100.0 / v[whole]
    return value


# metric -> (column kind needed, primitives used, value from the primitives' results)
METRICS: dict[str, tuple[str | None, tuple[str, ...], Callable[[dict], Any]]] = {
    "null_count": (None, ("nulls",), _value("nulls")),
    "null_percentage": (None, ("nulls", "rows"), _pct("nulls", "rows")),
    "unique_count": (None, ("distinct",), _value("distinct")),
    "unique_percentage": (None, ("distinct", "non_null"), _pct("distinct", "non_null")),
    "empty_count": ("string", ("empty",), _value("empty")),
    "empty_percentage": ("string", ("empty", "rows"), _pct("empty", "rows")),
    "min": ("numeric", ("min",), _value("min")),
    "max": ("numeric", ("max",), _value("max")),
    "mean": ("numeric", ("mean",), _value("mean")),
    "median": ("numeric", ("median",), _value("median")),
    "stddev": ("numeric", ("stddev",), _value("stddev")),
    "negative_count": ("numeric", ("negative",), _value("negative")),
    "negative_percentage": ("numeric", ("negative", "rows"), _pct("negative", "rows")),
    "zero_count": ("numeric", ("zero",), _value("zero")),
    "zero_percentage": ("numeric", ("zero", "rows"), _pct("zero", "rows")),
}


def prepare(a: Assertion, ds: Dataset) -> Pending:
    if a.metric not in METRICS:
        raise NotEvaluable(f"unknown field metric {a.metric!r} (known: {', '.join(METRICS)})")
    needs, primitives, value_of = METRICS[a.metric]
    field = find_field(ds.schema, a.field)
    if needs == "numeric":
        require_numeric(field, f"metric {a.metric}")
    elif needs == "string":
        require_string(field, f"metric {a.metric}")
    ds.scope(a.filter)  # an invalid filter is this assertion's error, whatever is shared
    if a.metric in STATISTICS and is_floating(field.dataType):
        primitives = primitives + ("nan",)  # a NaN makes the statistic undefined: error, not a number
    if a.metric == "stddev":
        primitives = primitives + ("non_null",)  # the sample deviation needs two values
    aggs: dict[str, Agg] = {}
    for p in primitives:
        if p == "rows":
            aggs[p] = rows(ds, a.filter)
        else:
            aggs[p] = on_column(ds, p, field.name, a.filter,
                                lambda p=p: PRIMITIVES[p](ds, ds.column(quoted(field.name)), a.filter))
    expected = a.condition.describe()

    def finish(values: dict) -> Outcome:
        if values.get("nan"):
            return Outcome("error", expected=expected, details={"metric": a.metric, "inputs": values},
                           message=f"{a.metric}: {values['nan']} NaN value(s) in {field.name!r} within scope; "
                                   "the statistic of a column holding NaN is undefined")
        if a.metric == "stddev" and values.get("non_null") is not None and values["non_null"] < 2:
            return Outcome("error", expected=expected, details={"metric": a.metric, "inputs": values},
                           message=f"stddev: the sample standard deviation needs at least 2 non-null values, "
                                   f"{field.name!r} has {values['non_null']} in scope")
        try:
            actual = value_of(values)
            ok = evaluate_metric(a.condition, actual)
        except NotComparable as exc:
            return Outcome("error", expected=expected, message=f"{a.metric}: {exc}", details={"inputs": values})
        return Outcome("pass" if ok else "fail", actual=actual, expected=expected,
                       details={"metric": a.metric, "inputs": values})

    return Pending(aggs, finish)
