"""Every Spark SQL type → one of the 11 high-level types of the assertion spec (docs/semantics.md has the table)."""

from __future__ import annotations

from pyspark.sql import types as T

from airflow_dq.engine.errors import NotEvaluable

# Checked in order; subclasses before their parents (e.g. VarcharType is not a StringType subclass, but be safe).
SPARK_TO_SPEC: tuple[tuple[type, str], ...] = (
    (T.StringType, "string"),
    (T.VarcharType, "string"),
    (T.CharType, "string"),
    (T.ByteType, "number"),
    (T.ShortType, "number"),
    (T.IntegerType, "number"),
    (T.LongType, "number"),
    (T.FloatType, "number"),
    (T.DoubleType, "number"),
    (T.DecimalType, "number"),
    (T.DayTimeIntervalType, "number"),
    (T.YearMonthIntervalType, "number"),
    (T.CalendarIntervalType, "number"),
    (T.BooleanType, "boolean"),
    (T.DateType, "date"),
    (T.TimestampType, "timestamp"),
    (T.TimestampNTZType, "timestamp"),
    (T.TimeType, "timestamp"),
    (T.BinaryType, "bytes"),
    (T.StructType, "struct"),
    (T.ArrayType, "array"),
    (T.MapType, "map"),
    (T.VariantType, "union"),
    (T.NullType, "union"),
    (T.GeometryType, "bytes"),
    (T.GeographyType, "bytes"),
)

# What an expected type also accepts, because Spark has no such type: an enum is stored as a string.
EXPECTED_ALSO_MATCHES = {"enum": ("string",)}


def spec_type(dt: T.DataType) -> str:
    """The high-level type of a Spark type; user-defined types map as their SQL storage type."""
    if isinstance(dt, T.UserDefinedType):
        return spec_type(dt.sqlType())
    for spark_type, name in SPARK_TO_SPEC:
        if isinstance(dt, spark_type):
            return name
    raise NotEvaluable(f"Spark type {dt.simpleString()} has no high-level schema type")


def matches(expected: str, dt: T.DataType) -> bool:
    actual = spec_type(dt)
    return actual == expected or actual in EXPECTED_ALSO_MATCHES.get(expected, ())
