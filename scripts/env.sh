# Sourced by the scripts: environment for Airflow and Spark on this machine (see README "Environment").
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$ROOT/.venv/bin:$PATH"
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}
export PYSPARK_PYTHON=${PYSPARK_PYTHON:-$ROOT/.venv/bin/python}
export AIRFLOW__CORE__LOAD_EXAMPLES=False
export PYTHONUNBUFFERED=1
