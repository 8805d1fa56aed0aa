#!/usr/bin/env bash
# The benchmark command (see docs/benchmarks.md): benchmarks/run.sh [--scale 0.5] [--reps 5] [--legs ...]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
exec .venv/bin/python -m benchmarks.run "$@"
