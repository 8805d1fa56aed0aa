"""Shared aggregate primitives with semantic keys, so assertions on the same column/filter share work."""

from __future__ import annotations

from typing import Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

from airflow_dq.engine.context import Agg, CountIf, Dataset, count_where

__all__ = ["count_where", "on_column", "rows"]


def rows(ds: Dataset, sql_filter: str | None) -> Agg:
    """Rows of the dataset, or of the rows a filter selects (an invalid filter raises NotEvaluable)."""
    if not sql_filter:
        return ds.shared("rows", lambda: CountIf(ds.literal(True)))
    return ds.shared(f"rows|{sql_filter}", lambda: CountIf(ds.scope(sql_filter)))


def on_column(ds: Dataset, primitive: str, column: str, sql_filter: str | None,
              build: Callable[[], Column | CountIf]) -> Agg:
    """An aggregate over one column within a filter, identified by (primitive, column, filter)."""
    return ds.shared(f"{primitive}|{column}|{sql_filter or ''}", build)
