"""DataQualityOperator with SHACL shapes as its spec, in real Airflow (dag.test()) with a real spark-submit."""

from __future__ import annotations

import pathlib

import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.shacl_data import EXPECTED, WARN, key, write_tables

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "shacl_dags.py"


@pytest.fixture(scope="module")
def trading_data(data_dir):
    return write_tables(data_dir / "shacl_trading")


def test_shapes_next_to_a_yaml_spec_gate_on_error_severity(dag_runner, trading_data):
    run = dag_runner(DAGS, "dq_shacl_catalog")
    assert task_states(run) == {"dq": "failed"}  # error-severity SHACL violations fail the task
    summary = xcom_value(run, "dq")
    assert summary is not None and summary["outcome"] == "fail"
    fails = {k for k, (status, _) in EXPECTED.items() if status == "fail"}
    assert summary["total"] == len(EXPECTED) + 1  # the converted shapes plus the YAML volume check
    assert summary["by_status"] == {"pass": len(EXPECTED) + 1 - len(fails), "fail": len(fails), "error": 0}
    assert sorted(f["name"] for f in summary["failed"]) == sorted(key(ds, s) for ds, s in fails)
    assert summary["by_severity"]["warn"]["fail"] == len(fails & WARN)
    assert summary["by_severity"]["error"]["fail"] == len(fails - WARN)


def test_a_json_ld_contract_in_place_of_yaml_only_warns(dag_runner, trading_data, task_log):
    run = dag_runner(DAGS, "dq_shacl_contract_warn")
    log = task_log()
    assert task_states(run) == {"dq": "success"}
    assert "SHACL conversion of" in log and "3 assertions, 0 constraints skipped" in log  # the report, in the task log
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "warn"
    assert summary["by_status"] == {"pass": 2, "fail": 1, "error": 0}
    [failed] = summary["failed"]
    assert failed["name"] == key("counterparties", "rating_in") and failed["severity"] == "warn"
    assert failed["actual"] == 1
