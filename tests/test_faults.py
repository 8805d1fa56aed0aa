"""Faults that must never look like passing data: an unreachable master, result documents that are missing,
truncated, empty or another run's; plus the pieces that keep a retry on its own fresh result (per-try locations,
clearing, atomic Hadoop-FS writes) and deploy-mode/plan-shipping decisions. No cluster needed here.
"""

from __future__ import annotations

import json
import pathlib
import time

import pytest

from airflow_dq.core.results import AssertionResult, RunResult
from tests.airflow_helpers import task_states, xcom_value
from tests.spark_cluster import free_port

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "cluster_dags.py"


def _document(run_id: str) -> str:
    result = RunResult(run_id=run_id, reference_time="2026-11-01T00:00:00+00:00",
                       started_at="2026-11-01T00:00:01+00:00", finished_at="2026-11-01T00:00:02+00:00",
                       results=[AssertionResult(assertion_id="a1", name="rows_ok", kind="volume", type="volume",
                                                entity="e", severity="error", status="pass", actual=1000)])
    return result.to_json()


@pytest.fixture
def location(tmp_path):
    from airflow_dq.hooks.result_store import result_location

    return result_location(tmp_path.as_uri(), "dag/task/run_1/try-1")


# -- result documents: refused unless whole and this run's ---------------------------------------------------------
def test_a_whole_document_of_this_run_is_read_through_object_storage(location):
    from airflow_dq.hooks.result_store import read_result

    path = pathlib.Path(location.display)
    path.parent.mkdir(parents=True)
    path.write_text(_document("dag.task.run_1.1"))
    result = read_result(location, expected_run_id="dag.task.run_1.1")
    assert result.run_id == "dag.task.run_1.1" and result.results[0].success


def test_a_missing_document_is_refused(location):
    from airflow_dq.hooks.result_store import ResultUnavailable, read_result

    with pytest.raises(ResultUnavailable, match="no result document at file://.*/try-1/result.json"):
        read_result(location, expected_run_id="dag.task.run_1.1")


@pytest.mark.parametrize("cut", [1, 2, 3])
def test_a_truncated_document_is_refused(location, cut):
    from airflow_dq.hooks.result_store import ResultUnavailable, read_result

    text = _document("dag.task.run_1.1")
    path = pathlib.Path(location.display)
    path.parent.mkdir(parents=True)
    path.write_text(text[: len(text) * cut // 4])
    with pytest.raises(ResultUnavailable, match=r"not valid JSON \(truncated\?\)"):
        read_result(location, expected_run_id="dag.task.run_1.1")


def test_an_empty_document_is_refused(location):
    from airflow_dq.hooks.result_store import ResultUnavailable, read_result

    path = pathlib.Path(location.display)
    path.parent.mkdir(parents=True)
    path.write_text("")
    with pytest.raises(ResultUnavailable, match="is empty"):
        read_result(location, expected_run_id="dag.task.run_1.1")


def test_another_runs_document_is_refused_even_when_it_passed(location):
    from airflow_dq.hooks.result_store import ResultUnavailable, read_result

    path = pathlib.Path(location.display)
    path.parent.mkdir(parents=True)
    path.write_text(_document("dag.task.run_1.1"))  # try 1's (passing) document
    with pytest.raises(ResultUnavailable,
                       match=r"belongs to run 'dag.task.run_1.1', not to this run 'dag.task.run_1.2'"):
        read_result(location, expected_run_id="dag.task.run_1.2")


def test_the_operator_turns_an_untrusted_document_into_a_retryable_infrastructure_failure(location):
    from airflow.sdk.exceptions import AirflowFailException

    from airflow_dq.operators.data_quality import DataQualityInfrastructureError, DataQualityOperator

    op = DataQualityOperator(task_id="dq", spec={"version": 1, "assertions": []}, sources={}, emit_assets=False)
    with pytest.raises(DataQualityInfrastructureError, match="left no usable result: no result document") as info:
        op.read_result(location, "dag.task.run_1.1")
    assert not isinstance(info.value, AirflowFailException)  # retries apply
    path = pathlib.Path(location.display)
    path.parent.mkdir(parents=True)
    path.write_text(_document("other.run.1")[:-40])
    with pytest.raises(DataQualityInfrastructureError, match="truncated"):
        op.read_result(location.spark_uri, "dag.task.run_1.1")  # a URI string works too


# -- per-try locations and clearing --------------------------------------------------------------------------------
def test_each_try_has_its_own_location_and_an_old_document_is_cleared_before_submitting(tmp_path):
    from airflow_dq.hooks.result_store import clear, result_location

    first = result_location(tmp_path.as_uri(), "dag/task/run_1/try-1")
    second = result_location(tmp_path.as_uri(), "dag/task/run_1/try-2")
    assert first.spark_uri != second.spark_uri and second.spark_uri.endswith("/try-2/result.json")
    path = pathlib.Path(second.display)
    path.parent.mkdir(parents=True)
    path.write_text(_document("stale"))
    clear(second)
    assert not path.exists()
    clear(second)  # nothing there: fine


def test_result_uris_map_from_hadoop_to_fsspec_names_with_the_reading_connection():
    from airflow_dq.hooks.result_store import result_location

    s3 = result_location("s3a://aws_dq@bucket/dq", "d/t/r/try-1")
    assert (s3.spark_uri, s3.reader_uri, s3.conn_id) == (
        "s3a://bucket/dq/d/t/r/try-1/result.json", "s3://bucket/dq/d/t/r/try-1/result.json", "aws_dq")
    azure = result_location("abfss://container@acct.dfs.core.windows.net/dq?conn_id=azure_dq", "d/t/r/try-1")
    assert azure.spark_uri == "abfss://container@acct.dfs.core.windows.net/dq/d/t/r/try-1/result.json"
    assert azure.reader_uri.startswith("abfs://container@acct.dfs.core.windows.net/") and azure.conn_id == "azure_dq"
    local = result_location("/tmp/dq-results", "d/t/r/try-1")
    assert local.spark_uri == "file:///tmp/dq-results/d/t/r/try-1/result.json"
    assert local.display == "/tmp/dq-results/d/t/r/try-1/result.json"


def test_a_result_location_this_worker_cannot_read_is_refused_before_submitting():
    from airflow_dq.hooks.result_store import ResultLocationError, check_readable, result_location

    with pytest.raises(ResultLocationError, match="Install gcsfs on the workers"):
        check_readable(result_location("gs://bucket/dq", "d/t/r/try-1"))


# -- the driver side: atomic writes through Hadoop's FileSystem ------------------------------------------------------
@pytest.mark.spark
def test_the_driver_writes_atomically_through_hadoop_fs_and_replaces_a_stale_document(spark, tmp_path):
    from airflow_dq.engine.result_io import read_text, write_text

    target = tmp_path / "a" / "b" / "result.json"
    uri = write_text(spark, target.as_uri(), "first")
    assert uri == target.as_uri() and target.read_text() == "first"
    write_text(spark, str(target), json.dumps({"second": True}))  # a bare path is the local FS, not the default FS
    assert json.loads(target.read_text()) == {"second": True}
    assert sorted(p.name for p in target.parent.iterdir()) == ["result.json"]  # no temp or .crc files remain
    assert read_text(spark, target.as_uri()) == json.dumps({"second": True})
    with pytest.raises(FileNotFoundError):
        read_text(spark, (tmp_path / "missing.json").as_uri())


# -- plan shipping and deploy modes -----------------------------------------------------------------------------------
def test_cluster_mode_ships_small_plans_inline_and_big_ones_as_files(tmp_path):
    from airflow_dq.engine.job import decode_inline_plan
    from airflow_dq.hooks.spark_submit import INLINE_PLAN_LIMIT, PLAN_FILE_NAME, plan_arguments

    small = tmp_path / "plan.json"
    small.write_text(json.dumps({"format": "airflow-dq/plan", "n": 1}))
    args, files = plan_arguments(str(small), "cluster")
    assert args[0] == "--plan-inline" and files is None
    assert decode_inline_plan(args[1]) == small.read_text()

    import random
    big = tmp_path / PLAN_FILE_NAME
    rng = random.Random(7)
    noise = "".join(rng.choice("abcdefghijklmnop0123456789") for _ in range(3 * INLINE_PLAN_LIMIT))
    big.write_text(json.dumps({"x": noise}))  # does not compress below the inline limit
    assert plan_arguments(str(big), "cluster") == (["--plan-file", PLAN_FILE_NAME], str(big))
    assert plan_arguments(str(big), None) == (["--plan", str(big)], None)


def test_an_invalid_inline_plan_exits_3_before_starting_spark(tmp_path, capsys):
    from airflow_dq.engine.job import EXIT_BAD_PLAN, main

    started = time.monotonic()
    assert main(["--plan-inline", "not-a-plan", "--out", str(tmp_path / "r.json")]) == EXIT_BAD_PLAN
    assert "airflow-dq: invalid plan: the inline plan is not valid" in capsys.readouterr().err
    assert time.monotonic() - started < 5 and not (tmp_path / "r.json").exists()


def test_standalone_cluster_deploy_mode_is_refused_but_yarn_cluster_mode_is_accepted(monkeypatch):
    from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook, UnsupportedDeployMode

    with pytest.raises(UnsupportedDeployMode, match="cannot run Python applications in cluster deploy mode"):
        DataQualitySparkSubmitHook(conn_id=None, master="spark://127.0.0.1:7077", deploy_mode="cluster")
    with pytest.raises(UnsupportedDeployMode, match="needs a cluster manager"):
        DataQualitySparkSubmitHook(conn_id=None, master="local[2]", deploy_mode="cluster")
    yarn = DataQualitySparkSubmitHook(conn_id=None, master="yarn", deploy_mode="cluster",
                                      env_vars={"A": "1"}, conf={"spark.executor.memory": "2g"})
    cmd = yarn._build_spark_submit_command("app.py")
    assert cmd[cmd.index("--deploy-mode") + 1] == "cluster"
    assert "spark.yarn.appMasterEnv.A=1" in cmd and "spark.executor.memory=2g" in cmd


def test_connection_extra_conf_and_env_pass_through_and_the_operators_win(monkeypatch):
    from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook

    monkeypatch.setenv("AIRFLOW_CONN_SPARK_EXTRA_TEST", json.dumps({
        "conn_type": "spark", "host": "spark://127.0.0.1", "port": 7077,
        "extra": {"deploy-mode": "client", "conf": {"spark.executor.memory": "1g", "spark.cores.max": "2"},
                  "env_vars": {"FROM_CONN": "c", "BOTH": "conn"}}}))
    hook = DataQualitySparkSubmitHook(conn_id="spark_extra_test", conf={"spark.executor.memory": "3g"},
                                      env_vars={"BOTH": "operator"}, packages="org.example:lib:1.0",
                                      executor_cores=2)
    assert hook.master == "spark://127.0.0.1:7077" and hook.deploy_mode == "client"
    assert hook.conf == {"spark.executor.memory": "3g", "spark.cores.max": "2"}
    assert hook.env_vars == {"FROM_CONN": "c", "BOTH": "operator"}
    cmd = hook._build_spark_submit_command("app.py")
    assert cmd[cmd.index("--packages") + 1] == "org.example:lib:1.0"
    assert cmd[cmd.index("--executor-cores") + 1] == "2"


# -- the master unreachable: a clear, bounded, retryable failure -----------------------------------------------------
def test_an_unreachable_master_is_reported_within_the_connect_timeout():
    from airflow_dq.hooks.spark_submit import SparkMasterUnreachable, check_master_reachable

    port = free_port()
    started = time.monotonic()
    with pytest.raises(SparkMasterUnreachable, match=rf"spark://127.0.0.1:{port} is unreachable: no connection "
                                                     r"within 2s \(127.0.0.1:\d+: Connection refused\)"):
        check_master_reachable(f"spark://127.0.0.1:{port}", timeout=2)
    assert 1.5 < time.monotonic() - started < 6


@pytest.mark.airflow
def test_a_dag_against_an_unreachable_master_fails_retryably_with_a_clear_message(dag_runner, monkeypatch, task_log):
    port = free_port()
    monkeypatch.setenv("AIRFLOW_CONN_SPARK_DEAD", json.dumps(
        {"conn_type": "spark", "host": "spark://127.0.0.1", "port": port, "extra": {"deploy-mode": "client"}}))
    started = time.monotonic()
    run = dag_runner(DAGS, "dq_master_unreachable")
    elapsed = time.monotonic() - started
    log = task_log()
    assert task_states(run) == {"dq": "failed"}
    ti = next(ti for ti in run.get_task_instances() if ti.task_id == "dq")
    assert ti.try_number == 2  # retryable: its one retry was used (and met the same dead master)
    assert f"the Spark validation job could not start: the Spark master spark://127.0.0.1:{port} is unreachable" in log
    assert "Spark-Submit cmd" not in log
    assert xcom_value(run, "dq") is None
    assert elapsed < 90, elapsed  # 2 tries x connect timeout 3s; the rest is dag.test overhead
