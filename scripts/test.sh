#!/usr/bin/env bash
# Sets up .venv if needed, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
exec python -m pytest "$@"
