"""DataQualityMetricsDatasetFacet from numbers the engine already computed — never an extra Spark scan.

Sources, all within one *scope* (the rows the facet describes: the whole dataset, or the one filter every
assertion on the dataset shares):

* ``rowCount``: the dataset's ``rows`` (whole-dataset scope), or the row count of a volume assertion / a
  field-values total in the shared-filter scope;
* field-metric primitives (``details.inputs``): ``nulls`` → nullCount, ``non_null`` → count, ``distinct`` →
  distinctCount, ``min``/``max`` (numbers only), ``median`` → quantiles["0.5"], ``mean`` × ``non_null`` → sum;
* field-values counts: ``is_not_null`` failing rows → nullCount, ``is_null`` failing rows → count, and the total of
  an ``exclude_nulls`` assertion → count;
* ``lastUpdated``: the newest modification a freshness assertion found.

Numbers computed under any other filter describe other rows and are left out.
"""

from __future__ import annotations

import math
from typing import Any

from openlineage.client.generated.data_quality_metrics_dataset import ColumnMetrics, DataQualityMetricsDatasetFacet

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.results import AssertionResult

_INTEGRAL = ("tinyint", "smallint", "int", "bigint", "byte", "short", "long", "integer")


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _num(value: Any) -> float | int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return None if isinstance(value, float) and (math.isnan(value) or math.isinf(value)) else value
    try:
        number = float(value)  # Decimals travel as strings when a float would lose digits
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) or math.isinf(number) else number


class _Column:
    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def put(self, key: str, value: Any) -> None:
        if value is not None:
            self.values.setdefault(key, value)  # same scope, same number: the first one found is as good


def _column_name(field: str, schema: list[dict]) -> str:
    for col in schema:
        if str(col.get("name", "")).lower() == field.lower():
            return col["name"]
    return field


def _column_type(name: str, schema: list[dict]) -> str:
    return next((str(c.get("type", "")) for c in schema if c.get("name") == name), "")


def metrics_facet(stats: dict | None, pairs: list[tuple[Assertion, AssertionResult]], scope: str | None,
                  capture_date: str | None = None) -> DataQualityMetricsDatasetFacet | None:
    """The metrics facet of one dataset in ``scope`` (None = all rows), or None when nothing is known."""
    stats = stats or {}
    schema = stats.get("schema") or []
    row_count = _int(stats.get("rows")) if scope is None else None
    columns: dict[str, _Column] = {}
    last_updated = None
    for a, r in pairs:
        if ((a.filter or "").strip() or None) != scope:
            continue
        if a.kind == "volume" and r.status != "error" and row_count is None:
            row_count = _int(r.actual)
        if a.kind == "freshness" and isinstance(r.actual, str) and "T" in r.actual:
            last_updated = max(last_updated or r.actual, r.actual)
            continue
        if not a.field:
            continue
        name = _column_name(a.field, schema)
        col = columns.setdefault(name, _Column())
        if a.kind == "field_metric":
            inputs = (r.details or {}).get("inputs") or {}
            col.put("nullCount", _int(inputs.get("nulls")))
            col.put("count", _int(inputs.get("non_null")))
            col.put("distinctCount", _int(inputs.get("distinct")))
            col.put("min", _num(inputs.get("min")))
            col.put("max", _num(inputs.get("max")))
            col.put("median", _num(inputs.get("median")))
            col.put("mean", _num(inputs.get("mean")))
            if row_count is None:
                row_count = _int(inputs.get("rows"))
        elif a.kind == "field_values" and r.status != "error" and not a.params.get("field_transform"):
            ctype = a.condition.type if a.condition else None
            excluded = a.exclude_nulls and ctype not in ("is_null", "is_not_null")
            if excluded:
                col.put("count", _int(r.total_rows))
            elif row_count is None:
                row_count = _int(r.total_rows)
            if ctype == "is_not_null":
                col.put("nullCount", _int(r.failing_rows))
            elif ctype == "is_null":
                col.put("count", _int(r.failing_rows))
    metrics = {}
    for name, col in columns.items():
        v = col.values
        if "count" not in v and "nullCount" in v and row_count is not None:
            v["count"] = row_count - v["nullCount"]
        total = None
        if v.get("mean") is not None and v.get("count") is not None:
            total = v["mean"] * v["count"]
            if _column_type(name, schema).lower() in _INTEGRAL:
                total = round(total)
        quantiles = {"0.5": float(v["median"])} if v.get("median") is not None else None
        cm = ColumnMetrics(nullCount=v.get("nullCount"), distinctCount=v.get("distinctCount"), sum=total,
                           count=v.get("count"), min=v.get("min"), max=v.get("max"), quantiles=quantiles)
        if any(x is not None for x in (cm.nullCount, cm.distinctCount, cm.sum, cm.count, cm.min, cm.max,
                                       cm.quantiles)):
            metrics[name] = cm
    if row_count is None and not metrics and last_updated is None:
        return None
    return DataQualityMetricsDatasetFacet(columnMetrics=metrics, rowCount=row_count, lastUpdated=last_updated,
                                          captureDate=capture_date)
