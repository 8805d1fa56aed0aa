"""``airflow-dq run``: exit codes, results table and result document, with a real spark-submit."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "dags_example" / "data" / "purchase_events.csv"
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "airflow_dq.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def write_spec(tmp_path, severity: str) -> pathlib.Path:
    path = tmp_path / f"spec_{severity}.yml"
    path.write_text(f"""version: 1
assertions:
  - entity: "{ENTITY}"
    name: rows_ok
    type: volume
    condition: {{type: equal_to, value: 1000}}
  - entity: "{ENTITY}"
    name: amount_has_no_nulls
    severity: {severity}
    type: field
    field: amount
    metric: null_count
    condition: {{type: equal_to, value: 0}}
""")
    return path


@pytest.mark.submit
@pytest.mark.parametrize("severity,code", [("error", 1), ("warn", 0)])
def test_run_exit_code_table_and_result_document(tmp_path, severity, code):
    out = tmp_path / "result.json"
    proc = cli("run", str(write_spec(tmp_path, severity)), "--source", f"purchase_events={DATA}:csv",
               "--master", "local[2]", "--out", str(out))
    assert proc.returncode == code, proc.stderr[-3000:]
    assert "FAIL    " + severity in proc.stdout and "amount_has_no_nulls" in proc.stdout
    doc = json.loads(out.read_text())
    assert doc["format"] == "airflow-dq/result" and doc["version"] == 1
    failed = [r for r in doc["results"] if r["name"] == "amount_has_no_nulls"][0]
    assert (failed["status"], failed["success"], failed["actual"], failed["severity"]) == ("fail", False, 4, severity)
    assert failed["assertion"]["metric"] == "null_count"  # the assertion as declared
    assert doc["summary"]["by_severity"][severity]["fail"] == 1
    assert doc["engine"]["master"] == "local[2]"
    # per assertion: where it ran and what it checked, and how long planning it took (the shared scan is the
    # dataset's: datasets[].scan_ms within datasets[].duration_ms)
    results = {r["name"]: r for r in doc["results"]}
    assert {n: (r["entity"], r["type"], r["kind"], r["column"]) for n, r in results.items()} == {
        "rows_ok": (ENTITY, "volume", "volume", None),
        "amount_has_no_nulls": (ENTITY, "field", "field_metric", "amount")}
    (dataset,) = doc["datasets"]
    assert dataset["entity"] == ENTITY and 0 <= dataset["scan_ms"] <= dataset["duration_ms"]
    for r in doc["results"]:
        assert isinstance(r["duration_ms"], (int, float)) and 0 <= r["duration_ms"] <= dataset["duration_ms"], r
    statuses = [r["status"] for r in doc["results"]]
    assert doc["summary"]["by_status"] == {s: statuses.count(s) for s in ("pass", "fail", "error")}
    assert doc["summary"]["total"] == len(statuses) == 2 and doc["summary"]["outcome"] == ("fail" if code else "warn")


def test_invalid_spec_exits_2_with_file_and_line(tmp_path):
    spec = tmp_path / "bad.yml"
    spec.write_text("version: 1\nassertions:\n  - entity: x\n    type: volume\n    condition: {type: betwen, min: 1}\n")
    proc = cli("run", str(spec), "--source", f"x={DATA}", "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2
    assert f"{spec}:5: assertions[0].condition: condition type 'betwen' is not valid for volume" in proc.stderr
    assert not (tmp_path / "r.json").exists()


def test_unknown_entity_and_bad_arguments_exit_2(tmp_path):
    proc = cli("run", str(write_spec(tmp_path, "error")), "--source", f"other={DATA}", "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2 and "no source given for entity" in proc.stderr
    proc = cli("run", str(write_spec(tmp_path, "error")), "--source", "no-equals", "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2 and "ENTITY=PATH" in proc.stderr
    proc = cli("run")
    assert proc.returncode == 2 and "error:" in proc.stderr
    proc = cli("run", str(tmp_path / "missing.yml"), "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2 and "cannot read spec" in proc.stderr
