"""``airflow-dq run --openlineage``: events through openlineage-python's own configuration (env), off by default."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.submit

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "dags_example" / "data" / "purchase_events.csv"
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
SPEC = f"""version: 1
assertions:
  - entity: "{ENTITY}"
    name: rows_ok
    type: volume
    condition: {{type: equal_to, value: 1000}}
  - entity: "{ENTITY}"
    name: amount_has_no_nulls
    type: field
    field: amount
    metric: null_count
    condition: {{type: equal_to, value: 0}}
  - entity: "{ENTITY}"
    name: emails_mostly_valid
    severity: warn
    type: field
    field: email_address
    condition: {{type: matches_regex, value: "[^@]+@[^@]+"}}
"""


def run_cli(tmp_path, *extra: str, master: str = "local[2]", openlineage_env: bool = True):
    spec = tmp_path / "purchase_events.yml"
    spec.write_text(SPEC)
    events_file = tmp_path / "ol.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENLINEAGE")}
    if openlineage_env:
        env.update({"OPENLINEAGE__TRANSPORT__TYPE": "file", "OPENLINEAGE__TRANSPORT__LOG_FILE_PATH": str(events_file),
                    "OPENLINEAGE__TRANSPORT__APPEND": "true", "OPENLINEAGE_NAMESPACE": "cli-tests"})
    proc = subprocess.run(
        [sys.executable, "-m", "airflow_dq.cli", "run", str(spec), "--source", f"purchase_events={DATA}:csv",
         "--out", str(tmp_path / "result.json"), "--master", master, *extra],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    events = [json.loads(line) for line in events_file.read_text().splitlines()] if events_file.exists() else []
    return proc, events


def test_cli_emits_start_and_fail_with_the_data_quality_facets(tmp_path, ol_schema):
    proc, events = run_cli(tmp_path, "--openlineage")
    assert proc.returncode == 1, proc.stderr
    assert [e["eventType"] for e in events] == ["START", "FAIL"]
    for event in events:
        ol_schema(event)
        assert (event["job"]["namespace"], event["job"]["name"]) == ("cli-tests", "airflow_dq.purchase_events")
        assert event["job"]["facets"]["jobType"]["integration"] == "AIRFLOW_DQ"
    assert events[0]["run"]["runId"] == events[1]["run"]["runId"]
    fail = events[1]
    (ds,) = fail["inputs"]
    assert (ds["namespace"], ds["name"]) == ("file", str(DATA))
    entries = {a["name"]: a for a in ds["facets"]["dataQualityAssertions"]["assertions"]}
    assert ds["inputFacets"]["dataQualityAssertions"] == ds["facets"]["dataQualityAssertions"]
    assert (entries["amount_has_no_nulls"]["success"], entries["amount_has_no_nulls"]["actual"]) == (False, "4")
    assert (entries["emails_mostly_valid"]["success"], entries["emails_mostly_valid"]["severity"]) == (False, "warn")
    assert entries["rows_ok"]["success"] is True
    assert ds["facets"]["dataQualityMetrics"]["rowCount"] == 1000
    assert ds["facets"]["dataQualityMetrics"]["columnMetrics"]["amount"]["nullCount"] == 4
    assert [(t["name"], t["status"]) for t in fail["run"]["facets"]["test"]["tests"]] == [
        ("rows_ok", "pass"), ("amount_has_no_nulls", "fail"), ("emails_mostly_valid", "fail")]
    assert "amount_has_no_nulls" in fail["run"]["facets"]["errorMessage"]["message"]


def test_spark_failure_emits_fail_with_every_test_skipped(tmp_path, ol_schema):
    proc, events = run_cli(tmp_path, "--openlineage", "--openlineage-job", "nightly_dq", master="bogus://nowhere")
    assert proc.returncode == 3, proc.stderr
    assert [e["eventType"] for e in events] == ["START", "FAIL"]
    for event in events:
        ol_schema(event)
        assert event["job"]["name"] == "nightly_dq"
    fail = events[1]
    assert {t["status"] for t in fail["run"]["facets"]["test"]["tests"]} == {"skip"}
    assert "dataQualityAssertions" not in (fail["inputs"][0].get("facets") or {})
    assert "the Spark job failed" in fail["run"]["facets"]["errorMessage"]["message"]


def test_cli_emits_nothing_without_the_flag(tmp_path):
    proc, events = run_cli(tmp_path, master="bogus://nowhere")
    assert proc.returncode == 3, proc.stderr
    assert events == [] and not (tmp_path / "ol.jsonl").exists()
