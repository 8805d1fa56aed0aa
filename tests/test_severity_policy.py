"""The gating policy as a pure function (fail_on × on_empty), and source → Asset URIs."""

from __future__ import annotations

import pytest

from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.operators.gating import decide


def _result(statuses: dict[str, str], rows: int = 10) -> RunResult:
    results = [AssertionResult(assertion_id=f"{sev}_{i}", name=f"{sev}_{i}", kind="volume", type="volume",
                               entity="e", severity=sev, status=status)
               for i, (sev, status) in enumerate(statuses.items())]
    return RunResult(run_id="r", reference_time="t", started_at="s", finished_at="f", results=results,
                     datasets=[{"entity": "e", "rows": rows}])


@pytest.mark.parametrize("statuses, fail_on, outcome, action", [
    ({"error": "pass", "warn": "pass"}, "error", "pass", "succeed"),
    ({"error": "pass", "warn": "fail"}, "error", "warn", "succeed"),
    ({"error": "pass", "warn": "fail"}, "warn", "warn", "fail"),
    ({"error": "fail", "warn": "pass"}, "error", "fail", "fail"),
    ({"error": "fail", "warn": "pass"}, "never", "fail", "succeed"),
    ({"error": "error", "warn": "pass"}, "error", "fail", "fail"),  # not evaluable is never a pass
    ({"error": "pass", "warn": "error"}, "error", "warn", "succeed"),
])
def test_fail_on(statuses, fail_on, outcome, action):
    verdict = decide(_result(statuses), fail_on=fail_on)
    assert (verdict.outcome, verdict.action) == (outcome, action)


@pytest.mark.parametrize("on_empty, fail_on, outcome, action", [
    ("fail", "error", "fail", "fail"),
    ("fail", "never", "fail", "succeed"),
    ("warn", "error", "warn", "succeed"),
    ("warn", "warn", "warn", "fail"),
    ("skip", "error", "pass", "skip"),
    ("ignore", "error", "pass", "succeed"),
])
def test_empty_input_policy(on_empty, fail_on, outcome, action):
    verdict = decide(_result({"error": "pass"}, rows=0), fail_on=fail_on, on_empty=on_empty)
    assert (verdict.outcome, verdict.action, verdict.empty) == (outcome, action, ["e"])


def test_a_source_that_could_not_be_read_is_not_empty():
    result = _result({"error": "error"}, rows=0)
    result.datasets[0]["error"] = "cannot read"
    assert decide(result).empty == []


def test_bad_policy_values_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="fail_on='sometimes' is not valid; use one of: error, warn, never"):
        decide(_result({"error": "pass"}), fail_on="sometimes")
    from airflow_dq.operators.data_quality import DataQualityOperator

    with pytest.raises(ValueError, match="on_empty='maybe' is not valid"):
        DataQualityOperator(task_id="x", spec={}, sources={}, on_empty="maybe")


def test_source_asset_uris():
    from airflow_dq.operators.assets import source_uri, validated_asset

    assert source_uri("/data/events.csv") == "file:///data/events.csv"
    assert source_uri("/data/events.csv:csv") == "file:///data/events.csv"
    assert source_uri("s3a://lake/events/") == "s3a://lake/events"
    assert source_uri("table:db.events") == "x-spark-table:///db.events"
    assert source_uri("/lake/events/ds={{ ds }}/part.parquet") == "file:///lake/events"
    assert source_uri({"path": "/d/x.json", "format": "json"}) == "file:///d/x.json"
    assert validated_asset("/data/events.csv").uri == "x-airflow-dq-validated:file:///data/events.csv"
