"""The validation job on a real Spark standalone cluster (one master + one worker on 127.0.0.1, started for this
module and stopped by PID): the example DAG itself through the ``spark_default`` connection in client deploy mode,
results on a shared file:// location read back through ObjectStoragePath, plan shipping, deploy-mode refusal, and
the driver killed mid-run (fails retryably; the retry produces and reads its own fresh result).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import threading
import time
import urllib.request

import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.spark_cluster import standalone_cluster_fixture

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "cluster_dags.py"
EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "dags_example" / "example_dq.py"

cluster = standalone_cluster_fixture(scope="module", cores=1, memory="1536m")


@pytest.fixture(scope="module")
def cluster_env(cluster, tmp_path_factory):
    """The ``spark_cluster`` connection (conf and env in its extra) and the shared result location variable."""
    shared = tmp_path_factory.mktemp("shared_results")
    mp = pytest.MonkeyPatch()
    mp.setenv("AIRFLOW_CONN_SPARK_CLUSTER", json.dumps(_connection(cluster)))
    mp.setenv("AIRFLOW_VAR_DQ_RESULT_URI", shared.as_uri())
    yield {"shared": shared, "cluster": cluster}
    mp.undo()


def _connection(cluster) -> dict:
    """A ``spark`` connection to the cluster's master, client deploy mode, Spark conf and env in its extra."""
    return {"conn_type": "spark", "host": "spark://127.0.0.1", "port": cluster.port,
            "extra": {"deploy-mode": "client", "conf": {"spark.cores.max": "1", "spark.ui.enabled": "false"},
                      "env_vars": {"AIRFLOW_DQ_TEST_FROM_CONN": "1"}}}


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


def test_the_example_dag_runs_on_the_cluster_through_spark_default_in_client_mode(
        dag_runner, cluster_env, monkeypatch, task_log):
    cluster = cluster_env["cluster"]
    monkeypatch.setenv("AIRFLOW_CONN_SPARK_DEFAULT", json.dumps(_connection(cluster)))  # the session has local[2]
    run = dag_runner(EXAMPLE, "airflow_dq_example")
    log = task_log()
    assert f"--master {cluster.master_url}" in log and "--deploy-mode client" in log
    summary = xcom_value(run, "validate_purchase_events")
    assert summary is not None, log[-3000:]
    # the example data has 4 null amounts: warn-severity failure only; every error-severity assertion passes
    assert task_states(run) == {"validate_purchase_events": "success", "report": "success"}
    assert summary["outcome"] == "warn" and summary["by_status"]["error"] == 0
    assert "amount_mostly_present" in [f["name"] for f in summary["failed"]]
    assert {f["severity"] for f in summary["failed"]} == {"warn"}
    assert xcom_value(run, "report") == f"outcome=warn by_status={summary['by_status']}"

    document = json.loads(pathlib.Path(summary["result_location"]).read_text())
    assert document["run_id"] == summary["run_id"]
    engine = document["engine"]
    assert engine["master"] == cluster.master_url and engine["deploy_mode"] == "client"
    assert engine["application_id"].startswith("app-")  # a standalone application, not local-...
    assert engine["conf"]["spark.cores.max"] == "1"                      # connection extra: conf
    assert "AIRFLOW_DQ_TEST_FROM_CONN" in engine["env_names"]            # connection extra: env_vars
    assert engine["application_id"] in {a["id"] for a in _master_state(cluster)["completedapps"]}


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


def _cmdline(proc) -> str:
    import psutil

    try:
        return " ".join(proc.cmdline())
    except psutil.Error:  # gone, or a zombie
        return ""


def _driver_jvm():
    """The spark-submit JVM of the validation job (client mode: a child of this process), or None."""
    import psutil

    for p in psutil.Process(os.getpid()).children(recursive=True):
        cmdline = _cmdline(p)
        # the session-scoped SparkSession's own JVM (...SparkSubmit ... pyspark-shell) is not the job's
        if "org.apache.spark.deploy.SparkSubmit" in cmdline and "airflow_dq_job.py" in cmdline:
            return p
    return None


def _tasks_in_flight(cluster, app_id: str) -> set[str]:
    """TIDs the application's executor started and has not finished, from its log on the worker."""
    started, finished = set(), set()
    for log in (cluster.workdir / "work" / app_id).glob("*/stderr"):
        text = log.read_text(errors="replace")
        started |= set(re.findall(r"Running task \S+ in stage \S+ \(TID (\d+)\)", text))
        finished |= set(re.findall(r"Finished task \S+ in stage \S+ \(TID (\d+)\)", text))
    return started - finished


def _kill_driver_mid_run(cluster, results: pathlib.Path, killed: dict, timeout: float = 240,
                         held_for: float = 5) -> None:
    """Once one task of the job has been running on the executor for ``held_for`` seconds (the slow custom SQL
    query: everything else on 1000 rows takes about a second), SIGKILL the driver: the spark-submit JVM and the
    Python driver it started."""
    import psutil

    deadline, since = time.monotonic() + timeout, {}
    while True:
        if time.monotonic() > deadline:
            killed["error"] = f"no task of the job held the executor for {held_for}s"
            return
        apps = [a["id"] for a in _master_state(cluster)["activeapps"]]
        now = time.monotonic()
        since = {tid: since.get(tid, now) for app in apps for tid in _tasks_in_flight(cluster, app)}
        if since and now - min(since.values()) >= held_for:
            break
        time.sleep(0.3)
    jvm = _driver_jvm()
    if jvm is None:
        killed["error"] = "no spark-submit JVM of the job to kill"
        return
    killed["active_apps"] = apps
    killed["results_before_kill"] = [str(p) for p in results.rglob("result.json")]
    children = jvm.children(recursive=True)
    killed["python_driver"] = any("airflow_dq_job.py" in _cmdline(c) for c in children)
    killed["jvm_cmdline"] = _cmdline(jvm)
    for proc in [jvm, *children]:
        try:
            proc.kill()
        except psutil.Error:
            pass
    killed["at"] = time.monotonic()


def _run_with_driver_kill(dag_runner, dag_id: str, cluster_env):
    killed: dict = {}
    killer = threading.Thread(target=_kill_driver_mid_run, daemon=True,
                              args=(cluster_env["cluster"], cluster_env["shared"] / dag_id, killed))
    killer.start()
    run = dag_runner(DAGS, dag_id)
    killer.join(10)
    assert "jvm_cmdline" in killed, f"the driver was not killed: {killed}"
    assert "org.apache.spark.deploy.SparkSubmit" in killed["jvm_cmdline"] and killed["python_driver"]
    # mid-run: the application was active on the master, a query of it was running, no result had been written
    assert killed["active_apps"] and killed["results_before_kill"] == []
    return run


def test_driver_killed_mid_run_fails_the_task_and_reports_nothing(dag_runner, cluster_env, task_log):
    run = _run_with_driver_kill(dag_runner, "dq_driver_killed", cluster_env)
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    assert "the Spark validation job failed (driver or spark-submit ended abnormally" in log
    assert "Error code is: -9" in log  # spark-submit died of the SIGKILL
    assert "DataQualityInfrastructureError" in log  # the retryable kind (an AirflowException, not a Fail one)
    assert xcom_value(run, "dq") is None            # nothing pushed, nothing reported as pass
    assert not list(cluster_env["shared"].glob("dq_driver_killed/**/result.json"))


def test_a_retry_after_the_driver_was_killed_produces_and_reads_its_own_fresh_result(
        dag_runner, cluster_env, task_log):
    run = _run_with_driver_kill(dag_runner, "dq_retry_after_kill", cluster_env)
    log = task_log()
    assert "the Spark validation job failed" in log  # try 1
    assert task_states(run) == {"dq": "success"}
    assert _ti(run).try_number == 2
    summary = xcom_value(run, "dq")
    assert summary["run_id"].endswith(".2") and summary["outcome"] == "pass"
    location = pathlib.Path(summary["result_location"])
    # <result_uri>/<dag>/<task>/<run>/try-<n>/result.json on the shared location
    assert location.relative_to(cluster_env["shared"]).parts[:2] == ("dq_retry_after_kill", "dq")
    assert location.parts[-2:] == ("try-2", "result.json")
    assert not (location.parent.parent / "try-1" / "result.json").exists()  # try 1 never wrote one
    leftovers = [p.name for p in location.parent.iterdir() if p.name.startswith(".") or p.suffix in (".crc", ".tmp")]
    assert leftovers == []  # the atomic write left no temporary or checksum files
    document = json.loads(location.read_text())
    assert document["run_id"] == summary["run_id"]
    engine = document["engine"]
    conf = engine["conf"]
    assert conf["spark.executor.memory"] == "600m"          # operator submit_kwargs
    assert conf["spark.sql.shuffle.partitions"] == "3"      # operator conf
    assert conf["spark.cores.max"] == "1"                   # connection extra conf
    assert {"AIRFLOW_DQ_TEST_FROM_CONN", "AIRFLOW_DQ_TEST_FROM_OPERATOR"} <= set(engine["env_names"])
    apps = {a["id"]: a for a in _master_state(cluster_env["cluster"])["completedapps"]}
    assert apps[engine["application_id"]]["memoryperexecutor"] == 600


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
