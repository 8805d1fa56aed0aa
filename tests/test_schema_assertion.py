"""Schema assertions: exact_match / contains over the 11 high-level types; zero data scans."""

from __future__ import annotations

import pytest
from pyspark.sql import types as T

from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from airflow_dq.spec.models import SCHEMA_TYPES, normalize_schema_type
from tests.helpers import by_name, run_yaml

ALL_TYPES = T.StructType([
    T.StructField("s", T.StringType()), T.StructField("vc", T.VarcharType(5)), T.StructField("i", T.IntegerType()),
    T.StructField("l", T.LongType()), T.StructField("d", T.DoubleType()), T.StructField("dec", T.DecimalType(10, 2)),
    T.StructField("b", T.BooleanType()), T.StructField("dt", T.DateType()), T.StructField("ts", T.TimestampType()),
    T.StructField("ntz", T.TimestampNTZType()), T.StructField("st", T.StructType([T.StructField("x", T.IntegerType())])),
    T.StructField("arr", T.ArrayType(T.StringType())), T.StructField("m", T.MapType(T.StringType(), T.IntegerType())),
    T.StructField("bin", T.BinaryType()), T.StructField("ym", T.YearMonthIntervalType()),
])
EXPECTED = {"s": "string", "vc": "string", "i": "number", "l": "number", "d": "number", "dec": "number",
            "b": "boolean", "dt": "date", "ts": "timestamp", "ntz": "timestamp", "st": "struct", "arr": "array",
            "m": "map", "bin": "bytes", "ym": "number"}


def test_every_spark_type_maps_to_a_high_level_type():
    from airflow_dq.engine.type_map import spec_type

    assert {f.name: spec_type(f.dataType) for f in ALL_TYPES.fields} == EXPECTED
    assert spec_type(T.VariantType()) == "union" and spec_type(T.NullType()) == "union"
    assert set(EXPECTED.values()) | {"union"} <= set(SCHEMA_TYPES)


@pytest.mark.parametrize("name,high", [("INTEGER", "number"), ("Decimal(10, 2)", "number"), ("VARCHAR(20)", "string"),
                                       ("TimeStamp", "timestamp"), ("bool", "boolean"), ("ENUM", "enum"),
                                       ("binary", "bytes"), ("record", "struct")])
def test_type_names_are_case_insensitive_with_sql_aliases(name, high):
    assert normalize_schema_type(name) == high


def test_unknown_type_name_is_refused_with_its_place():
    spec = "version: 1\nassertions:\n- entity: t\n  type: schema\n  condition:\n    type: contains\n    columns:\n      - {name: a, type: strang}\n"
    with pytest.raises(SpecError) as info:
        load_spec_text(spec, file="s.yml")
    assert "assertions[0].condition.columns[0].type" in str(info.value) and "unknown schema type 'strang'" in str(info.value)


@pytest.fixture(scope="module")
def typed_table(spark):
    """A catalog (temp) table with one column of each Spark type of ALL_TYPES plus ``e`` (string, for enum)."""
    casts = ", ".join(f"CAST(NULL AS {f.dataType.simpleString()}) AS {f.name}" for f in ALL_TYPES.fields)
    spark.sql(f"SELECT {casts}, CAST(NULL AS STRING) AS e").createOrReplaceTempView("typed_schema_table")
    got = {f.name: f.dataType for f in spark.table("typed_schema_table").schema.fields}
    assert all(got[f.name] == f.dataType for f in ALL_TYPES.fields if f.name != "vc")  # a cast to varchar is string
    return "table:typed_schema_table"


def _columns(pairs):
    return "\n".join(f"      - {{name: {n}, type: {t}}}" for n, t in pairs)


def _schema(name, match, pairs):
    return f"- entity: t\n  name: {name}\n  type: schema\n  condition:\n    type: {match}\n    columns:\n{_columns(pairs)}\n"


def test_exact_and_contains_name_missing_extra_and_mistyped_columns_without_reading_data(spark, typed_table):
    all_pairs = list(EXPECTED.items()) + [("e", "enum")]
    text = "version: 1\nassertions:\n" + "".join([
        _schema("exact_ok", "exact_match", [(n.upper(), t.upper()) for n, t in all_pairs]),
        _schema("contains_ok", "contains", [("i", "integer"), ("dec", "DECIMAL"), ("ts", "timestamp")]),
        _schema("exact_bad", "exact_match", [(n, t) for n, t in all_pairs if n != "m"] + [("ghost", "string")]),
        _schema("contains_bad", "contains", [("i", "string"), ("dt", "timestamp"), ("ghost", "number")]),
    ])
    result = run_yaml(spark, text, {"t": typed_table}, run_id="schema-no-scan")  # own job group: jobs counted alone
    res = by_name(result)
    assert res["exact_ok"].status == "pass" and res["contains_ok"].status == "pass"
    bad = res["exact_bad"]
    assert bad.status == "fail"
    assert (bad.details["missing"], bad.details["extra"]) == (["ghost"], ["m"])
    assert "missing columns: ghost" in bad.message and "extra columns: m" in bad.message
    cb = res["contains_bad"]
    assert cb.status == "fail" and cb.details["missing"] == ["ghost"]
    assert [(m["column"], m["expected"], m["actual"], m["spark_type"]) for m in cb.details["mistyped"]] == [
        ("i", "string", "number", "int"), ("dt", "timestamp", "date", "date")]
    assert "mistyped columns: i (expected string, found number [int])" in cb.message
    assert result.datasets[0]["fused_jobs"] == 0 or result.datasets[0]["aggregates"] <= 1
    assert result.datasets[0]["spark_jobs"] == 0  # schema only: no data scanned (not even the row count)
