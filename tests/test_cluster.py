"""The validation job on a real Spark standalone cluster (one master + one worker on 127.0.0.1, started for this
module and stopped by PID): the example spec through the ``spark`` connection in client deploy mode, results on a
shared file:// location read back through ObjectStoragePath, plan shipping, deploy-mode refusal, and the driver
killed mid-run (fails retryably; the retry produces and reads its own fresh result).
"""

from __future__ import annotations

import json
import os
import pathlib
import threading
import time
import urllib.request

import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.spark_cluster import standalone_cluster_fixture

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "cluster_dags.py"
HOLD_ENV = "AIRFLOW_DQ_TEST_HOLD_FILE"

cluster = standalone_cluster_fixture(scope="module", cores=1, memory="1536m")


@pytest.fixture(scope="module")
def cluster_env(cluster, tmp_path_factory):
    """The ``spark_cluster`` connection (conf and env in its extra) and the shared result location variable."""
    shared = tmp_path_factory.mktemp("shared_results")
    conn = {"conn_type": "spark", "host": f"spark://{cluster.master_url.split('://')[1].rsplit(':', 1)[0]}",
            "port": cluster.port,
            "extra": {"deploy-mode": "client", "conf": {"spark.cores.max": "1", "spark.ui.enabled": "false"},
                      "env_vars": {"AIRFLOW_DQ_TEST_FROM_CONN": "1"}}}
    mp = pytest.MonkeyPatch()
    mp.setenv("AIRFLOW_CONN_SPARK_CLUSTER", json.dumps(conn))
    mp.setenv("AIRFLOW_VAR_DQ_RESULT_URI", shared.as_uri())
    yield {"shared": shared, "cluster": cluster}
    mp.undo()


def _ti(run, task_id="dq"):
    return next(ti for ti in run.get_task_instances() if ti.task_id == task_id)


def _master_state(cluster) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{cluster.webui_port}/json/", timeout=10) as resp:
        return json.load(resp)


def test_the_fixture_runs_a_master_with_one_registered_worker(cluster):
    state = _master_state(cluster)
    assert state["status"] == "ALIVE"
    assert [w["state"] for w in state["workers"]] == ["ALIVE"]
    assert cluster.alive()


def test_example_spec_runs_on_the_cluster_in_client_mode_with_settings_from_connection_and_operator(
        dag_runner, cluster_env, task_log):
    run = dag_runner(DAGS, "dq_cluster_example")
    log = task_log()
    cluster = cluster_env["cluster"]
    assert f"--master {cluster.master_url}" in log and "--deploy-mode client" in log
    summary = xcom_value(run, "dq")
    assert summary is not None, log[-3000:]
    # the example data has 4 null amounts: warn-severity failure only; every error-severity assertion passes
    assert task_states(run) == {"dq": "success"}
    assert summary["outcome"] == "warn" and summary["by_status"]["error"] == 0
    assert "amount_mostly_present" in [f["name"] for f in summary["failed"]]
    assert {f["severity"] for f in summary["failed"]} == {"warn"}

    location = pathlib.Path(summary["result_location"])
    assert location.is_relative_to(cluster_env["shared"]), location
    # <result_uri>/<dag>/<task>/<run>/try-<n>/result.json
    assert location.relative_to(cluster_env["shared"]).parts[:2] == ("dq_cluster_example", "dq")
    assert location.parts[-2:] == ("try-1", "result.json")
    leftovers = [p.name for p in location.parent.iterdir() if p.name.startswith(".") or p.suffix in (".crc", ".tmp")]
    assert leftovers == []  # the atomic write left no temporary or checksum files
    document = json.loads(location.read_text())
    assert document["run_id"] == summary["run_id"] and document["run_id"].endswith(".1")
    engine = document["engine"]
    assert engine["master"] == cluster.master_url and engine["deploy_mode"] == "client"
    assert engine["application_id"].startswith("app-")  # a standalone application, not local-...
    conf = engine["conf"]
    assert conf["spark.executor.memory"] == "600m"          # operator submit_kwargs
    assert conf["spark.sql.shuffle.partitions"] == "3"      # operator conf
    assert conf["spark.cores.max"] == "1"                   # connection extra conf
    assert {"AIRFLOW_DQ_TEST_FROM_CONN", "AIRFLOW_DQ_TEST_FROM_OPERATOR"} <= set(engine["env_names"])

    apps = {a["id"]: a for a in _master_state(cluster)["completedapps"]}
    assert engine["application_id"] in apps
    assert apps[engine["application_id"]]["memoryperexecutor"] == 600


def test_plan_shipped_with_files_reaches_the_driver_and_the_result_comes_back_through_hadoop_fs(
        cluster_env, tmp_path):
    from airflow_dq.core.results import RunResult
    from airflow_dq.hooks.result_store import read_result, result_location
    from airflow_dq.hooks.spark_submit import plan_arguments
    from airflow_dq.submit.local import submit_engine
    from tests.helpers import plan_from_yaml

    spec = (pathlib.Path(__file__).resolve().parent.parent / "dags_example" / "specs" / "purchase_events.yml")
    data = pathlib.Path(__file__).resolve().parent.parent / "dags_example" / "data" / "purchase_events.csv"
    plan = plan_from_yaml(spec.read_text(), {"shop.purchase_events": str(data)}, run_id="shipping-test")
    plan_path = tmp_path / "airflow_dq_plan.json"
    plan_path.write_text(plan.to_json())
    # what cluster mode uses for a plan too big to go inline: --files + the name (driver looks it up itself)
    args = ["--plan-file", plan_path.name]
    location = result_location(cluster_env["shared"].as_uri(), "cli/shipping/try-1")
    outcome = submit_engine(str(tmp_path / "not-used.json"), location.spark_uri, cluster_env["cluster"].master_url,
                            str(tmp_path), conf={"spark.cores.max": "1"}, plan_args=args, files=str(plan_path))
    assert outcome.returncode == 0, outcome.log_tail(40)
    result = read_result(location, expected_run_id="shipping-test")
    assert isinstance(result, RunResult) and len(result.results) == len(plan.assertions)
    assert result.engine["master"] == cluster_env["cluster"].master_url
    assert plan_arguments(str(plan_path), "client") == (["--plan", str(plan_path)], None)


def test_python_cluster_deploy_mode_on_standalone_is_refused_with_a_clear_message(dag_runner, cluster_env, task_log):
    started = time.monotonic()
    run = dag_runner(DAGS, "dq_cluster_deploy_mode")
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    assert _ti(run).try_number == 1  # a configuration error: its retries=2 are not used
    assert "cannot run Python applications in cluster deploy mode" in log
    assert "Use deploy mode 'client'" in log
    assert "Spark-Submit cmd" not in log  # refused before anything was submitted
    assert xcom_value(run, "dq") is None
    assert time.monotonic() - started < 60


def _kill_driver_when_it_holds(marker: pathlib.Path, killed: dict, timeout: float = 240) -> None:
    """Wait for the job to reach its hold point, then SIGKILL the driver: the spark-submit JVM and its Python."""
    import psutil

    deadline = time.monotonic() + timeout
    while not marker.exists() or not marker.read_text().strip():
        if time.monotonic() > deadline:
            killed["error"] = "the job never reached its hold point"
            return
        time.sleep(0.2)
    python = psutil.Process(int(marker.read_text()))
    jvm = python.parent()
    killed["jvm_cmdline"] = " ".join(jvm.cmdline())
    jvm.kill()
    python.kill()
    killed["at"] = time.monotonic()


def _run_with_driver_kill(dag_runner, dag_id: str, tmp_path, monkeypatch):
    marker = tmp_path / f"{dag_id}.hold"
    monkeypatch.setenv(HOLD_ENV, str(marker))
    killed: dict = {}
    killer = threading.Thread(target=_kill_driver_when_it_holds, args=(marker, killed), daemon=True)
    killer.start()
    run = dag_runner(DAGS, dag_id)
    killer.join(10)
    assert "jvm_cmdline" in killed, f"the driver was not killed: {killed or 'the job never held'}"
    assert "org.apache.spark.deploy.SparkSubmit" in killed["jvm_cmdline"]
    return run


def test_driver_killed_mid_run_fails_the_task_and_reports_nothing(dag_runner, cluster_env, tmp_path, monkeypatch,
                                                                 task_log):
    run = _run_with_driver_kill(dag_runner, "dq_driver_killed", tmp_path, monkeypatch)
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    assert "the Spark validation job failed (driver or spark-submit ended abnormally" in log
    assert "DataQualityInfrastructureError" in log  # the retryable kind (an AirflowException, not a Fail one)
    assert xcom_value(run, "dq") is None            # nothing pushed, nothing reported as pass
    assert not list(cluster_env["shared"].glob("dq_driver_killed/**/result.json"))


def test_a_retry_after_the_driver_was_killed_produces_and_reads_its_own_fresh_result(
        dag_runner, cluster_env, tmp_path, monkeypatch, task_log):
    run = _run_with_driver_kill(dag_runner, "dq_retry_after_kill", tmp_path, monkeypatch)
    log = task_log()
    assert "the Spark validation job failed" in log  # try 1
    assert task_states(run) == {"dq": "success"}
    assert _ti(run).try_number == 2
    summary = xcom_value(run, "dq")
    assert summary["run_id"].endswith(".2") and summary["outcome"] == "pass"
    location = pathlib.Path(summary["result_location"])
    assert location.parent.name == "try-2"
    assert json.loads(location.read_text())["run_id"] == summary["run_id"]
    assert not (location.parent.parent / "try-1" / "result.json").exists()  # try 1 never wrote one


@pytest.fixture(autouse=True, scope="module")
def _no_leftover_drivers(cluster):
    yield
    import psutil

    leftovers = []
    for p in psutil.Process(os.getpid()).children(recursive=True):
        try:
            cmdline = " ".join(p.cmdline())
            # the session-scoped SparkSession's own JVM (…SparkSubmit … pyspark-shell) is not a leftover
            if p.status() != psutil.STATUS_ZOMBIE and "SparkSubmit" in cmdline and "pyspark-shell" not in cmdline:
                leftovers.append(p)
        except psutil.Error:
            continue
    for p in leftovers:
        p.kill()
    assert not leftovers, "spark-submit processes were left behind"
