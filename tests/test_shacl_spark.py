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
