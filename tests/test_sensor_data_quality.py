"""DataQualitySensor through dag.test(): it re-runs the chosen assertions until they pass, in each mode."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import threading
import time

import pytest

from tests.airflow_helpers import task_states, xcom_value

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "severity_sensor_dags.py"
ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "dags_example" / "data" / "purchase_events.csv"
EMPTY = ROOT / "tests" / "dags" / "data" / "empty_purchase_events.csv"


def _prepare_landing(mode: str) -> pathlib.Path:
    path = pathlib.Path(os.environ["AIRFLOW_HOME"]) / "dq_landing" / mode
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    shutil.copy(EMPTY, path / "part-0.csv")  # the directory exists but holds 0 rows
    return path


def _land_after_first_check(mode: str, path: pathlib.Path) -> threading.Thread:
    """Copy the data in once the sensor's first check has written its result document."""
    results = pathlib.Path(os.environ["AIRFLOW_HOME"]) / "airflow-dq" / "results" / f"severity_sensor_{mode}"
    started = time.time()

    def land():
        while time.time() - started < 600:
            if any(p.stat().st_mtime >= started for p in results.rglob("result.json")):
                shutil.copy(DATA, path / "part-1.csv")
                return
            time.sleep(0.2)

    thread = threading.Thread(target=land, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("mode", ["poke", "reschedule", "deferrable"])
def test_sensor_waits_until_the_selected_assertions_pass(dag_runner, mode, capfd):
    path = _prepare_landing(mode)
    thread = _land_after_first_check(mode, path)
    run = dag_runner(DAGS, f"severity_sensor_{mode}")
    thread.join(timeout=1)
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"wait_for_data": "success", "downstream": "success"}
    assert (path / "part-1.csv").exists(), "the sensor succeeded before the data landed"
    summary = xcom_value(run, "wait_for_data")
    # only the volume assertion is re-run (default kinds: freshness, volume); the null check is not the sensor's
    assert summary["total"] == 1 and summary["outcome"] == "pass"
    assert "Data-quality check 1: outcome FAIL; not passing: landed_rows; empty input" in log
    # reschedule mode runs each check as a new task run, so its count restarts; the others count up
    assert re.search(r"Data-quality check \d+: outcome PASS; not passing: none", log)
    assert "Data-quality check 2: outcome PASS" in log or mode == "reschedule"
    detached = list(path.parent.parent.joinpath("airflow-dq", "results", f"severity_sensor_{mode}").rglob(
        "spark-submit-*.log"))
    # deferrable: each check was a detached spark-submit (log next to the plan) watched by the trigger
    assert len(detached) == (2 if mode == "deferrable" else 0)
    if mode == "reschedule":
        assert any(ti.task_id == "wait_for_data" for ti in run.get_task_instances())


def test_sensor_times_out_when_the_data_never_arrives(dag_runner, capfd):
    _prepare_landing("timeout")
    run = dag_runner(DAGS, "severity_sensor_timeout")
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"wait_for_data": "failed", "downstream": "upstream_failed"}
    assert "Sensor has timed out" in log


def test_sensor_selection_errors_name_the_known_assertions():
    from airflow_dq.operators.data_quality import DataQualityInputError
    from airflow_dq.sensors.data_quality import DataQualitySensor
    from tests.dags.severity_sensor_dags import SPEC

    sensor = DataQualitySensor(task_id="s", spec=SPEC, sources={}, select=["nope"])
    with pytest.raises(DataQualityInputError, match=r"select names unknown assertion\(s\) \['nope'\].*landed_rows"):
        sensor.selected_assertions()
    assert [a.name for a in DataQualitySensor(task_id="s", spec=SPEC, sources={}).selected_assertions()] == [
        "landed_rows"]
    assert len(DataQualitySensor(task_id="s", spec=SPEC, sources={}, kinds=None).selected_assertions()) == 2
