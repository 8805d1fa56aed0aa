"""Field-values assertions: every row's value must satisfy a condition, up to a failure threshold."""

from __future__ import annotations

import json

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.assertions import Assertion
from airflow_dq.engine.aggregates import on_column, rows
from airflow_dq.engine.columns import find_field, quoted, require_string
from airflow_dq.engine.context import CountIf, Dataset, Outcome, Pending
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.predicates import predicate


def prepare(a: Assertion, ds: Dataset) -> Pending:
    field = find_field(ds.schema, a.field)
    transform = (a.params or {}).get("field_transform")
    if transform == "length":  # DataHub's own form of length checks: a numeric condition on length(field)
        require_string(field, "field_transform length")
        checked = T.StructField(field.name, T.IntegerType())
    elif transform:
        raise NotEvaluable(f"field_transform {transform!r} is not supported (only 'length')")
    else:
        checked = field
    ds.scope(a.filter)  # an invalid filter is this assertion's error, whatever is shared
    non_null_only = a.exclude_nulls and a.condition.type not in ("is_null", "is_not_null")

    # Columns are built only when no other assertion has asked for the same count (Dataset.shared).
    def value() -> Column:
        col = ds.column(quoted(field.name))
        return F.length(col) if transform == "length" else col

    def in_scope(col: Column, cond: Column) -> Column:
        return ds.within(a.filter, col.isNotNull() & cond if non_null_only else cond)

    def failing_rows():
        col = value()
        passes = predicate(a.condition, col, checked, ds.spark)  # validates the condition against the column
        return CountIf(in_scope(col, ~F.coalesce(passes, ds.literal(False))))

    # Shared by assertions that differ only in threshold or severity: the predicate is evaluated once per row.
    predicate_key = json.dumps([a.condition.to_dict(), transform, bool(non_null_only)], sort_keys=True, default=str)
    failing = on_column(ds, f"failing|{predicate_key}", field.name, a.filter, failing_rows)
    if non_null_only:
        total = on_column(ds, "non_null", field.name, a.filter, lambda: CountIf(ds.within(a.filter, value().isNotNull())))
    else:
        total = rows(ds, a.filter)
    threshold = a.failure_threshold
    described = ("length " if transform == "length" else "") + a.condition.describe()
    expected = f"{described}; {threshold.describe()}"

    def finish(values: dict) -> Outcome:
        bad, rows = values["failing"], values["total"]
        ok = threshold.allows(bad, rows)
        return Outcome(
            "pass" if ok else "fail",
            actual=bad,
            expected=expected,
            failing_rows=bad,
            total_rows=rows,
            details={"failing_percentage": (bad * 100.0 / rows) if rows else 0.0},
        )

    return Pending({"failing": failing, "total": total}, finish)
