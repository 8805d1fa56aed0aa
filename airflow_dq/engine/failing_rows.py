"""The row-level test of a field-values assertion as two Spark Columns: which rows it looks at, which of them fail.

Diagnostics (dimensions, samples) evaluate exactly the rows the assertion counted: the dimension pass checks that its
grand total equals the assertion's own failing/total counts, so any drift from ``field_values`` shows as an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.assertions import Assertion
from airflow_dq.engine.columns import find_field, quoted
from airflow_dq.engine.context import Dataset
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.predicates import predicate

NULL_CONDITIONS = ("is_null", "is_not_null")


@dataclass
class RowTest:
    scope: Column  # true for rows the assertion counts (its total)
    failing: Column  # true for counted rows that fail the condition (its failing rows)


def row_test(a: Assertion, ds: Dataset) -> RowTest:
    if a.kind != "field_values" or a.condition is None:
        raise NotEvaluable(f"diagnostics apply to field values assertions, not to {a.kind}")
    field = find_field(ds.schema, a.field)
    col = F.col(quoted(field.name))
    transform = (a.params or {}).get("field_transform")
    if transform == "length":
        col, field = F.length(col), T.StructField(field.name, T.IntegerType())
    elif transform:
        raise NotEvaluable(f"field_transform {transform!r} is not supported by diagnostics")
    passes = predicate(a.condition, col, field, ds.spark)
    scope = ds.scope(a.filter)
    if a.exclude_nulls and a.condition.type not in NULL_CONDITIONS:
        scope = scope & col.isNotNull()
    return RowTest(scope=scope, failing=scope & ~F.coalesce(passes, F.lit(False)))
