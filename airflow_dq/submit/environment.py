"""Spark settings that make the embedded local master work out of the box."""

from __future__ import annotations

import os
import shutil
import sys

DEFAULT_MASTER = "local[*]"
LOCAL_CONF = {"spark.ui.showConsoleProgress": "false"}


def is_local(master: str) -> bool:
    return master.startswith("local")


def local_env(master: str) -> dict[str, str]:
    """Environment for spark-submit on a local master: loopback binding, the current interpreter."""
    if not is_local(master):
        return {}
    env = {}
    if not os.environ.get("SPARK_LOCAL_IP"):
        env["SPARK_LOCAL_IP"] = "127.0.0.1"
    if not os.environ.get("PYSPARK_PYTHON"):
        env["PYSPARK_PYTHON"] = sys.executable
    return env


def spark_submit_binary() -> str:
    """``spark-submit`` from PATH, else the one shipped inside the installed pyspark package."""
    found = shutil.which("spark-submit")
    if found:
        return found
    import pyspark  # the Airflow side has pyspark installed; only its launcher script is used here

    candidate = os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit")
    if os.path.exists(candidate):
        return candidate
    raise FileNotFoundError("spark-submit not found on PATH nor in the installed pyspark package")
