"""Start spark-submit detached from the task process, for deferrable checks (the worker slot is released).

The command and environment come from the provider's SparkSubmitHook (through DataQualityOperator._make_hook),
so connection, master, deploy mode and conf behave exactly as in the blocking operator. The launched process is
re-parented (double fork through ``sh``) so it is reaped when it ends, and its output goes to a log file next to
the plan, whose tail the trigger reports if the job dies without a result.
"""

from __future__ import annotations

import os
import socket
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Launched:
    pid: int
    host: str
    log_path: str
    command: list[str]


def launch_detached(command: list[str], env: dict[str, str] | None, log_path: str) -> Launched:
    os.makedirs(os.path.dirname(log_path) or ".", exist_ok=True)
    script = 'exec "$@" > "$DQ_LOG" 2>&1 < /dev/null &\necho $!'
    proc = subprocess.run(["/bin/sh", "-c", script, "airflow-dq-launch", *command], capture_output=True,
                          text=True, env={**os.environ, **(env or {}), "DQ_LOG": log_path}, timeout=60,
                          start_new_session=True)
    if proc.returncode != 0 or not proc.stdout.strip().isdigit():
        raise OSError(f"could not start spark-submit in the background: {proc.stderr.strip() or proc.stdout!r}")
    return Launched(pid=int(proc.stdout.strip()), host=socket.gethostname(), log_path=log_path, command=command)


def process_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def log_tail(path: str | None, lines: int = 15) -> str:
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return "".join(fh.readlines()[-lines:])
    except OSError:
        return ""
