"""Cluster deploy mode on YARN and Kubernetes: DataQualitySparkSubmitHook.run follows the driver with the Spark
provider's tracking (ResourceManager REST API / Kubernetes pod API) and a driver that does not succeed is a
retryable infrastructure failure, never a pass.

YARN and Kubernetes cannot run here: only their outside is emulated (tests/fake_cluster_manager.py): a fake
``spark-submit`` first on PATH printing what the real one prints in cluster mode, and a local HTTP server answering
the ResourceManager and pod APIs. The provider's polling sleeps (10 s / 20 s minimum) are recorded, not slept.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.fake_cluster_manager import (K8S_APP_ID, K8S_POD, YARN_APP_ID, FakeClusterManager, FakeKubeClient,
                                        FakeSparkSubmit, confs, k8s_submit_lines, option, pod_status,
                                        yarn_submit_lines)

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "cluster_dags.py"
APP = "/opt/airflow-dq/launcher.py"
APP_ARGS = ["--plan-inline", "eJwDAAAAAAE=", "--out", "file:///shared/dq/try-1/result.json"]


class _Clock:
    """The provider module's ``time``: records the polling sleeps instead of sleeping."""

    def __init__(self):
        import time

        self._time = time
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def __getattr__(self, name):
        return getattr(self._time, name)


@pytest.fixture
def provider():
    from airflow.providers.apache.spark.hooks import spark_submit

    return spark_submit


@pytest.fixture
def clock(provider, monkeypatch):
    shim = _Clock()
    monkeypatch.setattr(provider, "time", shim)
    return shim


@pytest.fixture
def manager():
    with FakeClusterManager() as running:
        yield running


@pytest.fixture
def submit(tmp_path, monkeypatch):
    return FakeSparkSubmit(tmp_path / "fake-bin", monkeypatch)


@pytest.fixture
def kube(provider, manager, monkeypatch):
    fake = FakeKubeClient(manager.url)
    monkeypatch.setattr(provider, "kube_client", fake, raising=False)
    return fake


def _yarn_hook(manager, monkeypatch, **kwargs):
    from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook

    monkeypatch.setenv("AIRFLOW_CONN_SPARK_YARN_TEST", json.dumps({
        "conn_type": "spark", "host": "yarn",
        "extra": {"deploy-mode": "cluster", "yarn_resourcemanager_webapp_address": manager.url}}))
    kwargs.setdefault("yarn_track_via_rm_api", True)
    return DataQualitySparkSubmitHook(conn_id="spark_yarn_test", name="airflow-dq-dq",
                                      application_args=APP_ARGS, **kwargs)


def _k8s_hook(manager, monkeypatch, namespace: str | None = "dq", **kwargs):
    from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook

    extra = {"deploy-mode": "cluster", **({"namespace": namespace} if namespace else {})}
    monkeypatch.setenv("AIRFLOW_CONN_SPARK_K8S_TEST", json.dumps({
        "conn_type": "spark", "host": "k8s://https://127.0.0.1", "port": manager.port, "extra": extra}))
    kwargs.setdefault("track_driver_via_k8s_api", True)
    return DataQualitySparkSubmitHook(conn_id="spark_k8s_test", name="airflow-dq-dq",
                                      application_args=APP_ARGS, **kwargs)


# -- YARN: ResourceManager REST API tracking ---------------------------------------------------------------------
def test_yarn_driver_that_succeeds_is_followed_to_its_end(manager, submit, clock, monkeypatch):
    manager.yarn[YARN_APP_ID] = [("ACCEPTED", "UNDEFINED", ""), ("RUNNING", "UNDEFINED", ""),
                                 ("FINISHED", "SUCCEEDED", "")]
    submit.configure(yarn_submit_lines())
    hook = _yarn_hook(manager, monkeypatch, env_vars={"AIRFLOW_DQ_X": "1"}, conf={"spark.executor.memory": "2g"})
    hook.run(APP)
    [argv] = submit.calls
    assert option(argv, "--master") == "yarn" and option(argv, "--deploy-mode") == "cluster"
    assert argv[-5:] == [APP, *APP_ARGS]  # the application and its plan/result arguments, unchanged
    settings = confs(argv)
    assert settings["spark.yarn.submit.waitAppCompletion"] == "false"  # spark-submit returns, the RM API follows
    assert settings["spark.yarn.appMasterEnv.AIRFLOW_DQ_X"] == "1" and settings["spark.executor.memory"] == "2g"
    assert hook._yarn_application_id == YARN_APP_ID
    assert manager.gets(f"/ws/v1/cluster/apps/{YARN_APP_ID}") == 3  # polled until FINISHED/SUCCEEDED
    assert clock.sleeps == [10, 10]  # the provider's 10 s RM polling minimum


@pytest.mark.parametrize("state, final, diagnostics, expected", [
    ("FAILED", "FAILED", "AM container exited with exitCode: 137",
     rf"YARN application {YARN_APP_ID} ended with state: FAILED, final status: FAILED\nDiagnostics: AM container "
     r"exited with exitCode: 137"),
    ("KILLED", "KILLED", "Application killed by user.",
     rf"YARN application {YARN_APP_ID} ended with state: KILLED, final status: KILLED"),
    ("FINISHED", "FAILED", "User application exited with status 4",
     rf"YARN application {YARN_APP_ID} ended with final status: FAILED\nDiagnostics: User application exited "
     r"with status 4"),
])
def test_yarn_driver_that_fails_or_is_killed_raises_spark_driver_failed(manager, submit, clock, monkeypatch,
                                                                        state, final, diagnostics, expected):
    from airflow_dq.hooks.spark_submit import SparkDriverFailed

    manager.yarn[YARN_APP_ID] = [("RUNNING", "UNDEFINED", ""), (state, final, diagnostics)]
    submit.configure(yarn_submit_lines())
    hook = _yarn_hook(manager, monkeypatch)
    with pytest.raises(SparkDriverFailed, match="the Spark driver did not succeed on YARN: " + expected) as info:
        hook.run(APP)
    assert isinstance(info.value, RuntimeError)  # what the operator turns into DataQualityInfrastructureError
    assert manager.gets(YARN_APP_ID) == 2


def test_yarn_without_rm_tracking_relies_on_spark_submits_exit_code(manager, submit, clock, monkeypatch):
    from airflow.sdk.exceptions import AirflowException

    lines = yarn_submit_lines() + [
        f"25/11/23 10:05:00 INFO Client: Application report for {YARN_APP_ID} (state: FINISHED)",
        "\t final status: FAILED",
        f'Exception in thread "main" org.apache.spark.SparkException: Application {YARN_APP_ID} finished with '
        "failed status"]
    submit.configure(lines, exit=1)
    hook = _yarn_hook(manager, monkeypatch, yarn_track_via_rm_api=False)
    with pytest.raises(AirflowException, match=rf"(?s)Error code is: 1.*{YARN_APP_ID} finished with failed status"):
        hook.run(APP)
    assert "spark.yarn.submit.waitAppCompletion" not in confs(submit.calls[0])  # spark-submit waits itself
    assert manager.requests == [] and clock.sleeps == []


def test_yarn_rm_tracking_without_the_rm_address_is_a_configuration_error(monkeypatch):
    from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook, UnsupportedDeployMode

    monkeypatch.setenv("AIRFLOW_CONN_SPARK_YARN_NO_RM", json.dumps(
        {"conn_type": "spark", "host": "yarn", "extra": {"deploy-mode": "cluster"}}))
    with pytest.raises(UnsupportedDeployMode, match="requires the Spark connection's `extra` to set "
                                                    "`yarn_resourcemanager_webapp_address`"):
        DataQualitySparkSubmitHook(conn_id="spark_yarn_no_rm", yarn_track_via_rm_api=True)


# -- Kubernetes: pod API tracking --------------------------------------------------------------------------------
def test_k8s_driver_pod_that_succeeds_is_followed_to_its_end(manager, submit, kube, clock, monkeypatch):
    manager.pods[("dq", K8S_POD)] = [pod_status("Pending"), pod_status("Running"),
                                     pod_status("Succeeded", 0, "Completed")]
    submit.configure(k8s_submit_lines())
    hook = _k8s_hook(manager, monkeypatch, env_vars={"AIRFLOW_DQ_X": "1"})
    hook.run(APP)
    [argv] = submit.calls
    assert option(argv, "--master") == f"k8s://https://127.0.0.1:{manager.port}"
    assert option(argv, "--deploy-mode") == "cluster" and argv[-5:] == [APP, *APP_ARGS]
    settings = confs(argv)
    assert settings["spark.kubernetes.namespace"] == "dq"
    assert settings["spark.kubernetes.submission.waitAppCompletion"] == "false"
    assert settings["spark.kubernetes.driverEnv.AIRFLOW_DQ_X"] == "1"
    assert (hook._kubernetes_driver_pod, hook._kubernetes_application_id) == (K8S_POD, K8S_APP_ID)
    assert manager.gets(f"/api/v1/namespaces/dq/pods/{K8S_POD}") == 3
    assert clock.sleeps == [20, 20]  # the provider's 20 s pod polling minimum


def test_k8s_driver_pod_that_fails_raises_spark_driver_failed(manager, submit, kube, clock, monkeypatch):
    from airflow_dq.hooks.spark_submit import SparkDriverFailed

    manager.pods[("dq", K8S_POD)] = [pod_status("Running"), pod_status("Failed", 1, "Error")]
    submit.configure(k8s_submit_lines())
    with pytest.raises(SparkDriverFailed, match=rf"the Spark driver did not succeed on Kubernetes: Spark application "
                                                rf"{K8S_APP_ID} failed \(phase=Failed exit_code=1 reason=Error\)"):
        _k8s_hook(manager, monkeypatch).run(APP)


def test_k8s_driver_pod_that_vanishes_is_not_a_success(manager, submit, kube, clock, monkeypatch):
    from airflow_dq.hooks.spark_submit import SparkDriverFailed

    manager.pods[("dq", K8S_POD)] = [pod_status("Running"), None]  # then 404: deleted before it finished
    submit.configure(k8s_submit_lines())
    with pytest.raises(SparkDriverFailed, match=f"the Spark driver pod {K8S_POD} disappeared before it finished"):
        _k8s_hook(manager, monkeypatch).run(APP)


def test_k8s_tracking_without_a_driver_pod_name_is_not_a_success(manager, submit, kube, clock, monkeypatch):
    from airflow_dq.hooks.spark_submit import SparkDriverFailed

    submit.configure(["25/11/23 10:00:01 INFO ShutdownHookManager: Shutdown hook called"])
    with pytest.raises(SparkDriverFailed, match="spark-submit did not report the driver pod's name"):
        _k8s_hook(manager, monkeypatch).run(APP)
    assert manager.requests == []


@pytest.mark.parametrize("exit_code", [0, 1])
def test_k8s_without_api_tracking_uses_the_driver_exit_code_spark_submit_printed(manager, submit, kube, clock,
                                                                                 monkeypatch, exit_code):
    from airflow.sdk.exceptions import AirflowException

    submit.configure(k8s_submit_lines(exit_code=exit_code))  # spark-submit itself exits 0 either way
    hook = _k8s_hook(manager, monkeypatch, track_driver_via_k8s_api=False)
    if exit_code:
        with pytest.raises(AirflowException, match="Kubernetes spark exit code is: 1"):
            hook.run(APP)
    else:
        hook.run(APP)
    assert "spark.kubernetes.submission.waitAppCompletion" not in confs(submit.calls[0])
    assert manager.gets("/api/v1/") == 0


def test_k8s_configuration_errors_are_refused_before_submitting(manager, submit, kube, provider, monkeypatch):
    from airflow_dq.hooks.spark_submit import UnsupportedDeployMode

    with pytest.raises(UnsupportedDeployMode, match="cannot follow the Spark driver on k8s://.*requires a namespace"):
        _k8s_hook(manager, monkeypatch, namespace=None)
    monkeypatch.delattr(provider, "kube_client")  # as here without apache-airflow-providers-cncf-kubernetes
    with pytest.raises(UnsupportedDeployMode, match="install apache-airflow-providers-cncf-kubernetes"):
        _k8s_hook(manager, monkeypatch)
    assert submit.calls == []


# -- through the operator: the result comes back only when the driver succeeded -----------------------------------
@pytest.fixture
def yarn_dag_env(manager, submit, clock, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("AIRFLOW_CONN_SPARK_YARN", json.dumps({
        "conn_type": "spark", "host": "yarn",
        "extra": {"deploy-mode": "cluster", "yarn_resourcemanager_webapp_address": manager.url}}))
    monkeypatch.setenv("AIRFLOW_VAR_DQ_RESULT_URI", shared.as_uri())
    return shared


@pytest.mark.airflow
@pytest.mark.submit
def test_operator_reads_the_result_the_remote_driver_wrote_after_yarn_reports_success(
        dag_runner, manager, submit, yarn_dag_env, task_log):
    manager.yarn[YARN_APP_ID] = [("RUNNING", "UNDEFINED", ""), ("FINISHED", "SUCCEEDED", "")]
    submit.configure(yarn_submit_lines(), run_driver=True)  # the "cluster" runs the driver, then reports the app
    run = dag_runner(DAGS, "dq_yarn_cluster_mode")
    log = task_log()
    assert task_states(run) == {"dq": "success"}, log[-3000:] + submit.driver_log()[-3000:]
    [argv] = submit.calls
    assert option(argv, "--master") == "yarn" and option(argv, "--deploy-mode") == "cluster"
    assert "--plan-inline" in argv and "--plan" not in argv  # the plan travelled with the submission
    assert confs(argv)["spark.yarn.appMasterEnv.AIRFLOW_DQ_ON_YARN"] == "1"
    out = option(argv, "--out")
    assert out.startswith(yarn_dag_env.as_uri() + "/dq_yarn_cluster_mode/dq/") and out.endswith("/try-1/result.json")
    assert f"Identified spark application id: {YARN_APP_ID}" in log
    assert manager.gets(YARN_APP_ID) == 2  # the task waited for FINISHED/SUCCEEDED before reading
    summary = xcom_value(run, "dq")
    assert summary["outcome"] == "pass" and summary["total"] == 2 and summary["run_id"].endswith(".1")
    document = json.loads(pathlib.Path(summary["result_location"]).read_text())
    assert document["run_id"] == summary["run_id"]


@pytest.mark.airflow
def test_operator_fails_retryably_and_reports_nothing_when_the_yarn_driver_fails(
        dag_runner, manager, submit, yarn_dag_env, task_log):
    manager.yarn[YARN_APP_ID] = [("RUNNING", "UNDEFINED", ""),
                                 ("FAILED", "FAILED", "Container killed on request. Exit code is 143")]
    submit.configure(yarn_submit_lines())  # the driver never writes a result
    run = dag_runner(DAGS, "dq_yarn_driver_failed")
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    ti = next(ti for ti in run.get_task_instances() if ti.task_id == "dq")
    assert ti.try_number == 2 and len(submit.calls) == 2  # retryable: its one retry was used
    assert "DataQualityInfrastructureError" in log
    assert ("the Spark validation job failed (driver or spark-submit ended abnormally; no result is read or "
            f"reported): the Spark driver did not succeed on YARN: YARN application {YARN_APP_ID} ended with "
            "state: FAILED") in log
    assert xcom_value(run, "dq") is None
    assert not list(yarn_dag_env.rglob("result.json"))
