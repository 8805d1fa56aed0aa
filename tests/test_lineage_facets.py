"""Facets built from a real engine run (local Spark) of the mixed lineage suite; expected values from pandas.

The checks in ``check_mixed_lineage`` work on the serialized JSON, so tests/test_lineage_dags.py applies the very
same checks to the events the Airflow OpenLineage provider wrote.
"""

from __future__ import annotations

import json
import pathlib

import pandas as pd
import pytest
from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
from openlineage.client.serde import Serde

from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.lineage.facets import build_lineage
from airflow_dq.spec.build import build_plan, load_any

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "lineage_dags.py"
EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"


def mixed_operator(dag_loader):
    return dag_loader(DAGS, "dq_lineage_mixed").get_task("dq")


def as_json(obj) -> dict:
    return json.loads(Serde.to_json(obj))


def declared_json(spec: dict, name: str) -> str:
    item = next(i for i in spec["assertions"] if i["name"] == name)
    return json.dumps(item, sort_keys=True)


def check_mixed_lineage(inputs: list[dict], run_facets: dict, spec: dict, sources: dict) -> None:
    """Exact facet contents of the mixed suite: pass, error fail, warn fail, not evaluable, filtered, subset."""
    events = pd.read_csv(sources["purchase_events"])
    products = pd.read_csv(sources["products"])
    by_name = {(d["namespace"], d["name"]): d for d in inputs}
    assert set(by_name) == {("file", sources["purchase_events"]), ("file", sources["products"])}
    ev = by_name[("file", sources["purchase_events"])]
    pr = by_name[("file", sources["products"])]

    # the entity URNs the user declared, as symlinks of the physical datasets
    assert ev["facets"]["symlinks"]["identifiers"] == [
        {"namespace": "spark", "name": "shop.purchase_events", "type": "TABLE"}]
    assert pr["facets"]["symlinks"]["identifiers"] == [{"namespace": "hive", "name": "shop.products", "type": "TABLE"}]

    # dataQualityAssertions: the same facet in facets and inputFacets, one entry per assertion, plan order
    for ds in (ev, pr):
        assert ds["facets"]["dataQualityAssertions"] == ds["inputFacets"]["dataQualityAssertions"]
        assert ds["facets"]["dataQualityAssertions"]["_schemaURL"] == (
            "https://openlineage.io/spec/facets/1-1-0/DataQualityAssertionsDatasetFacet.json"
            "#/$defs/DataQualityAssertionsDatasetFacet")
    entries = {a["name"]: a for a in ev["facets"]["dataQualityAssertions"]["assertions"]}
    assert list(entries) == ["rows_ok", "amount_not_null", "id_unique", "id_present", "email_valid", "ghost_column",
                             "purchases_present", "amount_median", "amount_mean"]
    nulls = int(events["amount"].isna().sum())
    bad_emails = int((~events["email_address"].fillna("").str.fullmatch(EMAIL)).sum())
    purchases = int((events["event_type"] == "purchase").sum())
    assert (nulls, bad_emails) == (4, 10)  # the data this suite was designed around

    assert entries["rows_ok"] == {
        "assertion": "row_count", "success": True, "severity": "error", "name": "rows_ok",
        "expected": "== 1000", "actual": str(len(events)), "content": declared_json(spec, "rows_ok"),
        "contentType": "json",
        "params": {"id": "rows_ok", "kind": "volume", "metric": "row_count",
                   "condition": {"type": "equal_to", "value": 1000}, "status": "pass", "total_rows": len(events)}}
    # error-severity failure: success false, severity error
    assert entries["amount_not_null"] == {
        "assertion": "not_null", "success": False, "column": "amount", "severity": "error",
        "name": "amount_not_null", "description": "Every event has an amount", "expected": "== 0",
        "actual": str(nulls), "content": declared_json(spec, "amount_not_null"), "contentType": "json",
        "params": {"id": "amount_not_null", "kind": "field_metric", "metric": "null_count",
                   "condition": {"type": "equal_to", "value": 0}, "status": "fail"}}
    # warn-severity failure: success false, severity warn (independent of each other)
    email = entries["email_valid"]
    assert (email["assertion"], email["success"], email["severity"], email["column"], email["actual"]) == \
        ("matches_regex", False, "warn", "email_address", str(bad_emails))
    assert email["expected"] == f"matches {EMAIL}; failing rows <= 5"
    assert email["params"]["failure_threshold"] == {"type": "count", "value": 5}
    assert (email["params"]["failing_rows"], email["params"]["total_rows"]) == (bad_emails, len(events))
    # not evaluable: never a pass; no actual; the reason in params
    ghost = entries["ghost_column"]
    assert (ghost["success"], ghost["severity"], ghost["assertion"], ghost["params"]["status"]) == \
        (False, "warn", "not_null", "error")
    assert "actual" not in ghost
    assert "no_such_column" in ghost["params"]["message"] and "does not exist" in ghost["params"]["message"]
    # per-assertion filter: recorded on the assertion, not on the dataset (another assertion is unfiltered)
    assert entries["purchases_present"]["params"]["filter"] == "event_type = 'purchase'"
    assert entries["purchases_present"]["actual"] == str(purchases)
    assert "subset" not in ev["inputFacets"]
    assert (entries["id_unique"]["assertion"], entries["id_present"]["assertion"]) == ("unique", "not_null")
    assert entries["amount_median"]["assertion"] == "median"
    assert all(e["success"] for n, e in entries.items() if n not in ("amount_not_null", "email_valid",
                                                                      "ghost_column"))

    # dataQualityMetrics from the numbers the engine computed, whole-dataset scope (unfiltered assertions only)
    metrics = ev["facets"]["dataQualityMetrics"]
    assert metrics["_schemaURL"].startswith("https://openlineage.io/spec/facets/1-0-1/DataQualityMetricsDatasetFacet")
    assert metrics["rowCount"] == len(events)
    assert set(metrics["columnMetrics"]) == {"amount", "id"}
    assert metrics["columnMetrics"]["id"] == {"nullCount": 0, "distinctCount": events["id"].nunique(),
                                              "count": int(events["id"].notna().sum())}
    amount = metrics["columnMetrics"]["amount"]
    assert amount["nullCount"] == nulls and amount["count"] == len(events) - nulls
    assert amount["quantiles"] == {"0.5": pytest.approx(events["amount"].median())}
    assert amount["sum"] == pytest.approx(events["amount"].sum(), rel=1e-12)
    assert "min" not in amount and "max" not in amount  # nobody computed them: no extra scan for them

    # products: every assertion filtered by price >= 8 (one narrower, absorbed) → a subset facet
    assert pr["inputFacets"]["subset"]["inputCondition"] == {
        "type": "compare", "comparison": "GREATER_EQUAL_THAN", "left": {"type": "field", "field": "price"},
        "right": {"type": "literal", "value": "8"}}
    pricey = products[products["price"] >= 8]
    assert pr["facets"]["dataQualityMetrics"]["rowCount"] == len(pricey)
    assert pr["facets"]["dataQualityMetrics"]["columnMetrics"] == {"price": {"max": pricey["price"].max()}}

    # run facet test: one execution per assertion, error → fail with params.status error
    tests = run_facets["test"]["tests"]
    assert run_facets["test"]["_schemaURL"] == "https://openlineage.io/spec/facets/1-0-1/TestRunFacet.json" \
                                               "#/$defs/TestRunFacet"
    assert [(t["name"], t["status"], t["severity"], t["type"]) for t in tests] == [
        ("rows_ok", "pass", "error", "row_count"),
        ("amount_not_null", "fail", "error", "not_null"),
        ("id_unique", "pass", "error", "unique"),
        ("id_present", "pass", "error", "not_null"),
        ("email_valid", "fail", "warn", "matches_regex"),
        ("ghost_column", "fail", "warn", "not_null"),
        ("purchases_present", "pass", "error", "row_count"),
        ("amount_median", "pass", "error", "median"),
        ("amount_mean", "pass", "error", "mean"),
        ("pricey_products", "pass", "error", "row_count"),
        ("pricey_max", "pass", "error", "max"),
        ("one_product_5", "pass", "error", "row_count"),
    ]
    by_test = {t["name"]: t for t in tests}
    assert by_test["ghost_column"]["params"]["status"] == "error" and "actual" not in by_test["ghost_column"]
    assert by_test["amount_not_null"]["expected"] == "== 0" and by_test["amount_not_null"]["actual"] == str(nulls)
    assert by_test["amount_not_null"]["params"]["column"] == "amount"
    assert (by_test["pricey_max"]["params"]["dataset_namespace"], by_test["pricey_max"]["params"]["dataset_name"]) \
        == ("file", sources["products"])
    assert by_test["rows_ok"]["content"] == declared_json(spec, "rows_ok")


@pytest.fixture(scope="module")
def mixed(spark, dag_loader):
    from airflow_dq.engine.runner import run_plan

    op = mixed_operator(dag_loader)
    plan = build_plan(load_any(op.spec), op.sources, run_id="lineage-facets")
    return op, plan, run_plan(spark, plan)


@pytest.mark.spark
def test_mixed_suite_facets_have_exact_contents_and_validate(mixed, ol_schema):
    op, plan, result = mixed
    lineage = build_lineage(plan, result)
    event = RunEvent(eventType=RunState.COMPLETE, eventTime=result.finished_at,
                     run=Run(runId="01936f5e-0000-7000-8000-000000000000", facets=lineage.run_facets),
                     job=Job(namespace="tests", name="lineage_facets"), inputs=lineage.inputs)
    data = as_json(event)
    checked = ol_schema(data)
    assert {u.split("#")[0].rsplit("/", 1)[-1] for u in checked} >= {
        "DataQualityAssertionsDatasetFacet.json", "DataQualityMetricsDatasetFacet.json",
        "BaseSubsetDatasetFacet.json", "TestRunFacet.json"}
    check_mixed_lineage(data["inputs"], data["run"]["facets"], op.spec, op.sources)


@pytest.mark.spark
def test_before_the_run_only_names_and_subsets_and_without_a_result_every_test_is_skipped(mixed, ol_schema):
    op, plan, _ = mixed
    start = build_lineage(plan, None, tests=False)
    assert start.run_facets == {}
    facets = {d.name: (set(d.facets or {}), set(d.inputFacets or {})) for d in start.inputs}
    assert facets[op.sources["purchase_events"]] == ({"symlinks"}, set())
    assert facets[op.sources["products"]] == ({"symlinks"}, {"subset"})

    spark_failed = build_lineage(plan, None, tests=True)
    tests = as_json(spark_failed.run_facets["test"])["tests"]
    assert {t["status"] for t in tests} == {"skip"} and len(tests) == len(plan.assertions)
    assert all("dataQualityAssertions" not in (d.facets or {}) for d in spark_failed.inputs)
    event = RunEvent(eventType=RunState.FAIL, eventTime="2026-11-01T00:00:00+00:00",
                     run=Run(runId="01936f5e-0000-7000-8000-000000000001", facets=spark_failed.run_facets),
                     job=Job(namespace="tests", name="lineage_facets"), inputs=spark_failed.inputs)
    ol_schema(as_json(event))


def test_metrics_never_mix_scopes():
    """Numbers computed under a filter other than the dataset's scope stay out of the metrics facet."""
    from airflow_dq.core.assertions import Assertion
    from airflow_dq.core.conditions import Condition
    from airflow_dq.lineage.metrics import metrics_facet

    unfiltered = Assertion(id="n", kind="field_metric", entity="e", field="x", metric="null_count",
                           condition=Condition("equal_to", 0))
    filtered = Assertion(id="f", kind="field_metric", entity="e", field="y", metric="null_count",
                         condition=Condition("equal_to", 0), filter="k = 1")

    def res(a, inputs):
        return AssertionResult(assertion_id=a.id, name=a.id, kind=a.kind, type="field", entity="e",
                               severity="error", status="pass", column=a.field, actual=0,
                               details={"inputs": inputs})

    pairs = [(unfiltered, res(unfiltered, {"nulls": 2})), (filtered, res(filtered, {"nulls": 5}))]
    facet = as_json(metrics_facet({"rows": 10, "schema": []}, pairs, None))
    assert facet["rowCount"] == 10
    assert facet["columnMetrics"] == {"x": {"nullCount": 2, "count": 8}}
    scoped = as_json(metrics_facet({"rows": 10, "schema": []}, [pairs[1]], "k = 1"))
    assert "rowCount" not in scoped and scoped["columnMetrics"] == {"y": {"nullCount": 5}}


def test_lineage_errors_are_logged_and_give_empty_lineage(capfd, dag_loader):
    """A problem while building facets never breaks the task: a warning and an empty OperatorLineage."""
    from airflow_dq.operators.data_quality import DataQualityOperator

    op = DataQualityOperator(task_id="broken_lineage", spec={"version": 1, "assertions": []}, sources={})
    for method, args in (("get_openlineage_facets_on_start", ()), ("get_openlineage_facets_on_complete", (None,)),
                         ("get_openlineage_facets_on_failure", (None,))):
        capfd.readouterr()
        lineage = getattr(op, method)(*args)
        assert (lineage.inputs, lineage.outputs, lineage.run_facets, lineage.job_facets) == ([], [], {}, {})
        assert "could not build OpenLineage facets" in "".join(capfd.readouterr())

    class Exploding(DataQualityOperator):
        def _dq_build_lineage(self, plan, result, tests):
            raise RuntimeError("boom")

    mixed_op = mixed_operator(dag_loader)
    op = Exploding(task_id="exploding", spec=mixed_op.spec, sources=mixed_op.sources)
    capfd.readouterr()
    assert op.get_openlineage_facets_on_complete(None).inputs == []
    assert "RuntimeError: boom" in "".join(capfd.readouterr())


@pytest.mark.spark
def test_run_result_round_trip_keeps_what_lineage_needs(mixed):
    """The operator reads the result document back: lineage must work from the parsed document too."""
    _, plan, result = mixed
    parsed = RunResult.from_json(result.to_json())
    original = as_json(build_lineage(plan, result).inputs[0])
    again = as_json(build_lineage(plan, parsed).inputs[0])
    assert original == again
