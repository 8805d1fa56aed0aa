"""Row-level predicates of field-values assertions as Spark Columns, with type checks up front."""

from __future__ import annotations

import operator
from datetime import date
from decimal import Decimal, InvalidOperation

from pyspark.sql import Column, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.conditions import Condition
from airflow_dq.engine.columns import is_floating, is_numeric, is_string, require_numeric, require_string
from airflow_dq.engine.errors import NotEvaluable


def _literal(value, field: T.StructField, what: str):
    """The expected value as a literal of the column's kind; refuses values that cannot be compared."""
    dt = field.dataType
    if is_numeric(dt):
        if isinstance(value, bool) or value is None:
            raise NotEvaluable(f"{what}: {value!r} is not a number (column {field.name!r} is numeric)")
        if isinstance(dt, T.DecimalType):  # exactly the decimal written: 0.1 is 0.1, not the double nearest to it
            try:
                return Decimal(str(value).strip())
            except InvalidOperation:
                raise NotEvaluable(f"{what}: {value!r} is not a number (column {field.name!r} is numeric)") from None
        if isinstance(value, (int, float)):
            return value
        try:
            return Decimal(str(value).strip()) if isinstance(dt, T.DecimalType) else float(str(value).strip())
        except (ValueError, InvalidOperation):
            raise NotEvaluable(f"{what}: {value!r} is not a number (column {field.name!r} is numeric)") from None
    if is_string(dt):
        if isinstance(value, (dict, list)):
            raise NotEvaluable(f"{what}: {value!r} is not a scalar")
        return value if isinstance(value, str) else str(value)
    if isinstance(dt, T.BooleanType):
        if isinstance(value, bool):
            return value
        raise NotEvaluable(f"{what}: {value!r} is not a boolean (column {field.name!r} is boolean)")
    if isinstance(dt, (T.DateType, T.TimestampType, T.TimestampNTZType)):
        return _temporal(value, field, what)
    return value


def _temporal(value, field: T.StructField, what: str) -> Column:
    """A date/timestamp value (ISO text, or a date/datetime as YAML builds it) as a literal of the column's type.

    Spark casts the text in the session time zone, UTC (an offset-less value is UTC). A YAML datetime goes as its ISO
    text, so it is read the same in-process and from the plan's JSON, whatever the driver's local time zone. On a
    timestamp_ntz column a value with an offset is the instant's UTC wall-clock time (Spark's own cast would drop
    the offset), as timestamp_ntz values are read as UTC (docs/semantics.md)."""
    dt = field.dataType
    if isinstance(value, date):  # datetime is a date too
        text = value.isoformat()
    elif isinstance(value, str) and value.strip():
        text = value.strip()
    else:
        raise NotEvaluable(f"{what}: {value!r} is not a date or timestamp (column {field.name!r} is "
                           f"{dt.simpleString()})")
    lit = F.lit(text)
    if isinstance(dt, T.DateType):
        return lit.cast("date")
    if isinstance(dt, T.TimestampType):
        return lit.cast("timestamp")
    return lit.cast("timestamp").cast("timestamp_ntz")


def _length_bound(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or value < 0:
        raise NotEvaluable(f"{what}: {value!r} is not a non-negative whole number")
    return int(value)


def check_java_regex(spark: SparkSession, pattern: str) -> None:
    """Compile the pattern with the JVM's regex engine, the one Spark's rlike uses."""
    if not isinstance(pattern, str):
        raise NotEvaluable(f"matches_regex: {pattern!r} is not a string")
    try:
        spark.sparkContext._jvm.java.util.regex.Pattern.compile(pattern)
    except Exception as exc:
        msg = str(exc).split("PatternSyntaxException:")[-1].strip().splitlines()[0]
        raise NotEvaluable(f"invalid regular expression {pattern!r}: {msg}") from None


def literal_for(field: T.StructField, cond: Condition, part: str):
    """The condition's ``value`` / ``min`` / ``max`` as the predicate compares it with the column (None if unset)."""
    raw = getattr(cond, part, None)
    return None if raw is None else _literal(raw, field, f"{cond.type} {part}")


_COMPARE = {"greater_than": operator.gt, "greater_than_or_equal_to": operator.ge,
            "less_than": operator.lt, "less_than_or_equal_to": operator.le}


def predicate(cond: Condition, col: Column, field: T.StructField, spark: SparkSession) -> Column:
    """A Column true for rows that satisfy the condition (NULL for NULL input, except is_null/is_not_null).

    On float/double columns a NaN value satisfies no comparison (Spark would order NaN above every number and
    call NaN = NaN true); it is not NULL, so is_null is false and is_not_null true for it (docs/semantics.md).
    """
    test = _predicate(cond, col, field, spark)
    if is_floating(field.dataType) and cond.type not in ("is_null", "is_not_null"):
        return test & ~F.isnan(col)
    return test


def _predicate(cond: Condition, col: Column, field: T.StructField, spark: SparkSession) -> Column:
    t = cond.type
    if t == "is_null":
        return col.isNull()
    if t == "is_not_null":
        return col.isNotNull()
    if t in ("in", "not_in"):
        if not isinstance(cond.value, (list, tuple)) or not cond.value:
            raise NotEvaluable(f"{t}: value must be a non-empty list, got {cond.value!r}")
        values = [_literal(v, field, t) for v in cond.value]
        return col.isin(values) if t == "in" else ~col.isin(values)
    # Python values go to the JVM as they are (Column's operators make the literal there: one py4j round trip each).
    if t in ("equal_to", "not_equal_to"):
        v = _literal(cond.value, field, t)
        return col == v if t == "equal_to" else col != v
    if t in ("greater_than", "greater_than_or_equal_to", "less_than", "less_than_or_equal_to", "between"):
        require_numeric(field, t)
        if t == "between":
            lo, hi = _literal(cond.min, field, "between min"), _literal(cond.max, field, "between max")
            return (col >= lo) & (col <= hi)
        return _COMPARE[t](col, _literal(cond.value, field, t))
    if t == "matches_regex":
        require_string(field, t)
        check_java_regex(spark, cond.value)
        # Whole-value match (as Snowflake's RLIKE and most catalog UIs read "matches"), not substring search.
        return col.rlike("^(?:" + cond.value + ")$")
    if t == "not_empty":
        require_string(field, t)
        return F.length(col) > 0
    if t in ("length_greater_than", "length_less_than", "length_between"):
        require_string(field, t)
        n = F.length(col)
        if t == "length_between":
            return (n >= _length_bound(cond.min, "length_between min")) & (n <= _length_bound(cond.max, "length_between max"))
        bound = _length_bound(cond.value, t)
        return n > bound if t == "length_greater_than" else n < bound
    raise NotEvaluable(f"condition {t!r} is not a field-values condition")


