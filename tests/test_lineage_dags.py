"""OpenLineage events of DataQualityOperator in real Airflow: dag.test() + the provider's file transport.

Every event is validated offline against the official schemas; the facet contents are checked exactly with the
same checks tests/test_lineage_facets.py applies to the in-process build.
"""

from __future__ import annotations

import pathlib
import re
import shutil

import pandas as pd
import pytest

from tests.airflow_helpers import task_states
from tests.test_lineage_facets import check_mixed_lineage

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

ROOT = pathlib.Path(__file__).resolve().parent.parent
DAGS = ROOT / "tests" / "dags" / "lineage_dags.py"
EXAMPLE = ROOT / "dags_example" / "example_dq.py"
FOUR = {"dataQualityAssertions", "dataQualityMetrics", "subset", "test"}


def run_and_collect(dag_runner, ol_events, path, dag_id: str, task_id: str = "dq", **test_kwargs):
    """Run the DAG once (``test_kwargs`` go to dag.test()); return (dag run, this run's events of the task)."""
    before = len(ol_events())
    run = dag_runner(path, dag_id, **test_kwargs)
    job = f"{dag_id}.{task_id}"

    def done(events):
        return any(e.get("job", {}).get("name") == job and e.get("eventType") in ("COMPLETE", "FAIL")
                   for e in events[before:])

    events = [e for e in ol_events(wait_for=done)[before:] if e.get("job", {}).get("name") == job]
    return run, events


def validate_all(events, ol_schema) -> set[str]:
    checked = set()
    for event in events:
        checked |= ol_schema(event)
    return {url.split("#")[0].rsplit("/", 1)[-1].removesuffix(".json") for url in checked}


def spark_conf_from_log(log: str) -> dict[str, str]:
    cmd = next(line for line in log.splitlines() if "Spark-Submit cmd:" in line)
    return dict(m.groups() for m in re.finditer(r"--conf (spark\.openlineage\.[A-Za-z]+)=(\S+)", cmd))


def test_error_failure_emits_fail_with_the_full_facets_and_links_spark_to_the_task(
        dag_runner, dag_loader, ol_events, ol_schema, task_log):
    op = dag_loader(DAGS, "dq_lineage_mixed").get_task("dq")
    run, events = run_and_collect(dag_runner, ol_events, DAGS, "dq_lineage_mixed")
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    assert [e["eventType"] for e in events] == ["START", "FAIL"]
    checked = validate_all(events, ol_schema)
    assert {"DataQualityAssertionsDatasetFacet", "DataQualityMetricsDatasetFacet", "BaseSubsetDatasetFacet",
            "TestRunFacet"} <= checked

    start, fail = events
    # START: what will be validated (names, subsets), no results yet
    start_inputs = {d["name"]: d for d in start["inputs"]}
    assert set(start_inputs) == {op.sources["purchase_events"], op.sources["products"]}
    assert "dataQualityAssertions" not in (start_inputs[op.sources["purchase_events"]].get("facets") or {})
    assert set(start_inputs[op.sources["products"]]["inputFacets"]) == {"subset"}
    assert "test" not in start["run"]["facets"]

    # FAIL: the same facets a COMPLETE would carry
    check_mixed_lineage(fail["inputs"], fail["run"]["facets"], op.spec, op.sources)

    # spark-submit got the task's OpenLineage identity: a Spark-side listener nests its events under the task
    conf = spark_conf_from_log(log)
    parent = fail["run"]["facets"]["parent"]
    assert conf["spark.openlineage.parentJobNamespace"] == fail["job"]["namespace"] == "tests"
    assert conf["spark.openlineage.parentJobName"] == fail["job"]["name"] == "dq_lineage_mixed.dq"
    assert conf["spark.openlineage.parentRunId"] == fail["run"]["runId"] == start["run"]["runId"]
    root = parent.get("root") or parent
    assert conf["spark.openlineage.rootParentRunId"] == root["run"]["runId"]
    assert conf["spark.openlineage.rootParentJobName"] == root["job"]["name"] == "dq_lineage_mixed"
    assert conf["spark.openlineage.rootParentJobNamespace"] == "tests"


def test_warn_only_failures_complete_with_unsuccessful_warn_entries_and_a_partition_subset(
        dag_runner, dag_loader, ol_events, ol_schema):
    op = dag_loader(DAGS, "dq_lineage_warn").get_task("dq")
    partition_dir = pathlib.Path(op.sources["purchase_events"].removesuffix(":csv"))
    partition_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "dags_example" / "data" / "purchase_events.csv", partition_dir / "part-0.csv")
    data = pd.read_csv(partition_dir / "part-0.csv")
    purchases = data[data["event_type"] == "purchase"]
    nulls = int(purchases["amount"].isna().sum())
    assert nulls > 0  # the warn assertion is meant to fail

    run, events = run_and_collect(dag_runner, ol_events, DAGS, "dq_lineage_warn")
    assert task_states(run) == {"dq": "success"}
    assert [e["eventType"] for e in events] == ["START", "COMPLETE"]
    assert FOUR - {"test"} <= {k for e in events for d in e["inputs"]
                               for k in [*(d.get("facets") or {}), *(d.get("inputFacets") or {})]}
    validate_all(events, ol_schema)
    complete = events[-1]
    (ds,) = complete["inputs"]
    # the dataset is the table root; the partition directory read is the subset, ANDed with the shared filter
    assert (ds["namespace"], ds["name"]) == ("file", str(partition_dir.parent))
    expected_subset = {"type": "binary", "operator": "AND",
                       "left": {"type": "partition", "partitions": [{"dimensions": {"dt": "2026-11-01"}}]},
                       "right": {"type": "compare", "comparison": "EQUAL", "left": {"type": "field",
                                                                                    "field": "event_type"},
                                 "right": {"type": "literal", "value": "purchase"}}}
    assert ds["inputFacets"]["subset"]["inputCondition"] == expected_subset
    for event in events:  # the subset is known before the run as well
        assert event["inputs"][0]["inputFacets"]["subset"]["inputCondition"] == expected_subset
    entries = {a["name"]: a for a in ds["facets"]["dataQualityAssertions"]["assertions"]}
    assert entries["purchase_amount_not_null"]["success"] is False
    assert entries["purchase_amount_not_null"]["severity"] == "warn"
    assert entries["purchase_amount_not_null"]["actual"] == str(nulls)
    assert entries["purchase_amount_not_null"]["params"]["filter"] == "event_type = 'purchase'"
    assert (entries["purchase_rows"]["success"], entries["purchase_rows"]["actual"]) == (True, str(len(purchases)))
    # metrics describe the subset: the purchases of that partition
    metrics = ds["facets"]["dataQualityMetrics"]
    assert metrics["rowCount"] == len(purchases)
    assert metrics["columnMetrics"] == {"amount": {"nullCount": nulls, "count": len(purchases) - nulls}}
    tests = complete["run"]["facets"]["test"]["tests"]
    assert [(t["name"], t["status"], t["severity"]) for t in tests] == [
        ("purchase_rows", "pass", "error"), ("purchase_amount_not_null", "fail", "warn")]


def test_example_dag_events_are_valid_and_carry_the_data_quality_facets(
        dag_runner, dag_loader, ol_events, ol_schema):
    run, events = run_and_collect(dag_runner, ol_events, EXAMPLE, "airflow_dq_example", "validate_purchase_events")
    assert task_states(run)["validate_purchase_events"] == "success"
    assert events and events[-1]["eventType"] == "COMPLETE"
    checked = validate_all(events, ol_schema)
    assert {"DataQualityAssertionsDatasetFacet", "DataQualityMetricsDatasetFacet", "TestRunFacet"} <= checked
    complete = events[-1]
    (ds,) = complete["inputs"]
    assert ds["namespace"] == "file" and ds["name"].endswith("dags_example/data/purchase_events.csv")
    op = dag_loader(EXAMPLE, "airflow_dq_example").get_task("validate_purchase_events")
    names = [a["name"] for a in ds["facets"]["dataQualityAssertions"]["assertions"]]
    assert len(names) == len(complete["run"]["facets"]["test"]["tests"]) > 0
    assert ds["facets"]["dataQualityMetrics"]["rowCount"] == 1000
    # the example's operator-level filter scopes every assertion, so the run validated a subset: all four facets
    assert op.filters == {"shop.purchase_events": "updated_at >= '2026-11-01'"}
    assert FOUR <= set(ds["facets"]) | set(ds.get("inputFacets") or {}) | set(complete["run"]["facets"])
    condition = ds["inputFacets"]["subset"]["inputCondition"]
    assert condition["type"] == "compare" and condition["comparison"] == "GREATER_EQUAL_THAN", condition
    assert "updated_at" in str(condition["left"]) and "2026-11-01" in str(condition["right"]), condition
