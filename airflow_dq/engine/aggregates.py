"""Shared aggregate primitives with semantic keys, so assertions on the same column/filter share work."""

from __future__ import annotations

from pyspark.sql import Column
from pyspark.sql import functions as F

from airflow_dq.engine.context import Agg


def count_where(cond: Column) -> Column:
    """Number of rows where ``cond`` is true (0 on an empty table, unlike sum)."""
    return F.count(F.when(cond, F.lit(1)))


def rows(scope: Column, sql_filter: str | None) -> Agg:
    if not sql_filter:
        return Agg("rows", F.count(F.lit(1)))
    return Agg(f"rows|{sql_filter}", count_where(scope))


def on_column(primitive: str, column: str, sql_filter: str | None, expr: Column) -> Agg:
    """An aggregate over one column within a filter, identified by (primitive, column, filter)."""
    return Agg(f"{primitive}|{column}|{sql_filter or ''}", expr)
