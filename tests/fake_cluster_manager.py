"""The outside of a YARN / Kubernetes cluster, emulated on 127.0.0.1 for cluster-deploy-mode tests.

Neither YARN nor Kubernetes can run here, so only what the Spark provider's hook talks to is faked:

* ``spark-submit``: an executable put first on PATH. It records its arguments, prints what the real one prints in
  YARN / Kubernetes cluster mode (application id, driver pod name, ...) and exits with a chosen code. It can also
  *be the cluster*: run the submitted application for real with the pyspark package's spark-submit on a local
  master (``run_driver``), so the driver writes its result document the way a remote driver would;
* :class:`FakeClusterManager`: an ``http.server`` thread answering the YARN ResourceManager REST API
  (``GET /ws/v1/cluster/apps/<id>``, ``PUT .../state``) and the Kubernetes pod API
  (``GET /api/v1/namespaces/<ns>/pods/<name>``) from scripted state sequences (the last state repeats);
* :class:`FakeKubeClient`: stands in for ``airflow.providers.cncf.kubernetes.kube_client`` (that provider is not
  installed here): ``read_namespaced_pod`` is a real HTTP GET against the fake API server.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import types
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

YARN_APP_ID = "application_1763800000000_0042"
K8S_POD = "airflow-dq-dq-7f3a9c0d1e2b4a56-driver"
K8S_APP_ID = "spark-4b1e0f7a9c2d4e6f8a0b1c2d3e4f5a6b"


def yarn_submit_lines(app_id: str = YARN_APP_ID) -> list[str]:
    """What spark-submit prints in YARN cluster mode with ``spark.yarn.submit.waitAppCompletion=false``."""
    return [
        "25/11/23 10:00:01 INFO Client: Requesting a new application from cluster with 4 NodeManagers",
        f"25/11/23 10:00:02 INFO Client: Submitting application {app_id} to ResourceManager",
        f"25/11/23 10:00:02 INFO YarnClientImpl: Submitted application {app_id}",
        f"25/11/23 10:00:03 INFO Client: Application report for {app_id} (state: ACCEPTED)",
        "25/11/23 10:00:03 INFO ShutdownHookManager: Shutdown hook called",
    ]


def k8s_submit_lines(pod: str = K8S_POD, app_id: str = K8S_APP_ID, *, namespace: str = "dq",
                     exit_code: int | None = None) -> list[str]:
    """What spark-submit prints in Kubernetes cluster mode; with ``exit_code`` also the end of a waited-for app."""
    lines = [
        "25/11/23 10:00:01 INFO KerberosConfDriverFeatureStep: You have not specified a krb5.conf file locally.",
        "25/11/23 10:00:02 INFO LoggingPodStatusWatcherImpl: State changed, new state:",
        f"\t pod name: {pod}",
        f"\t namespace: {namespace}",
        f"\t labels: spark-app-name -> airflow-dq-dq, spark-app-selector -> {app_id}, spark-role -> driver",
        "\t phase: Pending",
        f"25/11/23 10:00:02 INFO LoggingPodStatusWatcherImpl: Deployed Spark application airflow-dq-dq with "
        f"application ID {app_id} and submission ID {namespace}:{pod} into Kubernetes",
    ]
    if exit_code is not None:
        lines += [
            f"25/11/23 10:01:30 INFO LoggingPodStatusWatcherImpl: Application status for {app_id} "
            f"(phase: {'Succeeded' if exit_code == 0 else 'Failed'})",
            "25/11/23 10:01:30 INFO LoggingPodStatusWatcherImpl: Container final statuses:",
            "\t container name: spark-kubernetes-driver",
            "\t container state: terminated",
            f"\t exit code: {exit_code}",
            f"\t termination reason: {'Completed' if exit_code == 0 else 'Error'}",
        ]
    return lines


_FAKE_SPARK_SUBMIT = '''#!{python}
"""A fake spark-submit (tests/fake_cluster_manager.py): records, optionally runs the driver locally, prints."""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
with open(os.path.join(here, "calls.jsonl"), "a") as fh:
    fh.write(json.dumps(args) + "\\n")
with open(os.path.join(here, "behaviour.json")) as fh:
    behaviour = json.load(fh)
if behaviour.get("run_driver"):
    # the "cluster" runs the driver: the same application and arguments, on a local master in client mode
    local = []
    for i, arg in enumerate(args):
        prev = args[i - 1] if i else ""
        if prev == "--master":
            arg = "local[1]"
        elif prev == "--deploy-mode":
            arg = "client"
        elif prev == "--conf" and arg.startswith(("spark.yarn.", "spark.kubernetes.")):
            local.pop()
            continue
        local.append(arg)
    local = ["--conf", "spark.ui.enabled=false"] + local
    with open(os.path.join(here, "driver.log"), "w") as log:
        code = subprocess.run([behaviour["real_spark_submit"], *local], stdout=log, stderr=subprocess.STDOUT).returncode
    with open(os.path.join(here, "driver.rc"), "w") as fh:
        fh.write(str(code))
for line in behaviour.get("lines", []):
    print(line, flush=True)
sys.exit(behaviour.get("exit", 0))
'''


class FakeSparkSubmit:
    """A ``spark-submit`` first on PATH (via monkeypatch); ``configure`` says what the next call does."""

    def __init__(self, directory: Path, monkeypatch):
        import pyspark

        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.real = str(Path(pyspark.__file__).resolve().parent / "bin" / "spark-submit")
        script = self.dir / "spark-submit"
        script.write_text(_FAKE_SPARK_SUBMIT.format(python=sys.executable))
        script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{self.dir}{os.pathsep}{os.environ.get('PATH', '')}")
        self.configure([])

    def configure(self, lines: list[str], *, exit: int = 0, run_driver: bool = False) -> None:
        (self.dir / "behaviour.json").write_text(json.dumps(
            {"lines": lines, "exit": exit, "run_driver": run_driver, "real_spark_submit": self.real}))

    @property
    def calls(self) -> list[list[str]]:
        path = self.dir / "calls.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def driver_log(self) -> str:
        path = self.dir / "driver.log"
        return path.read_text(errors="replace") if path.exists() else ""


def option(argv: list[str], name: str) -> str | None:
    """The value after ``name`` in a command line."""
    return argv[argv.index(name) + 1] if name in argv else None


def confs(argv: list[str]) -> dict[str, str]:
    return dict(argv[i + 1].split("=", 1) for i, a in enumerate(argv) if a == "--conf")


class FakeClusterManager:
    """YARN ResourceManager + Kubernetes pod API on 127.0.0.1, from scripted states; records every request."""

    def __init__(self):
        self.yarn: dict[str, list[tuple[str, str, str]]] = {}  # app id → [(state, finalStatus, diagnostics)]
        self.pods: dict[tuple[str, str], list[dict | None]] = {}  # (namespace, pod) → [pod status | None (404)]
        self.requests: list[tuple[str, str]] = []
        manager = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output clean
                pass

            def _reply(self, code: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                manager.requests.append(("GET", self.path))
                yarn = re.fullmatch(r"/ws/v1/cluster/apps/([^/]+)", self.path)
                pod = re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)", self.path)
                if yarn and yarn.group(1) in manager.yarn:
                    state, final, diagnostics = manager._next(manager.yarn[yarn.group(1)])
                    return self._reply(200, {"app": {"id": yarn.group(1), "state": state, "finalStatus": final,
                                                     "diagnostics": diagnostics}})
                if pod and (pod.group(1), pod.group(2)) in manager.pods:
                    status = manager._next(manager.pods[(pod.group(1), pod.group(2))])
                    if status is not None:
                        return self._reply(200, {"kind": "Pod", "metadata": {"name": pod.group(2)},
                                                 "status": status})
                return self._reply(404, {"kind": "Status", "code": 404, "message": f"{self.path} not found"})

            def do_PUT(self):
                length = int(self.headers.get("Content-Length") or 0)
                manager.requests.append(("PUT", self.path, self.rfile.read(length).decode()))
                return self._reply(200, {"state": "KILLED"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @staticmethod
    def _next(sequence: list):
        return sequence.pop(0) if len(sequence) > 1 else sequence[0]

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def gets(self, fragment: str) -> int:
        return sum(1 for r in self.requests if r[0] == "GET" and fragment in r[1])

    def __enter__(self) -> "FakeClusterManager":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def pod_status(phase: str, exit_code: int | None = None, reason: str | None = None) -> dict:
    status: dict = {"phase": phase, "containerStatuses": None}
    if exit_code is not None:
        status["containerStatuses"] = [{"name": "spark-kubernetes-driver",
                                        "state": {"terminated": {
                                            "exitCode": exit_code, "reason": reason,
                                            "startedAt": "2026-11-23T10:00:05Z",
                                            "finishedAt": "2026-11-23T10:01:30Z"}}}]
    return status


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _objects(value):
    """Kubernetes JSON → attribute objects with snake_case names, like the kubernetes client's models."""
    if isinstance(value, dict):
        return types.SimpleNamespace(**{_snake(k): _objects(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_objects(v) for v in value]
    return value


class FakeKubeClient:
    """Stands in for ``airflow.providers.cncf.kubernetes.kube_client``: the module and its CoreV1Api in one."""

    class ApiException(Exception):
        def __init__(self, status: int, reason: str = ""):
            super().__init__(f"({status}) {reason}")
            self.status = status

    def __init__(self, base_url: str):
        self.base_url = base_url

    def get_kube_client(self, *args, **kwargs) -> "FakeKubeClient":
        return self

    def read_namespaced_pod(self, name: str, namespace: str):
        url = f"{self.base_url}/api/v1/namespaces/{namespace}/pods/{name}"
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:
                return _objects(json.load(resp))
        except urllib.error.HTTPError as exc:
            raise self.ApiException(exc.code, exc.reason) from None

    def delete_namespaced_pod(self, name: str, namespace: str, **kwargs) -> None:
        pass  # the provider deletes a finished driver pod (best effort; it imports kubernetes, absent here)
