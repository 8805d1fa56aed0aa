"""Each decision of docs/semantics.md pinned by a test that could fail."""

from __future__ import annotations

import math
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from tests.helpers import FLIGHTS, by_name, plan_from_yaml, run_yaml


def _doc(items: list[str], entity: str = "t") -> str:
    return "version: 1\nassertions:\n" + "".join(f"- entity: \"{entity}\"\n  {i}\n" for i in items)


def _metric(name, field, metric, cond="{type: greater_than_or_equal_to, value: 0}", extra=""):
    return f"name: {name}\n  type: field\n  field: {field}\n  metric: {metric}\n  condition: {cond}{extra}"


def _values(name, field, cond, extra=""):
    return f"name: {name}\n  type: field\n  field: {field}\n  condition: {cond}{extra}"


@pytest.fixture(scope="module")
def frame_source(spark, tmp_path_factory):
    """Writes a Spark DataFrame (which keeps NaN as NaN, unlike pandas→pyarrow) to Parquet; returns its path."""
    base = tmp_path_factory.mktemp("semantics")

    def write(name: str, rows: list, schema: str) -> str:
        path = str(base / name)
        spark.createDataFrame(rows, schema).write.mode("overwrite").parquet(path)
        return path

    return write


def test_nan_is_not_null_and_satisfies_no_comparison(spark, frame_source):
    nan = float("nan")
    path = frame_source("nan", [(1.0,), (nan,), (None,), (5.0,)], "x double")
    res = by_name(run_yaml(spark, _doc([
        _metric("nulls", "x", "null_count"), _metric("mean", "x", "mean"), _metric("max", "x", "max"),
        _metric("zeros", "x", "zero_count"), _metric("distinct", "x", "unique_count"),
        _values("gt0", "x", "{type: greater_than, value: 0}", "\n  exclude_nulls: true"),
        _values("not_eq", "x", "{type: not_equal_to, value: 1}", "\n  exclude_nulls: true"),
        _values("is_null", "x", "{type: is_null}"), _values("not_null", "x", "{type: is_not_null}"),
    ]), {"t": path}))
    assert res["nulls"].actual == 0 + 1 and res["distinct"].actual == 3 and res["zeros"].actual == 0
    for stat in ("mean", "max"):
        assert res[stat].status == "error" and "1 NaN value(s)" in res[stat].message
    assert (res["gt0"].failing_rows, res["gt0"].total_rows) == (1, 3)  # NaN fails; NULL excluded
    assert res["not_eq"].failing_rows == 2  # 1.0 and NaN fail
    assert res["is_null"].failing_rows == 3 and res["not_null"].failing_rows == 1


def test_empty_string_is_not_null_and_whitespace_is_not_empty(spark, frame_source):
    path = frame_source("strings", [("",), (" ",), ("\u00a0",), (None,), ("a",)], "s string")
    res = by_name(run_yaml(spark, _doc([
        _metric("empty", "s", "empty_count"), _metric("empty_pct", "s", "empty_percentage"),
        _metric("nulls", "s", "null_count"), _values("not_empty", "s", "{type: not_empty}"),
        _values("not_empty_excl", "s", "{type: not_empty}", "\n  exclude_nulls: true"),
        _values("blank_regex", "s", "{type: matches_regex, value: '.*\\S.*'}", "\n  exclude_nulls: true"),
    ]), {"t": path}))
    assert res["empty"].actual == 1 and res["empty_pct"].actual == pytest.approx(20.0) and res["nulls"].actual == 1
    assert res["not_empty"].failing_rows == 2  # "" and NULL
    assert (res["not_empty_excl"].failing_rows, res["not_empty_excl"].total_rows) == (1, 4)
    assert res["blank_regex"].failing_rows == 2  # "" and " " (NBSP is not ASCII \s, so it is "non-blank")


def test_percentages_on_an_empty_table_and_an_all_null_column(spark, frame_source):
    empty = frame_source("empty", [], "x double, s string")
    nulls = frame_source("allnull", [(None, None), (None, None)], "x double, s string")
    items = [_metric("null_pct", "x", "null_percentage"), _metric("uniq_pct", "x", "unique_percentage"),
             _metric("neg_pct", "x", "negative_percentage"), _metric("empty_pct", "s", "empty_percentage"),
             _metric("nulls", "x", "null_count"), _metric("uniq", "x", "unique_count"), _metric("mean", "x", "mean"),
             _values("between", "x", "{type: between, min: 0, max: 1}"),
             "name: rows\n  type: volume\n  condition: {type: equal_to, value: 0}"]
    on_empty = by_name(run_yaml(spark, _doc(items), {"t": empty}))
    on_nulls = by_name(run_yaml(spark, _doc(items), {"t": nulls}))
    for name in ("null_pct", "uniq_pct", "neg_pct", "empty_pct", "mean"):
        assert on_empty[name].status == "error", name
    assert "no rows in scope" in on_empty["null_pct"].message
    assert on_empty["nulls"].actual == 0 and on_empty["uniq"].actual == 0 and on_empty["rows"].status == "pass"
    assert on_empty["between"].status == "pass" and on_empty["between"].total_rows == 0  # 0 failing of 0
    assert on_nulls["null_pct"].actual == 100.0 and on_nulls["neg_pct"].actual == 0.0
    assert on_nulls["uniq_pct"].status == "error" and on_nulls["mean"].status == "error"
    assert on_nulls["between"].status == "fail" and on_nulls["between"].failing_rows == 2


def test_unique_percentage_denominator_is_non_null_values(spark, frame_source):
    path = frame_source("uniq", [(1,), (2,), (None,), (None,), (2,)], "x int")
    res = by_name(run_yaml(spark, _doc([_metric("pct", "x", "unique_percentage"),
                                        _metric("cnt", "x", "unique_count")]), {"t": path}))
    assert res["pct"].actual == pytest.approx(2 * 100 / 3) and res["cnt"].actual == 2


def test_exclude_nulls_with_each_kind_of_condition(spark, frame_source):
    path = frame_source("excl", [(None,), (None,), (5,), (50,)], "x int")
    conds = {"is_null": "{type: is_null}", "is_not_null": "{type: is_not_null}", "in": "{type: in, value: [5]}",
             "not_in": "{type: not_in, value: [5]}", "lt": "{type: less_than, value: 10}"}
    items = []
    for key, cond in conds.items():
        for excl in (False, True):
            items.append(_values(f"{key}_{excl}", "x", cond, f"\n  exclude_nulls: {str(excl).lower()}"))
    items.append(_values("pct_threshold", "x", conds["lt"],
                         "\n  exclude_nulls: true\n  failure_threshold: {type: percentage, value: 50}"))
    res = by_name(run_yaml(spark, _doc(items), {"t": path}))
    got = {name: (r.failing_rows, r.total_rows) for name, r in res.items()}
    assert got == {"is_null_False": (2, 4), "is_null_True": (2, 4), "is_not_null_False": (2, 4),
                   "is_not_null_True": (2, 4), "in_False": (3, 4), "in_True": (1, 2), "not_in_False": (3, 4),
                   "not_in_True": (1, 2), "lt_False": (3, 4), "lt_True": (1, 2), "pct_threshold": (1, 2)}
    assert res["pct_threshold"].status == "pass"  # 1 of 2 non-null rows = 50% <= 50%


def test_wrong_column_types_are_errors_with_the_reason(spark, frame_source):
    from datetime import date

    path = frame_source("types", [("a", 1, date(2024, 1, 1), True)], "s string, n int, d date, b boolean")
    res = by_name(run_yaml(spark, _doc([
        _values("gt_on_string", "s", "{type: greater_than, value: 1}"),
        _values("regex_on_int", "n", "{type: matches_regex, value: '1'}"),
        _values("length_on_int", "n", "{type: length_less_than, value: 3}"),
        _metric("mean_on_date", "d", "mean"), _metric("empty_on_int", "n", "empty_count"),
        _metric("min_on_bool", "b", "min"), _values("between_on_date", "d", "{type: between, min: 1, max: 2}"),
        "name: transform_on_int\n  type: field\n  field: n\n  field_transform: length\n"
        "  condition: {type: greater_than, value: 0}",
    ]), {"t": path}))
    expectations = {"gt_on_string": "greater_than needs a numeric column; 's' is string",
                    "regex_on_int": "matches_regex needs a string column; 'n' is int",
                    "length_on_int": "length_less_than needs a string column",
                    "mean_on_date": "metric mean needs a numeric column; 'd' is date",
                    "empty_on_int": "metric empty_count needs a string column",
                    "min_on_bool": "needs a numeric column; 'b' is boolean",
                    "between_on_date": "between needs a numeric column",
                    "transform_on_int": "field_transform length needs a string column"}
    for name, fragment in expectations.items():
        assert res[name].status == "error" and fragment in res[name].message, (name, res[name].message)


def test_timestamps_compare_as_instants_and_offsetless_literals_are_utc(spark, frame_source):
    instant = datetime(2024, 3, 31, 1, 30, tzinfo=timezone.utc)
    path = frame_source("ts", [(instant,)], "ts timestamp")
    res = by_name(run_yaml(spark, _doc([
        _values("same_instant_other_offset", "ts", "{type: equal_to, value: '2024-03-31T03:30:00+02:00'}"),
        _values("offsetless_is_utc", "ts", "{type: equal_to, value: '2024-03-31 01:30:00'}"),
        _values("in_list", "ts", "{type: in, value: ['2024-03-30T20:30:00-05:00']}"),
        "name: filtered\n  type: volume\n  filters: \"ts >= '2024-03-31 01:30:00'\"\n  condition: {type: equal_to, value: 1}",
    ]), {"t": path}))
    assert all(r.status == "pass" for r in res.values()), {n: (r.status, r.message) for n, r in res.items()}


def test_yaml_dates_and_datetimes_are_utc_whatever_the_drivers_local_time_zone(spark, frame_source, monkeypatch):
    """Unquoted YAML dates/datetimes are date/datetime objects, not text: an offset-less one is UTC, as the same
    text is, also when the Python process running the engine has another local time zone."""
    import time
    from datetime import date

    instant = datetime(2024, 3, 31, 1, 30, tzinfo=timezone.utc)
    path = frame_source("local_tz", [(instant, instant.replace(tzinfo=None), date(2024, 3, 31))],
                        "ts timestamp, ntz timestamp_ntz, d date")
    text = _doc([_values("ts_naive", "ts", "{type: equal_to, value: 2024-03-31 01:30:00}"),
                 _values("ts_in", "ts", "{type: in, value: [2024-03-31T03:30:00+02:00]}"),
                 _values("ntz_naive", "ntz", "{type: equal_to, value: 2024-03-31 01:30:00}"),
                 _values("ntz_offset", "ntz", "{type: equal_to, value: 2024-03-30T20:30:00-05:00}"),
                 _values("d_date", "d", "{type: equal_to, value: 2024-03-31}")])
    (a,) = load_spec_text(_doc([_values("x", "ts", "{type: equal_to, value: 2024-03-31 01:30:00}")]))
    assert isinstance(a.condition.value, datetime) and a.condition.value.tzinfo is None
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        res = by_name(run_yaml(spark, text, {"t": path}))
    finally:
        monkeypatch.undo()
        time.tzset()
    assert {n: r.status for n, r in res.items()} == dict.fromkeys(res, "pass"), {n: r.message for n, r in res.items()}


def test_timestamp_ntz_conditions_honour_an_offset_but_filters_follow_spark(spark, frame_source):
    """A condition's value with an offset is converted to UTC wall-clock time for a timestamp_ntz column; a filter
    is Spark SQL, whose cast of such text to timestamp_ntz drops the offset (docs/semantics.md)."""
    path = frame_source("ntz", [(datetime(2024, 3, 31, 1, 30),), (datetime(2024, 3, 31, 3, 30),)], "ntz timestamp_ntz")
    res = by_name(run_yaml(spark, _doc([
        _values("condition", "ntz", "{type: equal_to, value: '2024-03-31T03:30:00+02:00'}",
                "\n  filters: \"ntz = '2024-03-31 01:30:00'\""),
        _values("filter", "ntz", "{type: equal_to, value: '2024-03-31 03:30:00'}",
                "\n  filters: \"ntz = '2024-03-31T03:30:00+02:00'\""),
    ]), {"t": path}))
    for name in ("condition", "filter"):  # the condition picks the 01:30 row, the filter the 03:30 one
        assert (res[name].status, res[name].failing_rows, res[name].total_rows) == ("pass", 0, 1), res[name].message


def test_a_date_value_spark_cannot_read_is_an_error_and_the_others_conclude(spark, frame_source):
    from datetime import date

    path = frame_source("bad_date", [(date(2024, 1, 1),)], "d date")
    res = by_name(run_yaml(spark, _doc([
        _values("bad", "d", "{type: equal_to, value: 'soon'}"), _values("list", "d", "{type: in, value: [{a: 1}]}"),
        _values("good", "d", "{type: equal_to, value: '2024-01-01'}"),
    ]), {"t": path}))
    assert res["good"].status == "pass"
    assert res["bad"].status == "error" and "soon" in res["bad"].message, res["bad"].message
    assert res["list"].status == "error" and "is not a date or timestamp" in res["list"].message


def test_decimal_values_are_compared_as_written(spark, frame_source):
    path = frame_source("dec", [(Decimal("0.10"),), (Decimal("0.20"),), (Decimal("0.30"),)], "x decimal(10,2)")
    res = by_name(run_yaml(spark, _doc([
        _values("eq", "x", "{type: in, value: [0.1, 0.2, 0.3]}"),
        _values("between", "x", "{type: between, min: 0.1, max: 0.3}"),
        _metric("max", "x", "max", "{type: equal_to, value: 0.3}"),
        _metric("mean", "x", "mean", "{type: equal_to, value: 0.2}"),
    ]), {"t": path}))
    assert {n: r.status for n, r in res.items()} == {"eq": "pass", "between": "pass", "max": "pass", "mean": "pass"}
    assert res["max"].actual == Decimal("0.30")


def test_regex_is_a_whole_value_java_match_with_ascii_classes(spark, frame_source):
    path = frame_source("re", [("abc",), ("xabcx",), ("é",)], "s string")
    res = by_name(run_yaml(spark, _doc([
        _values("whole", "s", "{type: matches_regex, value: 'abc'}"),
        _values("word_ascii", "s", "{type: matches_regex, value: '\\w+'}"),
        _values("word_unicode", "s", "{type: matches_regex, value: '(?U)\\w+'}"),
        _values("bad_regex", "s", "{type: matches_regex, value: '(unclosed'}"),
    ]), {"t": path}))
    assert res["whole"].failing_rows == 2 and res["word_ascii"].failing_rows == 1
    assert res["word_unicode"].failing_rows == 0
    assert res["bad_regex"].status == "error" and "invalid regular expression" in res["bad_regex"].message


def test_unknown_yaml_escapes_in_double_quotes_are_kept_literally():
    text = 'version: 1\nassertions:\n- entity: t\n  type: field\n  field: e\n  condition:\n' \
           '    type: matches_regex\n    value: "[a-z]+\\.[a-z]{2,}\\t"\n'
    (a,) = load_spec_text(text)
    assert a.condition.value == "[a-z]+\\.[a-z]{2,}\t"  # \. kept for the regex, \t is still a tab


def test_length_transform_equals_the_length_conditions(spark, frame_source):
    path = frame_source("len", [("a",), ("abcd",), ("日本語",), (None,)], "s string")
    def t(name, cond):
        return f"name: {name}\n  type: field\n  field: s\n  field_transform: length\n  condition: {cond}\n  exclude_nulls: true"
    res = by_name(run_yaml(spark, _doc([
        t("t_gt", "{type: greater_than, value: 2}"), _values("c_gt", "s", "{type: length_greater_than, value: 2}",
                                                              "\n  exclude_nulls: true"),
        t("t_between", "{type: between, min: 1, max: 3}"),
        _values("c_between", "s", "{type: length_between, min: 1, max: 3}", "\n  exclude_nulls: true"),
        t("t_eq", "{type: equal_to, value: 3}"),
    ]), {"t": path}))
    assert res["t_gt"].failing_rows == res["c_gt"].failing_rows == 1
    assert res["t_between"].failing_rows == res["c_between"].failing_rows == 1
    assert res["t_eq"].failing_rows == 2 and res["t_eq"].expected.startswith("length == 3")


def test_length_transform_needs_numbers():
    with pytest.raises(SpecError, match="field_transform 'length' with condition 'greater_than' needs non-negative"):
        load_spec_text(_doc(["type: field\n  field: s\n  field_transform: length\n  condition: {type: greater_than, value: x}"]))


def test_filters_in_both_forms_give_the_same_result(spark, flights_parquet):
    res = by_name(run_yaml(spark, _doc([
        "name: plain\n  type: volume\n  filters: \"origin = 'JFK'\"\n  condition: {type: greater_than, value: 0}",
        "name: typed\n  type: volume\n  filters: {type: sql, sql: \"origin = 'JFK'\"}\n  condition: {type: greater_than, value: 0}",
        "name: null_filter\n  type: volume\n  filters: \"dep_delay > 0\"\n  condition: {type: greater_than, value: 0}",
    ], FLIGHTS), {FLIGHTS: flights_parquet}))
    assert res["plain"].actual == res["typed"].actual == 111279
    assert res["null_filter"].actual == 128432  # NULL dep_delay rows are not in scope


@pytest.mark.parametrize("schedule,ok", [
    ("{type: interval, interval: '6 hours'}", True), ("{type: interval, interval: PT30M}", True),
    ("{type: cron, cron: '0 */6 * * *', timezone: Europe/Paris}", True), ("{type: on_table_change}", True),
    ("{type: interval, interval: 'often'}", False), ("{type: cron, cron: '99 * * * *'}", False),
    ("{type: cron, cron: '0 * * * *', timezone: Mars/Olympus}", False), ("{type: weekly}", False),
])
def test_schedules_are_validated_and_kept(schedule, ok):
    text = _doc([f"type: volume\n  condition: {{type: greater_than, value: 0}}\n  schedule: {schedule}"])
    if ok:
        (a,) = load_spec_text(text)
        assert a.schedule and a.schedule["type"] in schedule
    else:
        with pytest.raises(SpecError, match="schedule"):
            load_spec_text(text, file="s.yml")


# ---------------------------------------------------------------------------------------------------------------
# Scan budget (docs/semantics.md): counted with Spark's status tracker per dataset job group.

def _jobs(spark, flights_parquet, items: list[str], tag: str) -> tuple[int, dict]:
    from airflow_dq.engine.runner import run_plan

    plan = plan_from_yaml(_doc(items, FLIGHTS), {FLIGHTS: flights_parquet}, run_id=tag)
    result = run_plan(spark, plan, job_group_prefix=tag)
    assert all(r.status == "pass" for r in result.results), [(r.name, r.message) for r in result.results if r.status != "pass"]
    return result.datasets[0]["spark_jobs"], result.datasets[0]


def _filtered(name, field, metric, month):  # filtered: never answered from Parquet footers, always scanned
    return _metric(name, field, metric, "{type: greater_than, value: -100000}", extra=f"\n  filters: \"month = {month}\"")


def test_scan_budget_plain_aggregates_distinct_counts_and_medians(spark, flights_parquet):
    plain = [_filtered(f"p{i}", c, m, i % 12 + 1) for i, (c, m) in enumerate(
        [("dep_delay", "null_count"), ("arr_delay", "max"), ("distance", "mean"), ("air_time", "stddev"),
         ("carrier", "empty_count"), ("hour", "zero_count")])]
    one_distinct = [_filtered("d0", "tailnum", "unique_count", 1)]
    many_distinct = [_filtered(f"d{i}", c, "unique_count", i + 1) for i, c in
                     enumerate(["tailnum", "carrier", "dest", "origin", "flight"])]
    medians = [_filtered(f"m{i}", c, "median", i + 1) for i, c in enumerate(["dep_delay", "arr_delay", "distance"])]
    base, stats = _jobs(spark, flights_parquet, plain, "budget-plain")
    assert stats["fused_jobs"] == 1 and base <= 2
    with_median, stats = _jobs(spark, flights_parquet, plain + medians, "budget-median")
    assert stats["fused_jobs"] == 1 and with_median == base  # exact medians: no extra pass
    with_one, _ = _jobs(spark, flights_parquet, plain + one_distinct, "budget-d1")
    with_many, stats = _jobs(spark, flights_parquet, plain + many_distinct, "budget-d5")
    assert stats["fused_jobs"] == 1
    assert with_one <= base + 1 and with_many == with_one  # one grouping pass for every distinct count


def test_scan_budget_schema_needs_no_job(spark, flights_parquet):
    jobs, stats = _jobs(spark, flights_parquet, [
        "name: s\n  type: schema\n  condition: {type: contains, columns: [{name: carrier, type: string}]}"],
        "budget-schema")
    assert jobs == 0 and stats["fused_jobs"] == 0
