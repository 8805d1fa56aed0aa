"""Test DAGs run against a real Spark standalone cluster (tests/test_cluster*.py, tests/test_faults*.py).

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


# The example DAG's spec and data, on the standalone cluster in client deploy mode, with Spark settings from the
# operator (conf, executor memory) on top of the connection's extra (conf, env_vars).
cluster_example = _dag(
    "dq_cluster_example", spec=str(EXAMPLE / "specs" / "purchase_events.yml"), conn_id="spark_cluster",
    conf={"spark.sql.shuffle.partitions": "3"},
    submit_kwargs={"executor_memory": "600m", "env_vars": {"AIRFLOW_DQ_TEST_FROM_OPERATOR": "1"}})

# Python apps cannot run in cluster deploy mode on a standalone master: refused before spark-submit, not retried.
cluster_deploy_mode = _dag("dq_cluster_deploy_mode", conn_id="spark_cluster", retries=2,
                           submit_kwargs={"deploy_mode": "cluster"})

# A master nobody listens on: a retryable failure within the connect timeout.
master_unreachable = _dag("dq_master_unreachable", conn_id="spark_dead", retries=1,
                          submit_kwargs={"master_connect_timeout": 3})

# The driver is killed mid-run by the test (the job holds before writing its result; see engine/job.py).
driver_killed = _dag("dq_driver_killed", conn_id="spark_cluster")
retry_after_kill = _dag("dq_retry_after_kill", conn_id="spark_cluster", retries=1)
