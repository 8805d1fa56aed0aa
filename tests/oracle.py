"""An independent implementation of the documented semantics (docs/semantics.md) in plain Python.

It reads the same Parquet file with pyarrow (not Spark) and computes every field metric and every field-values
outcome value by value. The differential tests compare the engine's result document with it.
"""

from __future__ import annotations

import functools
import math
import re
import statistics
from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Any

ERROR = "error"


@functools.lru_cache(maxsize=4)
def read_columns(path: str) -> dict[str, list]:
    """Every column of a Parquet file as Python values (cached: callers must not modify the lists)."""
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


def row_test(cond: dict):
    """A function telling whether one value satisfies a field-values condition (NULL and NaN fail every comparison
    except is_null / is_not_null)."""
    t = cond["type"]
    if t == "is_null":
        return lambda v: v is None
    if t == "is_not_null":
        return lambda v: v is not None
    value, lo, hi = cond.get("value"), cond.get("min"), cond.get("max")
    if t == "matches_regex":
        pattern = re.compile(value, flags=re.ASCII)  # Java's default: \w, \d, \s are ASCII
        test = lambda v: pattern.fullmatch(v) is not None  # noqa: E731
    else:
        test = {
            "in": lambda v: v in value, "not_in": lambda v: v not in value,
            "equal_to": lambda v: v == value, "not_equal_to": lambda v: v != value,
            "greater_than": lambda v: v > value, "greater_than_or_equal_to": lambda v: v >= value,
            "less_than": lambda v: v < value, "less_than_or_equal_to": lambda v: v <= value,
            "between": lambda v: lo <= v <= hi, "not_empty": lambda v: len(v) > 0,
            "length_greater_than": lambda v: len(v) > value, "length_less_than": lambda v: len(v) < value,
            "length_between": lambda v: lo <= len(v) <= hi,
        }[t]
    return lambda v: v is not None and not is_nan(v) and test(v)


def row_passes(cond: dict, v: Any) -> bool:
    """Whether one value satisfies a field-values condition."""
    return row_test(cond)(v)


NUMERIC_KINDS = ("double", "int64", "decimal")
NUMERIC_ONLY_CONDITIONS = ("greater_than", "greater_than_or_equal_to", "less_than", "less_than_or_equal_to", "between")
STRING_ONLY_CONDITIONS = ("matches_regex", "not_empty", "length_greater_than", "length_less_than", "length_between")


def condition_applies(cond_type: str, kind: str, transform: str | None = None) -> bool:
    """Whether a field-values condition is defined on a column of this kind (else the result is ``error``).

    Dates and timestamps are not numeric (docs/semantics.md): they take the any-type conditions only. With
    ``field_transform: length`` the column must be a string and the condition is numeric on the length."""
    if transform == "length":
        return kind == "string" and cond_type not in STRING_ONLY_CONDITIONS
    if cond_type in NUMERIC_ONLY_CONDITIONS:
        return kind in NUMERIC_KINDS
    if cond_type in STRING_ONLY_CONDITIONS:
        return kind == "string"
    return True


def _utc(v: datetime) -> datetime:
    return v.replace(tzinfo=timezone.utc) if v.tzinfo is None else v.astimezone(timezone.utc)


def _typed_value(v: Any, kind: str) -> Any:
    """A condition value as the documented semantics compare it with a column of this kind."""
    if kind == "decimal":
        return Decimal(str(v))  # the decimal written: 0.1 is exactly 0.1
    if kind == "date":
        return v.date() if isinstance(v, datetime) else v if isinstance(v, date) else date.fromisoformat(v)
    if kind in ("timestamp", "timestamp_ntz"):
        if isinstance(v, datetime):
            t = v
        elif isinstance(v, date):
            t = datetime(v.year, v.month, v.day)
        else:
            t = datetime.fromisoformat(v)
        t = _utc(t)  # an offset-less value is UTC; an offset is honoured
        return t if kind == "timestamp" else t.replace(tzinfo=None)  # timestamp_ntz: UTC wall-clock time
    return v


def typed_condition(cond: dict, kind: str) -> dict:
    out = dict(cond)
    for key in ("value", "min", "max"):
        if key in out and kind in ("decimal", "date", "timestamp", "timestamp_ntz"):
            v = out[key]
            out[key] = [_typed_value(x, kind) for x in v] if isinstance(v, list) else _typed_value(v, kind)
    return out


def field_values(cond: dict, values: list, exclude_nulls: bool, transform: str | None = None) -> tuple[int, int]:
    """(failing rows, rows counted) of a field-values assertion (``transform``: DataHub's ``field_transform``)."""
    if transform == "length":
        values = [None if v is None else len(v) for v in values]  # characters (code points)
    elif transform is not None:
        raise KeyError(transform)
    if exclude_nulls and cond["type"] not in ("is_null", "is_not_null"):
        values = [v for v in values if v is not None]
    test = row_test(cond)
    failing = sum(1 for v in values if not test(v))
    return failing, len(values)


def threshold_status(failing: int, total: int, threshold: dict | None) -> str:
    """pass/fail of a field-values assertion: failing rows within ``failure_threshold`` (default: count 0)."""
    threshold = threshold or {"type": "count", "value": 0}
    if threshold["type"] == "count":
        ok = failing <= threshold["value"]
    else:
        ok = total == 0 or failing * 100.0 / total <= threshold["value"]
    return "pass" if ok else "fail"
