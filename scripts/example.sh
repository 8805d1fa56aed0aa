#!/usr/bin/env bash
# Runs the example DAG once (dag.test()) on embedded local Spark and prints the results.
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
