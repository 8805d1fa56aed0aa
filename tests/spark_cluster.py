"""A real Spark standalone cluster (one master, one worker) on 127.0.0.1, from the installed pyspark package.

The pip package has no start-master.sh/start-worker.sh, so both JVMs are started with ``bin/spark-class`` in the
foreground (spark-class execs java, so the Popen PID is the JVM's), readiness is "the worker log says it
registered", and both are stopped by PID (SIGTERM, then SIGKILL). See ../shared/notes/ENVIRONMENT.md.

Usage in a test module (one cluster per module, it costs CPU)::

    from tests.spark_cluster import standalone_cluster_fixture
    cluster = standalone_cluster_fixture()
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HOST = "127.0.0.1"


def _pyspark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def port_free(port: int, host: str = HOST) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(preferred: int | None = None) -> int:
    if preferred and port_free(preferred):
        return preferred
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _wait_for(predicate, timeout: float, what: str, logs: list[Path]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    tails = "\n".join(f"--- {p.name}\n" + "".join(p.read_text(errors="replace").splitlines(True)[-20:])
                      for p in logs if p.exists())
    raise RuntimeError(f"Spark standalone cluster: {what} within {timeout:.0f}s\n{tails}")


@dataclass
class StandaloneCluster:
    """A running master + worker. ``master_url`` is ``spark://127.0.0.1:<port>``."""

    workdir: Path
    port: int = 7077
    webui_port: int = 18080
    worker_webui_port: int = 18081
    rest_port: int = 6066
    cores: int = 1
    memory: str = "2g"
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def master_url(self) -> str:
        return f"spark://{HOST}:{self.port}"

    @property
    def master_log(self) -> Path:
        return self.workdir / "master.log"

    @property
    def worker_log(self) -> Path:
        return self.workdir / "worker.log"

    def _spawn(self, name: str, args: list[str], log: Path) -> subprocess.Popen:
        env = {**os.environ, "SPARK_LOCAL_IP": HOST, "SPARK_NO_DAEMONIZE": "1",
               "SPARK_DAEMON_MEMORY": "512m", "SPARK_LOG_DIR": str(self.workdir)}
        with open(log, "w") as fh:  # the child keeps its own descriptor
            proc = subprocess.Popen([str(_pyspark_home() / "bin" / "spark-class"), *args], stdout=fh,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                    cwd=self.workdir, start_new_session=True)
        self.processes[name] = proc
        return proc

    def start(self, timeout: float = 60) -> "StandaloneCluster":
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "work").mkdir(exist_ok=True)
        master = self._spawn("master", [
            "org.apache.spark.deploy.master.Master", "--host", HOST, "--port", str(self.port),
            "--webui-port", str(self.webui_port),
            # the REST submission server: where the provider's hook asks about drivers in cluster mode
            "--properties-file", str(self._master_properties()),
        ], self.master_log)
        try:
            _wait_for(lambda: master.poll() is not None or not port_free(self.port),
                      timeout, "the master did not listen", [self.master_log])
            if master.poll() is not None:
                raise RuntimeError(f"the Spark master exited ({master.returncode}):\n"
                                   + self.master_log.read_text(errors="replace")[-3000:])
            worker = self._spawn("worker", [
                "org.apache.spark.deploy.worker.Worker", self.master_url, "--host", HOST,
                "--cores", str(self.cores), "--memory", self.memory,
                "--webui-port", str(self.worker_webui_port), "--work-dir", str(self.workdir / "work"),
            ], self.worker_log)
            _wait_for(lambda: worker.poll() is not None
                      or "Successfully registered with master" in self.worker_log.read_text(errors="replace"),
                      timeout, "the worker did not register", [self.master_log, self.worker_log])
            if worker.poll() is not None:
                raise RuntimeError(f"the Spark worker exited ({worker.returncode}):\n"
                                   + self.worker_log.read_text(errors="replace")[-3000:])
        except BaseException:
            self.stop()
            raise
        return self

    def _master_properties(self) -> Path:
        path = self.workdir / "master.properties"
        path.write_text(f"spark.master.rest.enabled true\nspark.master.rest.port {self.rest_port}\n"
                        f"spark.master.rest.host {HOST}\nspark.ui.showConsoleProgress false\n")
        return path

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.processes.values()) and len(self.processes) == 2

    def stop(self, grace: float = 15) -> None:
        """Stop the worker, then the master: SIGTERM to each PID, SIGKILL after ``grace`` seconds."""
        for name in ("worker", "master"):
            proc = self.processes.get(name)
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        # executors/drivers the worker launched run in its process group only when it spawned them itself;
        # anything of ours still around under the work dir is killed by PID as well
        for pid in _pids_under(self.workdir):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _pids_under(workdir: Path) -> list[int]:
    """PIDs of processes whose command line mentions ``workdir`` (executors the worker started)."""
    import psutil

    me = os.getpid()
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            cmd = " ".join(proc.info["cmdline"] or [])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if proc.info["pid"] != me and str(workdir) in cmd:
            found.append(proc.info["pid"])
    return found


def start_cluster(base: Path | None = None, **kwargs) -> StandaloneCluster:
    base = base or Path(tempfile.mkdtemp(prefix="airflow_dq_spark_cluster_"))
    ports = {
        "port": free_port(7077),
        "webui_port": free_port(18080),
        "worker_webui_port": free_port(18081),
        "rest_port": free_port(6066),
    }
    return StandaloneCluster(workdir=base, **ports, **kwargs).start()


def standalone_cluster_fixture(scope: str = "module", **kwargs):
    """A pytest fixture starting one cluster for the scope and stopping it by PID afterwards."""

    @pytest.fixture(scope=scope)
    def cluster():
        running = start_cluster(**kwargs)
        try:
            yield running
        finally:
            running.stop()

    return cluster
