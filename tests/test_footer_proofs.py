"""Field-values checks decided from Parquet footer statistics (engine/footer_proofs.py).

Pure units for the reasoning; then real Spark on a Parquet file written with pyarrow (two row groups, NULLs in some
columns), each suite run with footers on and off (plan option ``footer_stats: false``): identical results, and the
decided ones flagged ``from_parquet_footer`` and absent from the scan.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from airflow_dq.engine.footer_proofs import decided, every_value_passes
from tests.helpers import by_name
from tests.test_engine_speed import _run


@pytest.mark.parametrize("cond,value,low,high,expected", [
    ("between", None, 1, 50, True),
    ("between", None, 2, 50, False),  # the footer min 1 is outside
    ("between", None, Decimal("0.5"), Decimal("50.0"), True),
    ("greater_than", 0, None, None, True),
    ("greater_than", 1, None, None, False),
    ("greater_than_or_equal_to", 1, None, None, True),
    ("less_than", 50, None, None, False),
    ("less_than", 50.5, None, None, True),
    ("less_than_or_equal_to", 50, None, None, True),
    ("equal_to", 1, None, None, False),  # min 1, max 50: some value differs
    ("not_equal_to", 51, None, None, True),
    ("not_equal_to", 7, None, None, False),
    ("in", [1, 2], None, None, False),  # not decided from bounds
    ("greater_than", True, None, None, False),  # not a number
    ("greater_than", float("nan"), None, None, False),
])
def test_every_value_passes_only_when_the_bounds_prove_it(cond, value, low, high, expected):
    assert every_value_passes(cond, value, low, high, 1, 50) is expected


def test_a_float_literal_against_huge_integers_is_left_to_the_scan():
    big = 2 ** 60
    assert every_value_passes("greater_than", 0, None, None, big, big + 10)
    assert not every_value_passes("greater_than", 0.5, None, None, big, big + 10)  # Spark compares as doubles
    assert every_value_passes("less_than", 3.5, None, None, 1, 3)
    assert not every_value_passes("greater_than", 0, None, None, None, None)  # all-NULL or unknown bounds
    assert not every_value_passes("greater_than", 0, None, None, "a", "z")  # strings are never decided


def test_decided_counts():
    # unfiltered: the NULLs fail unless excluded
    assert decided("between", False, False, rows=100, nulls=3, values_pass=True) == {"failing": 3, "total": 100}
    assert decided("between", True, False, rows=100, nulls=3, values_pass=True) == {"failing": 0, "total": 97}
    assert decided("between", False, False, rows=100, nulls=3, values_pass=False) == {}
    assert decided("is_not_null", False, False, rows=100, nulls=3, values_pass=False) == {"failing": 3, "total": 100}
    assert decided("is_null", True, False, rows=100, nulls=3, values_pass=False) == {"failing": 97, "total": 100}
    # filtered: only "none fail anywhere" carries over; the filtered total is the scan's
    assert decided("between", False, True, rows=100, nulls=3, values_pass=True) == {}
    assert decided("between", True, True, rows=100, nulls=3, values_pass=True) == {"failing": 0}
    assert decided("is_not_null", False, True, rows=100, nulls=0, values_pass=False) == {"failing": 0}
    assert decided("is_null", False, True, rows=100, nulls=100, values_pass=False) == {"failing": 0}
    assert decided("matches_regex", False, False, rows=100, nulls=0, values_pass=True) == {}


@pytest.fixture(scope="module")
def proof_parquet(tmp_path_factory):
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 1000
    qty = [1 + i % 50 for i in range(n)]  # 1..50, no NULL
    price = [None if i % 97 == 0 else Decimal(i % 300) / 4 for i in range(n)]  # 0.00..74.75, NULLs
    mode = ["AIR", "RAIL", "SHIP", "TRUCK"]
    table = pa.table({
        "qty": pa.array(qty, pa.int32()),
        "price": pa.array(price, pa.decimal128(10, 2)),
        "mode": pa.array([mode[i % 4] for i in range(n)], pa.string()),
        "ratio": pa.array([i / 7 for i in range(n)], pa.float64()),  # floats: never decided (NaN)
    })
    path = tmp_path_factory.mktemp("proofs") / "items.parquet"
    pq.write_table(table, path, row_group_size=400, store_decimal_as_integer=True)  # as tpchgen-cli does
    return str(path), table.to_pandas()


def _suite() -> str:
    items = [
        ("qty_range", "field: qty\ncondition: {type: between, min: 1, max: 50}"),
        ("qty_range_air", "field: qty\nfilters: \"mode = 'AIR'\"\ncondition: {type: between, min: 0, max: 60}"),
        ("qty_positive", "field: qty\ncondition: {type: greater_than, value: 0}"),
        ("qty_small", "field: qty\ncondition: {type: less_than, value: 40}"),  # fails: not decided
        ("qty_not_null_rail", "field: qty\nfilters: \"mode = 'RAIL'\"\ncondition: {type: is_not_null}"),
        ("price_range", "field: price\ncondition: {type: between, min: 0, max: 100}"),  # NULLs fail
        ("price_range_nn", "field: price\nexclude_nulls: true\ncondition: {type: between, min: 0, max: 100}"),
        ("price_range_ship", "field: price\nfilters: \"mode = 'SHIP'\"\ncondition: {type: between, min: 0, max: 100}"),
        ("price_not_null_ship", "field: price\nfilters: \"mode = 'SHIP'\"\ncondition: {type: is_not_null}"),
        ("ratio_range", "field: ratio\ncondition: {type: greater_than_or_equal_to, value: 0}"),
    ]
    metrics = [
        ("qty_nulls_air", "field: qty\nmetric: null_count\nfilters: \"mode = 'AIR'\"\ncondition: {type: equal_to, value: 0}"),
        ("qty_unique_pct_air", "field: qty\nmetric: unique_percentage\nfilters: \"mode = 'AIR'\"\n"
         "condition: {type: greater_than, value: 0}"),
    ]
    lines = ["version: 1", "assertions:"]
    for name, body in items + metrics:
        lines += ["  - entity: items", f"    name: {name}", "    type: field"]
        lines += [f"    {ln}" for ln in body.splitlines()]
        if name.endswith("_range") or name == "qty_small":
            lines.append("    failure_threshold: {type: percentage, value: 50}")
    return "\n".join(lines) + "\n"


@pytest.mark.spark
def test_footer_decided_checks_equal_the_scanned_ones(spark, proof_parquet):
    path, d = proof_parquet
    sources = {"items": {"path": path, "format": "parquet"}}
    on = _run(spark, _suite(), sources, run_id="proofs-on")
    off = _run(spark, _suite(), sources, options={"footer_stats": False}, run_id="proofs-off")
    f, s = by_name(on), by_name(off)
    for name in f:
        assert (f[name].status, f[name].actual, f[name].failing_rows, f[name].total_rows) == \
               (s[name].status, s[name].actual, s[name].failing_rows, s[name].total_rows), name
        assert "from_parquet_footer" not in s[name].details
    air, ship = d[d["mode"] == "AIR"], d[d["mode"] == "SHIP"]
    nulls = int(d["price"].isna().sum())
    assert f["price_range"].failing_rows == nulls > 0 and f["price_range"].total_rows == len(d)
    assert f["price_range_nn"].failing_rows == 0 and f["price_range_nn"].total_rows == len(d) - nulls
    assert f["price_range_ship"].failing_rows == int(ship["price"].isna().sum())
    assert f["qty_small"].failing_rows == int((d["qty"] >= 40).sum())
    assert f["qty_range_air"].total_rows == len(air) and f["qty_unique_pct_air"].actual == 100.0 * air["qty"].nunique() / len(air)

    def footer(name):
        return f[name].details.get("from_parquet_footer")
    assert footer("qty_range") == ["failing", "total"] and footer("price_range") == ["failing", "total"]
    assert footer("qty_positive") and footer("price_range_nn")
    # filtered: the failing rows of a NULL-free column are decided, the filtered total is scanned
    assert footer("qty_range_air") == ["failing"] and footer("qty_not_null_rail") == ["failing"]
    assert footer("qty_nulls_air") == ["nulls"]
    # not decided (their failing rows are scanned): a failing comparison, NULLs within a filter, floats
    for name in ("qty_small", "price_range_ship", "price_not_null_ship", "ratio_range"):
        assert "failing" not in (footer(name) or []), name
    assert on.datasets[0]["aggregates"] < off.datasets[0]["aggregates"]
