"""Test DAGs run against a real Spark standalone cluster (tests/test_cluster*.py, tests/test_faults*.py) or a fake
YARN (tests/test_cluster_deploy_mode.py). The example DAG itself runs on the cluster too (dags_example/example_dq.py).

The cluster's master URL reaches them through the ``spark_cluster`` connection (AIRFLOW_CONN_SPARK_CLUSTER, set by
the test module's fixture) and the shared result location through the Airflow Variable ``dq_result_uri``
(AIRFLOW_VAR_DQ_RESULT_URI): ``result_uri`` is a template. Cheap to import: nothing here touches Spark.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "dags_example"
START = pendulum.datetime(2026, 11, 1, tz="UTC")
RESULT_URI = "{{ var.value.get('dq_result_uri', '') }}"
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
SMALL_SPEC = {"version": 1, "assertions": [
    {"entity": ENTITY, "name": "rows_ok", "type": "volume", "condition": {"type": "equal_to", "value": 1000}},
    {"entity": ENTITY, "name": "id_not_null", "type": "field", "field": "id", "condition": {"type": "is_not_null"}},
]}
SOURCES = {"shop.purchase_events": str(EXAMPLE / "data" / "purchase_events.csv")}


def _dag(dag_id: str, *, spec=SMALL_SPEC, retries: int = 0, **op_kwargs) -> DAG:
    with DAG(dag_id=dag_id, schedule=None, start_date=START, tags=["airflow-dq-tests", "cluster"]) as dag:
        DataQualityOperator(task_id="dq", spec=spec, sources=SOURCES, result_uri=RESULT_URI, retries=retries,
                            retry_delay=timedelta(seconds=0), **op_kwargs)
    return dag


# Python apps cannot run in cluster deploy mode on a standalone master: refused before spark-submit, not retried.
cluster_deploy_mode = _dag("dq_cluster_deploy_mode", conn_id="spark_cluster", retries=2,
                           submit_kwargs={"deploy_mode": "cluster"})

# A master nobody listens on: a retryable failure within the connect timeout.
master_unreachable = _dag("dq_master_unreachable", conn_id="spark_dead", retries=1,
                          submit_kwargs={"master_connect_timeout": 3})

# The driver is killed mid-run by the test. What holds the job long enough is real work, not a test hook: a custom
# SQL assertion whose query sleeps on an executor for 2 minutes in try 1 (reflect() calls Thread.sleep; the spec is
# templated, so a retry does not sleep). It passes when it completes (0 * length('null') = 0).
HOLD = {"entity": ENTITY, "name": "slow_query_in_try_1", "type": "sql",
        "statement": "SELECT 0 * length(reflect('java.lang.Thread', 'sleep', "
                     "cast({{ 120000 if ti.try_number == 1 else 0 }} as bigint)))",
        "condition": {"type": "equal_to", "value": 0}}
HOLD_SPEC = {**SMALL_SPEC, "assertions": [*SMALL_SPEC["assertions"], HOLD]}
driver_killed = _dag("dq_driver_killed", spec=HOLD_SPEC, conn_id="spark_cluster")
# ... and retried: Spark settings from the operator (conf, executor memory, env) on top of the connection's extra.
retry_after_kill = _dag(
    "dq_retry_after_kill", spec=HOLD_SPEC, conn_id="spark_cluster", retries=1,
    conf={"spark.sql.shuffle.partitions": "3"},
    submit_kwargs={"executor_memory": "600m", "env_vars": {"AIRFLOW_DQ_TEST_FROM_OPERATOR": "1"}})

# Cluster deploy mode on YARN against a fake ResourceManager and a fake spark-submit (tests/fake_cluster_manager.py,
# tests/test_cluster_deploy_mode.py): the ``spark_yarn`` connection names the RM; the provider's RM API tracking.
yarn_cluster_mode = _dag("dq_yarn_cluster_mode", conn_id="spark_yarn",
                         submit_kwargs={"yarn_track_via_rm_api": True, "env_vars": {"AIRFLOW_DQ_ON_YARN": "1"}})
yarn_driver_failed = _dag("dq_yarn_driver_failed", conn_id="spark_yarn", retries=1,
                          submit_kwargs={"yarn_track_via_rm_api": True})
