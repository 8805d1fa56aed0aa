"""An independent implementation of the documented semantics (docs/semantics.md) in plain Python.

It reads the same Parquet file with pyarrow (not Spark) and computes every field metric and every field-values
outcome value by value. The differential tests compare the engine's result document with it.
"""

from __future__ import annotations

import math
import re
import statistics
from decimal import Decimal
from typing import Any

ERROR = "error"


def read_columns(path: str) -> dict[str, list]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return {name: table.column(name).to_pylist() for name in table.column_names}


def is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _num(v: Any) -> Any:
    return v


def metric(name: str, values: list) -> Any:
    """The metric over the in-scope values, or ERROR when the documented semantics say it is undefined."""
    rows = len(values)
    non_null = [v for v in values if v is not None]
    nulls = rows - len(non_null)
    if name == "null_count":
        return nulls
    if name == "null_percentage":
        return ERROR if rows == 0 else nulls * 100.0 / rows
    if name in ("unique_count", "unique_percentage"):
        distinct = len({("nan",) if is_nan(v) else v for v in non_null})  # all NaN are one value; 0.0 == -0.0
        if name == "unique_count":
            return distinct
        return ERROR if not non_null else distinct * 100.0 / len(non_null)
    if name in ("empty_count", "empty_percentage"):
        empty = sum(1 for v in non_null if v == "")
        if name == "empty_count":
            return empty
        return ERROR if rows == 0 else empty * 100.0 / rows
    if name in ("negative_count", "negative_percentage", "zero_count", "zero_percentage"):
        test = (lambda v: v < 0) if name.startswith("negative") else (lambda v: v == 0)
        count = sum(1 for v in non_null if not is_nan(v) and test(v))
        if name.endswith("_count"):
            return count
        return ERROR if rows == 0 else count * 100.0 / rows
    # statistics
    if any(is_nan(v) for v in non_null) or not non_null:
        return ERROR
    if name == "min":
        return min(non_null)
    if name == "max":
        return max(non_null)
    if name == "mean":
        if any(isinstance(v, float) and math.isinf(v) for v in non_null):
            total = sum(non_null)
            return ERROR if math.isnan(total) else total
        if isinstance(non_null[0], Decimal):
            return sum(non_null) / len(non_null)
        return math.fsum(non_null) / len(non_null)
    if name == "median":
        if any(isinstance(v, float) and math.isinf(v) for v in non_null):
            s = sorted(non_null)
            n = len(s)
            mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
            return ERROR if isinstance(mid, float) and math.isnan(mid) else mid
        return statistics.median([float(v) if isinstance(v, Decimal) else v for v in non_null])
    if name == "stddev":
        if len(non_null) < 2:
            return ERROR
        if any(isinstance(v, float) and math.isinf(v) for v in non_null):
            return ERROR  # inf - inf: NaN
        return statistics.stdev([float(v) for v in non_null])
    raise KeyError(name)


def metric_condition(cond: dict, value: Any) -> str:
    """pass/fail/error of a metric condition on a computed value, by Python's own comparison operators."""
    if value == ERROR or value is None:
        return ERROR
    v = float(value)
    t = cond["type"]
    if t == "between":
        return "pass" if cond["min"] <= v <= cond["max"] else "fail"
    e = cond["value"]
    ok = {"equal_to": v == e, "not_equal_to": v != e, "greater_than": v > e, "greater_than_or_equal_to": v >= e,
          "less_than": v < e, "less_than_or_equal_to": v <= e}[t]
    return "pass" if ok else "fail"


def row_passes(cond: dict, v: Any) -> bool:
    """Whether one value satisfies a field-values condition (NULL and NaN fail every comparison)."""
    t = cond["type"]
    if t == "is_null":
        return v is None
    if t == "is_not_null":
        return v is not None
    if v is None or is_nan(v):
        return False
    if t == "in":
        return v in cond["value"]
    if t == "not_in":
        return v not in cond["value"]
    if t == "equal_to":
        return v == cond["value"]
    if t == "not_equal_to":
        return v != cond["value"]
    if t == "greater_than":
        return v > cond["value"]
    if t == "greater_than_or_equal_to":
        return v >= cond["value"]
    if t == "less_than":
        return v < cond["value"]
    if t == "less_than_or_equal_to":
        return v <= cond["value"]
    if t == "between":
        return cond["min"] <= v <= cond["max"]
    if t == "matches_regex":
        return re.fullmatch(cond["value"], v, flags=re.ASCII) is not None  # Java's default: \w, \d, \s are ASCII
    if t == "not_empty":
        return len(v) > 0
    if t == "length_greater_than":
        return len(v) > cond["value"]
    if t == "length_less_than":
        return len(v) < cond["value"]
    if t == "length_between":
        return cond["min"] <= len(v) <= cond["max"]
    raise KeyError(t)


def field_values(cond: dict, values: list, exclude_nulls: bool) -> tuple[int, int]:
    """(failing rows, rows counted) of a field-values assertion."""
    if exclude_nulls and cond["type"] not in ("is_null", "is_not_null"):
        values = [v for v in values if v is not None]
    failing = sum(1 for v in values if not row_passes(cond, v))
    return failing, len(values)
