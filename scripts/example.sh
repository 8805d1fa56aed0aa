#!/usr/bin/env bash
# Runs the example DAG once (dag.test()) and prints the results: on embedded local Spark, or on the master of
# the spark_default connection when one is defined (e.g. AIRFLOW_CONN_SPARK_DEFAULT).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
export AIRFLOW_HOME=${AIRFLOW_HOME:-$ROOT/.airflow}
export AIRFLOW__CORE__DAGS_FOLDER=$ROOT/dags_example
if [ -z "${AIRFLOW__OPENLINEAGE__TRANSPORT:-}" ]; then
  export AIRFLOW__OPENLINEAGE__TRANSPORT="{\"type\": \"file\", \"log_file_path\": \"$AIRFLOW_HOME/openlineage.jsonl\", \"append\": true}"
fi
mkdir -p "$AIRFLOW_HOME"
airflow db migrate >/dev/null
python dags_example/example_dq.py
