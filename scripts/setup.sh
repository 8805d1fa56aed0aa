#!/usr/bin/env bash
# Idempotent set-up: a Python 3.11 virtualenv in .venv with airflow-dq and its pinned stack installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for cand in python3.11 python3; do
    if command -v "$cand" >/dev/null && "$cand" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then PY=$cand; break; fi
  done
fi
[ -n "$PY" ] || { echo "setup: Python 3.11 is required" >&2; exit 1; }
command -v java >/dev/null || { echo "setup: Java 17 (a JRE) is required for Spark" >&2; exit 1; }
stamp=.venv/.airflow-dq-installed
want=$(cat pyproject.toml constraints.txt | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
echo "setup: installing airflow-dq and its stack into .venv (first time takes a few minutes) ..." >&2
.venv/bin/python -m pip install -q -c constraints.txt -e '.[dev]' 2>&1 | grep -v "is ignored: it is neither" >&2 || true
.venv/bin/python -c 'import airflow_dq, pyspark, airflow.providers.apache.spark, openlineage.client' 
echo "$want" > "$stamp"
