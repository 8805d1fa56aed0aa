"""OpenLineage facets of custom SQL, freshness, schema and accepted-values assertions, and lineage that fails
without failing the task — real Airflow (dag.test()) with the provider's file transport, events validated offline."""

from __future__ import annotations

import pathlib

import pandas as pd
import pendulum
import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.test_lineage_dags import run_and_collect, validate_all

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "lineage_extra_dags.py"
# the sample's newest update is 2026-11-21 20:00 UTC: 10 hours before this run's logical date (lookback 1 day)
AS_OF = pendulum.datetime(2026, 11, 22, 6, tz="UTC")


def test_custom_sql_freshness_schema_and_accepted_values_facets(dag_runner, dag_loader, ol_events, ol_schema):
    op = dag_loader(DAGS, "dq_lineage_kinds").get_task("dq")
    refunds_sql = next(a["statement"] for a in op.spec["assertions"] if a["type"] == "sql")
    assert refunds_sql.startswith("SELECT COUNT(*) FROM purchase_events")
    events = pd.read_csv(op.sources["purchase_events"], parse_dates=["updated_at"])
    refunds_without_amount = int(((events.event_type == "refund") & events.amount.isna()).sum())
    newest = events.updated_at.max().tz_localize("UTC").isoformat()
    assert newest == "2026-11-21T20:00:00+00:00"

    run, emitted = run_and_collect(dag_runner, ol_events, DAGS, "dq_lineage_kinds", logical_date=AS_OF)
    assert task_states(run) == {"dq": "success"}
    assert xcom_value(run, "dq")["outcome"] == "pass"
    assert [e["eventType"] for e in emitted] == ["START", "COMPLETE"]
    checked = validate_all(emitted, ol_schema)
    assert {"DataQualityAssertionsDatasetFacet", "DataQualityMetricsDatasetFacet", "TestRunFacet"} <= checked

    complete = emitted[-1]
    (ds,) = complete["inputs"]
    assert (ds["namespace"], ds["name"]) == ("file", op.sources["purchase_events"])
    facet = ds["facets"]["dataQualityAssertions"]
    assert facet == ds["inputFacets"]["dataQualityAssertions"]
    entries = {a["name"]: a for a in facet["assertions"]}
    assert list(entries) == ["no_refund_without_amount", "events_fresh", "has_core_columns", "product_known",
                             "amount_min"]
    assert all(e["success"] is True and e["severity"] == "error" for e in entries.values())

    # custom SQL: classified custom_sql, the statement itself as content, typed "sql" (not the declared JSON)
    sql = entries["no_refund_without_amount"]
    assert (sql["assertion"], sql["content"], sql["contentType"]) == ("custom_sql", refunds_sql, "sql")
    assert (sql["actual"], sql["expected"]) == (str(refunds_without_amount), "<= 5")
    assert "column" not in sql and "statement" not in sql["params"]

    fresh = entries["events_fresh"]
    assert (fresh["assertion"], fresh["column"], fresh["contentType"]) == ("freshness", "updated_at", "json")
    assert fresh["actual"] == newest
    assert "2026-11-21T06:00:00+00:00" in fresh["expected"]  # window start: logical date - lookback
    assert entries["has_core_columns"]["assertion"] == "schema"
    accepted = entries["product_known"]
    assert (accepted["assertion"], accepted["column"]) == ("accepted_values", "product_id")
    assert accepted["params"]["condition"] == {"type": "in", "value": ["product_1", "product_2", "product_3",
                                                                       "product_4", "product_5"]}
    assert entries["amount_min"]["assertion"] == "min"

    # metrics the engine computed anyway: the freshness check's newest update, the min of amount, the row count
    metrics = ds["facets"]["dataQualityMetrics"]
    assert metrics["lastUpdated"] == newest
    assert metrics["rowCount"] == len(events)
    assert metrics["columnMetrics"]["amount"]["min"] == pytest.approx(events.amount.min())
    assert "max" not in metrics["columnMetrics"]["amount"]  # nobody computed it
    assert "updated_at" not in metrics["columnMetrics"]  # freshness gives lastUpdated, not column metrics
    assert "subset" not in (ds.get("inputFacets") or {})  # every assertion covers the whole file

    tests = {t["name"]: t for t in complete["run"]["facets"]["test"]["tests"]}
    assert [(n, t["type"], t["status"]) for n, t in tests.items()] == [
        ("no_refund_without_amount", "custom_sql", "pass"), ("events_fresh", "freshness", "pass"),
        ("has_core_columns", "schema", "pass"), ("product_known", "accepted_values", "pass"),
        ("amount_min", "min", "pass")]
    assert (tests["no_refund_without_amount"]["content"], tests["no_refund_without_amount"]["contentType"]) == \
        (refunds_sql, "sql")


def test_a_failing_facet_builder_never_breaks_the_task(dag_runner, ol_events, ol_schema, task_log):
    task_log()  # drop what earlier tests logged
    run, emitted = run_and_collect(dag_runner, ol_events, DAGS, "dq_lineage_broken")
    log = task_log()
    assert task_states(run) == {"dq": "success"}
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "pass" and summary["total"] == 1
    # the error is logged, with its type and message, for the start and the completion facets
    for when in ("start", "complete"):
        assert (f"could not build OpenLineage facets on {when} (RuntimeError: facet builder exploded); "
                "emitting none") in log, log[-3000:]
    # the provider still reports the task, without data-quality facets (its inputs are only what it derives from
    # the task's inlet Asset); the events stay valid
    assert [e["eventType"] for e in emitted] == ["START", "COMPLETE"]
    validate_all(emitted, ol_schema)
    for event in emitted:
        assert "test" not in event["run"]["facets"]
        for ds in event.get("inputs") or []:
            assert not {"dataQualityAssertions", "dataQualityMetrics", "subset"} & \
                {*(ds.get("facets") or {}), *(ds.get("inputFacets") or {})}, ds
