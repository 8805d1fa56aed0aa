"""Run the packaged engine through a spark-submit subprocess (the CLI's path; Airflow uses the Spark hook)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

from airflow_dq.submit.environment import LOCAL_CONF, local_env, spark_submit_binary
from airflow_dq.submit.package import build_engine_package


@dataclass
class SubmitOutcome:
    returncode: int
    log_path: str
    command: list[str]

    def log_tail(self, lines: int = 30) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as fh:
                return "".join(fh.readlines()[-lines:])
        except OSError:
            return ""


def submit_engine(plan_path: str, result_location: str, master: str, workdir: str,
                  conf: dict | None = None, name: str = "airflow-dq", *, plan_args: list[str] | None = None,
                  files: str | None = None, env: dict | None = None) -> SubmitOutcome:
    """Run the engine; ``plan_args`` replace ``--plan PLAN_PATH`` (e.g. ``--plan-file NAME`` with ``files``)."""
    package = build_engine_package()
    settings = {**LOCAL_CONF, **(conf or {})} if master.startswith("local") else dict(conf or {})
    cmd = [spark_submit_binary(), "--master", master, "--name", name, "--py-files", package.zip_path]
    if files:
        cmd += ["--files", files]
    for key, value in settings.items():
        cmd += ["--conf", f"{key}={value}"]
    cmd += [package.launcher_path, *(plan_args or ["--plan", plan_path]), "--out", result_location]
    env = {**os.environ, **local_env(master), **(env or {})}
    log_path = os.path.join(workdir, "spark-submit.log")
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, check=False)
    return SubmitOutcome(proc.returncode, log_path, cmd)
