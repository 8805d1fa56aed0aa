"""Converted SHACL assertions executed on local Spark: every outcome known in advance (tests/shacl_data.py)."""

from __future__ import annotations

import math

import pytest

from airflow_dq.spec.build import build_plan, load_any
from tests.shacl_data import CATALOG, ENTITY, EXPECTED, WARN, key, sources, write_tables

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def catalog_run(spark, data_dir):
    from airflow_dq.engine.runner import run_plan

    paths = write_tables(data_dir / "shacl_trading")
    plan = build_plan(load_any(str(CATALOG)), sources(paths), run_id="shacl-e2e")
    return run_plan(spark, plan)


def test_every_converted_assertion_runs_with_the_known_outcome(catalog_run):
    got = {r.name: r for r in catalog_run.results}
    expected = {key(ds, suffix): outcome for (ds, suffix), outcome in EXPECTED.items()}
    assert sorted(got) == sorted(expected)
    wrong = {}
    for name, (status, actual) in expected.items():
        r = got[name]
        same = math.isclose(float(r.actual), float(actual)) if r.actual is not None else actual is None
        if r.status != status or not same:
            wrong[name] = (r.status, r.actual, r.message)
    assert not wrong, wrong


def test_severity_comes_from_sh_severity(catalog_run):
    for r in catalog_run.results:
        ds = next(d for d, urn in ENTITY.items() if r.entity == urn)
        suffix = r.name[len(ENTITY[ds]) + 1:]
        assert r.severity == ("warn" if (ds, suffix) in WARN else "error"), r.name


def test_no_assertion_errors_and_at_most_one_fused_scan_per_dataset(catalog_run):
    assert [r.name for r in catalog_run.results if r.status == "error"] == []
    assert catalog_run.outcome == "fail"
    by_entity = {d["entity"]: d for d in catalog_run.datasets}
    assert set(by_entity) == set(ENTITY.values())
    for d in by_entity.values():
        assert d["fused_jobs"] <= 1, d  # at most one scan per dataset, however many assertions


def test_length_and_pattern_checks_ignore_missing_values_like_shacl(catalog_run):
    got = {r.name: r for r in catalog_run.results}
    # trade_id has one NULL: not_null fails on it, the value checks do not count it
    assert got[key("trades", "trade_id_not_null")].actual == 1
    assert got[key("trades", "trade_id_pattern")].total_rows == 7
    # sh:hasValue needs the value, so a NULL status fails it
    assert got[key("trades", "status_has_value")].total_rows == 8


def test_sh_datatype_runs_as_a_schema_assertion_when_enabled(spark, data_dir):
    """``assertion_types.datatypes``: each sh:datatype becomes a schema ``contains`` assertion that Spark checks
    against the table's real column types: it passes for matching types and names the mistyped column otherwise."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from airflow_dq.engine.runner import run_plan
    from airflow_dq.shacl import ShaclShapes

    shapes = ShaclShapes(str(CATALOG), config={"create_assertions": True, "assertion_types": {"datatypes": True}})
    schema = [a for a in load_any(shapes) if a.kind == "schema"]
    datatype_keys = {key("trades", f"{field}_datatype") for field in ("trade_id", "notional", "trade_date")}
    assert {a.name for a in schema} == datatype_keys  # xsd:string, xsd:decimal, xsd:date of trades

    paths = write_tables(data_dir / "shacl_trading_datatypes")
    matching = run_plan(spark, build_plan(schema, sources(paths), run_id="shacl-datatypes"))
    assert {r.name: r.status for r in matching.results} == dict.fromkeys(datatype_keys, "pass")

    # the same trades with trade_date stored as text (an extract that never parsed its dates)
    trades = pq.read_table(paths["trades"])
    as_text = pa.array([d.isoformat() for d in trades.column("trade_date").to_pylist()], type=pa.string())
    trades = trades.set_column(trades.schema.get_field_index("trade_date"), "trade_date", as_text)
    mistyped_path = data_dir / "shacl_trading_datatypes" / "trades_text_dates.parquet"
    pq.write_table(trades, mistyped_path)
    mistyped_sources = {**sources(paths), ENTITY["trades"].split(",")[1]: str(mistyped_path)}
    mistyped_run = run_plan(spark, build_plan(schema, mistyped_sources, run_id="shacl-mistyped"))
    mistyped = {r.name: r for r in mistyped_run.results}

    failed = mistyped.pop(key("trades", "trade_date_datatype"))
    assert failed.status == "fail" and failed.severity == "error"
    assert [(m["column"], m["expected_type"], m["actual"], m["spark_type"]) for m in failed.details["mistyped"]] == [
        ("trade_date", "date", "string", "string")]
    assert failed.details["missing"] == [] and "mistyped columns: trade_date (expected" in failed.message
    assert {r.status for r in mistyped.values()} == {"pass"}  # trade_id (string) and notional (number) still match
