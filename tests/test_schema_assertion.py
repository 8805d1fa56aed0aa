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


# Every Spark type of the table in docs/semantics.md ("Spark type → high-level type"), under the name the table gives
# it, with a SQL expression producing a column of that type (None: Spark 4.2 cannot make one without extra settings).
WKB_POINT = "X'0101000000000000000000F03F0000000000000040'"
SPARK_TYPES = {
    "string": (T.StringType(), "CAST(NULL AS STRING)"), "varchar(n)": (T.VarcharType(5), "CAST(NULL AS VARCHAR(5))"),
    "char(n)": (T.CharType(3), "CAST(NULL AS CHAR(3))"), "tinyint": (T.ByteType(), "CAST(NULL AS TINYINT)"),
    "smallint": (T.ShortType(), "CAST(NULL AS SMALLINT)"), "int": (T.IntegerType(), "CAST(NULL AS INT)"),
    "bigint": (T.LongType(), "CAST(NULL AS BIGINT)"), "float": (T.FloatType(), "CAST(NULL AS FLOAT)"),
    "double": (T.DoubleType(), "CAST(NULL AS DOUBLE)"),
    "decimal(p,s)": (T.DecimalType(10, 2), "CAST(NULL AS DECIMAL(10,2))"),
    "interval day to second": (T.DayTimeIntervalType(), "CAST(NULL AS INTERVAL DAY TO SECOND)"),
    "interval year to month": (T.YearMonthIntervalType(), "CAST(NULL AS INTERVAL YEAR TO MONTH)"),
    "interval": (T.CalendarIntervalType(), "make_interval(1, 2)"),
    "boolean": (T.BooleanType(), "CAST(NULL AS BOOLEAN)"),
    "date": (T.DateType(), "CAST(NULL AS DATE)"), "timestamp": (T.TimestampType(), "CAST(NULL AS TIMESTAMP)"),
    "timestamp_ntz": (T.TimestampNTZType(), "CAST(NULL AS TIMESTAMP_NTZ)"), "time": (T.TimeType(), None),
    "binary": (T.BinaryType(), "CAST(NULL AS BINARY)"), "geometry": (T.GeometryType(0), f"st_geomfromwkb({WKB_POINT})"),
    "geography": (T.GeographyType(4326), f"st_geogfromwkb({WKB_POINT})"),
    "struct<…>": (T.StructType([T.StructField("x", T.IntegerType())]), "named_struct('x', 1)"),
    "array<…>": (T.ArrayType(T.StringType()), "array('a')"),
    "map<…>": (T.MapType(T.StringType(), T.IntegerType()), "map('a', 1)"),
    "variant": (T.VariantType(), "parse_json('1')"), "void": (T.NullType(), "NULL"),
}


def documented_type_table() -> dict[str, str]:
    """The docs' table as {Spark type name: high-level type} (backticked names in the first column)."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "semantics.md").read_text(encoding="utf-8")
    after = text.split("\nSpark type → high-level type", 1)[1].splitlines()
    start = next(i for i, line in enumerate(after) if line.startswith("|"))
    table = after[start:start + next(i for i, line in enumerate(after[start:] + [""]) if not line.startswith("|"))]
    out = {}
    for line in table[2:]:
        spark_cell, high = (c.strip() for c in line.strip("|").split("|"))
        for name in re.findall(r"`([^`]+)`", spark_cell):
            out[name] = high
    return out


def test_the_documented_type_table_is_what_the_engine_does():
    from airflow_dq.engine.type_map import SPARK_TO_SPEC, spec_type

    documented = documented_type_table()
    assert set(documented) == set(SPARK_TYPES)  # the table and this test name the same types
    assert {name: spec_type(dt) for name, (dt, _) in SPARK_TYPES.items()} == documented
    # every type class the engine maps is in the table (a new mapping needs a docs row)
    assert {cls for cls, _ in SPARK_TO_SPEC} <= {type(dt) for dt, _ in SPARK_TYPES.values()}
    assert set(documented.values()) <= set(SCHEMA_TYPES)


def test_every_spark_type_maps_to_a_high_level_type():
    from airflow_dq.engine.type_map import spec_type
    from pyspark.ml.linalg import VectorUDT

    assert {f.name: spec_type(f.dataType) for f in ALL_TYPES.fields} == EXPECTED
    assert spec_type(T.VariantType()) == "union" and spec_type(T.NullType()) == "union"
    assert spec_type(VectorUDT()) == spec_type(VectorUDT().sqlType()) == "struct"  # user-defined: its storage type
    assert set(EXPECTED.values()) | {"union"} <= set(SCHEMA_TYPES)


def test_a_schema_assertion_over_every_representable_spark_type(spark):
    """One column per type Spark can make here, char/varchar kept as such; exact_match with the documented
    high-level types passes, `union` matches the variant and void columns only, and nothing is scanned."""
    documented = documented_type_table()
    made = {name: sql for name, (_, sql) in SPARK_TYPES.items() if sql}
    columns = {name: "c_" + "".join(ch if ch.isalnum() else "_" for ch in name).strip("_") for name in made}
    spark.conf.set("spark.sql.preserveCharVarcharTypeInfo", "true")
    try:
        spark.sql("SELECT " + ", ".join(f"{sql} AS {columns[n]}" for n, sql in made.items())) \
            .createOrReplaceTempView("every_spark_type")
        got = {f.name: f.dataType for f in spark.table("every_spark_type").schema.fields}
        assert {n: type(got[columns[n]]) for n in made} == {n: type(SPARK_TYPES[n][0]) for n in made}
        union_cols = [c for n, c in columns.items() if documented[n] == "union"]
        text = "version: 1\nassertions:\n" + "".join([
            _schema("exact", "exact_match", [(columns[n], documented[n]) for n in made]),
            _schema("union_ok", "contains", [(c, "UNION") for c in union_cols]),
            _schema("union_bad", "contains", [(columns["string"], "union"), (columns["map<…>"], "union")]),
        ])
        result = run_yaml(spark, text, {"t": "table:every_spark_type"}, run_id="schema-every-type")
    finally:
        spark.conf.unset("spark.sql.preserveCharVarcharTypeInfo")
    res = by_name(result)
    assert res["exact"].status == "pass", res["exact"].message
    assert len(union_cols) == 2 and res["union_ok"].status == "pass", res["union_ok"].message
    bad = res["union_bad"]
    assert bad.status == "fail" and [(m["column"], m["actual"]) for m in bad.details["mistyped"]] == [
        (columns["string"], "string"), (columns["map<…>"], "map")]
    assert result.datasets[0]["spark_jobs"] == 0


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
