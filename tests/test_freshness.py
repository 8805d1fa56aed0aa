"""Freshness: lookback forms, reference time from the plan (Airflow run time / CLI --as-of), column types, files."""

from __future__ import annotations

import os
import time
from datetime import date, datetime, timedelta, timezone

import pytest

from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from airflow_dq.spec.models import parse_duration
from tests.helpers import by_name, run_yaml

REF = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("text,seconds", [
    ("6 hours", 21600), ("30 minutes", 1800), ("1 day", 86400), ("1 hour", 3600), ("2 weeks", 1209600),
    ("1.5 hours", 5400), ("PT6H", 21600), ("P1D", 86400), ("P1DT12H", 129600), ("PT30M", 1800), ("pt45s", 45),
])
def test_lookback_forms(text, seconds):
    assert parse_duration(text).total_seconds() == seconds


@pytest.mark.parametrize("text", ["6", "six hours", "P1M", "P1Y", "PT", "0 hours", "", "P1DT"])
def test_bad_lookbacks_are_refused_at_load_time_with_their_place(text):
    spec = f"version: 1\nassertions:\n- entity: t\n  type: freshness\n  lookback_interval: '{text}'\n  last_modified_field: u\n"
    with pytest.raises(SpecError) as info:
        load_spec_text(spec, file="f.yml")
    assert "f.yml:5: assertions[0].lookback_interval" in str(info.value)


@pytest.fixture(scope="module")
def times_parquet(tmp_path_factory):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path_factory.mktemp("fresh") / "events.parquet"
    rows = {
        # newest instant 2026-11-01 07:00 UTC, written with a +02:00 offset (09:00 local)
        "ts": [datetime(2026, 11, 1, 9, 0, tzinfo=timezone(timedelta(hours=2))), None,
               datetime(2026, 10, 30, tzinfo=timezone.utc)],
        "ntz": [datetime(2026, 11, 1, 11, 30), datetime(2026, 10, 1), None],
        "day": [date(2026, 10, 31), date(2026, 11, 1), None],
        "kind": ["new", "new", "old"],
        "nulls": pa.array([None, None, None], type=pa.timestamp("us", tz="UTC")),
        "text": ["2026-11-01", "x", None],
    }
    table = pa.table({
        "ts": pa.array(rows["ts"], type=pa.timestamp("us", tz="UTC")),
        "ntz": pa.array(rows["ntz"], type=pa.timestamp("us")),
        "day": pa.array(rows["day"], type=pa.date32()),
        "kind": pa.array(rows["kind"]), "nulls": rows["nulls"], "text": pa.array(rows["text"]),
    })
    pq.write_table(table, path)
    return str(path)


def _spec(items: list[str]) -> str:
    return "version: 1\nassertions:\n" + "".join(f"- entity: ev\n  {i}\n" for i in items)


def _fresh(name, field, lookback, extra=""):
    return f"name: {name}\n  type: freshness\n  last_modified_field: {field}\n  lookback_interval: '{lookback}'{extra}"


def test_timestamp_column_is_judged_against_the_reference_time(spark, times_parquet):
    items = [_fresh("ts_5h", "ts", "5 hours"), _fresh("ts_4h59", "ts", "PT4H59M"),
             _fresh("ts_exact_boundary", "ts", "PT5H"), _fresh("ntz_1h", "ntz", "1 hour"),
             _fresh("ntz_29m", "ntz", "29 minutes"), _fresh("date_12h", "day", "12 hours"),
             _fresh("date_11h", "day", "11 hours"),
             _fresh("filtered_old", "ts", "1 day", "\n  filters: \"kind = 'old'\""),
             _fresh("all_null", "nulls", "1 day"), _fresh("string_col", "text", "1 day"),
             _fresh("missing_col", "nope", "1 day")]
    res = by_name(run_yaml(spark, _spec(items), {"ev": times_parquet}, reference_time=REF))
    assert res["ts_5h"].status == "pass" and res["ts_5h"].actual == "2026-11-01T07:00:00+00:00"
    assert res["ts_exact_boundary"].status == "pass"  # latest == reference - lookback is still fresh
    assert res["ts_4h59"].status == "fail" and "before the reference time" in res["ts_4h59"].message
    assert res["ts_5h"].details["source_type"] == "LAST_MODIFIED_FIELD"
    assert res["ts_5h"].details["age_seconds"] == 5 * 3600
    assert res["ts_5h"].details["files_modified"][:4].isdigit()  # path source: the files' time, for information
    assert res["ntz_1h"].status == "pass" and res["ntz_29m"].status == "fail"  # timestamp_ntz read as UTC
    assert res["date_12h"].status == "pass" and res["date_11h"].status == "fail"  # a date is its 00:00 UTC
    assert res["filtered_old"].status == "fail"  # the filter applies: the 'old' row is from 2026-10-30
    assert res["filtered_old"].actual == "2026-10-30T00:00:00+00:00"
    assert res["all_null"].status == "fail" and "no update found" in res["all_null"].message
    assert res["string_col"].status == "error" and "needs a timestamp or date column" in res["string_col"].message
    assert res["missing_col"].status == "error"


def test_the_same_data_is_judged_as_of_each_runs_reference_time(spark, times_parquet):
    """A backfill judges the data as of its own run: the plan's reference time, not the wall clock."""
    spec = _spec([_fresh("six_hours", "ts", "6 hours")])
    early = run_yaml(spark, spec, {"ev": times_parquet}, reference_time=datetime(2026, 11, 1, 8, tzinfo=timezone.utc))
    late = run_yaml(spark, spec, {"ev": times_parquet}, reference_time=datetime(2026, 11, 2, 8, tzinfo=timezone.utc))
    now = run_yaml(spark, spec, {"ev": times_parquet})  # no reference: now (the CLI default) - years later
    assert [early.results[0].status, late.results[0].status, now.results[0].status] == ["pass", "fail", "fail"]
    assert early.results[0].details["reference_time"] == "2026-11-01T08:00:00+00:00"


def test_file_modification_time_for_path_sources(spark, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "files"
    folder.mkdir()
    for n in range(2):
        pq.write_table(pa.table({"x": [n]}), folder / f"part-{n}.parquet")
    old = time.time() - 3 * 86400
    os.utime(folder / "part-0.parquet", (old, old))
    newest = datetime.fromtimestamp(int(os.stat(folder / "part-1.parquet").st_mtime), timezone.utc)
    spec = _spec(["name: files_1h\n  type: freshness\n  sourceType: FILE_MODIFICATION_TIME\n  lookback_interval: 1 hour",
                  "name: files_fresh\n  type: freshness\n  sourceType: FILE_MODIFICATION_TIME\n  lookback_interval: 1 day"])
    res = by_name(run_yaml(spark, spec, {"ev": str(folder)}, reference_time=newest + timedelta(hours=2)))
    assert res["files_1h"].status == "fail" and res["files_fresh"].status == "pass"
    assert res["files_fresh"].details["source_type"] == "FILE_MODIFICATION_TIME"
    assert res["files_fresh"].details["files"] == 2
    assert res["files_fresh"].actual.startswith(newest.isoformat()[:19])


def test_last_modified_field_is_required_for_that_source_type():
    with pytest.raises(SpecError, match="needs 'last_modified_field'"):
        load_spec_text("version: 1\nassertions:\n- {entity: t, type: freshness, lookback_interval: 1 day}\n")
