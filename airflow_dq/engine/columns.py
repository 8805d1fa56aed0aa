"""Column lookup and type classification against a DataFrame schema."""

from __future__ import annotations

from pyspark.sql import types as T

from airflow_dq.engine.errors import NotEvaluable

NUMERIC_TYPES = (T.ByteType, T.ShortType, T.IntegerType, T.LongType, T.FloatType, T.DoubleType, T.DecimalType)
STRING_TYPES = (T.StringType, T.VarcharType, T.CharType)


def find_field(schema: T.StructType, name: str | None) -> T.StructField:
    """The schema field named ``name``: exact match first, then a unique case-insensitive match."""
    if not name:
        raise NotEvaluable("the assertion names no field")
    for f in schema.fields:
        if f.name == name:
            return f
    matches = [f for f in schema.fields if f.name.lower() == name.lower()]
    if len(matches) == 1:
        return matches[0]
    available = ", ".join(f.name for f in schema.fields)
    raise NotEvaluable(f"column {name!r} does not exist (columns: {available})")


def is_numeric(dt: T.DataType) -> bool:
    return isinstance(dt, NUMERIC_TYPES)


def is_string(dt: T.DataType) -> bool:
    return isinstance(dt, STRING_TYPES)


def is_floating(dt: T.DataType) -> bool:
    return isinstance(dt, (T.FloatType, T.DoubleType))


def require_numeric(field: T.StructField, what: str) -> None:
    if not is_numeric(field.dataType):
        raise NotEvaluable(f"{what} needs a numeric column; {field.name!r} is {field.dataType.simpleString()}")


def require_string(field: T.StructField, what: str) -> None:
    if not is_string(field.dataType):
        raise NotEvaluable(f"{what} needs a string column; {field.name!r} is {field.dataType.simpleString()}")


def quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"
