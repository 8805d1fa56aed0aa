"""Example: validate the bundled purchase_events sample on Spark.

The master comes from the ``spark_default`` connection, e.g. a standalone cluster in client deploy mode::

    export AIRFLOW_CONN_SPARK_DEFAULT='{"conn_type": "spark", "host": "spark://spark-master", "port": 7077,
                                        "extra": {"deploy-mode": "client"}}'

Without that connection the job runs on embedded local Spark (``local[*]``), as ``scripts/example.sh`` does.

Run it directly (``python dags_example/example_dq.py``) to execute the DAG once with ``dag.test()`` and print
the results; or drop this folder into your dags folder.
"""

from __future__ import annotations

from pathlib import Path

import pendulum
from airflow.sdk import DAG, task

from airflow_dq.operators.data_quality import DataQualityOperator

HERE = Path(__file__).resolve().parent

with DAG(
    dag_id="airflow_dq_example",
    schedule=None,
    start_date=pendulum.datetime(2026, 11, 1, tz="UTC"),
    catchup=False,
    tags=["airflow-dq", "example"],
) as dag:
    validate = DataQualityOperator(
        task_id="validate_purchase_events",
        spec=str(HERE / "specs" / "purchase_events.yml"),
        sources={"shop.purchase_events": str(HERE / "data" / "purchase_events.csv")},
        # the slice of data this run validates (ANDed into every assertion; reported as the OpenLineage subset)
        filters={"shop.purchase_events": "updated_at >= '2026-11-01'"},
        # the master: the spark_default connection's (see above); when it does not exist, embedded local[*].
        # (Airflow's `connections create-default-connections` makes one pointing at yarn: edit or delete it.)
        conn_id="spark_default",
    )

    @task
    def report(summary: dict) -> str:
        line = f"outcome={summary['outcome']} by_status={summary['by_status']}"
        print(line)
        return line

    report(validate.output)


if __name__ == "__main__":
    from airflow_dq.core.results import RunResult
    from airflow_dq.operators.data_quality import default_result_dir
    from airflow_dq.summary import results_table

    run = dag.test()
    states = {ti.task_id: ti.state for ti in run.get_task_instances()}
    print("\n=== airflow-dq example run ===")
    print(f"dag run state: {run.state}; task states: {states}")
    results = sorted((Path(default_result_dir()) / dag.dag_id / "validate_purchase_events").rglob("result.json"),
                     key=lambda p: p.stat().st_mtime)
    if results:
        print(results_table(RunResult.from_json(results[-1].read_text())))
        print(f"\nresult document: {results[-1]}")
    raise SystemExit(0 if str(run.state) in ("success", "DagRunState.SUCCESS") else 1)
