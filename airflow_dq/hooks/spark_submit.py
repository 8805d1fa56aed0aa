"""The Spark provider's SparkSubmitHook, with an embedded local master, deploy-mode checks and driver tracking."""

from __future__ import annotations

import base64
import os
import socket
import time
import zlib
from typing import Any
from urllib.parse import urlsplit

from airflow.providers.apache.spark.hooks.spark_submit import SparkSubmitHook

from airflow_dq.submit.environment import DEFAULT_MASTER, spark_submit_binary

# Plans up to this size (compressed, encoded) travel inline as an argument in cluster mode; larger ones as --files.
INLINE_PLAN_LIMIT = 64 * 1024
PLAN_FILE_NAME = "airflow_dq_plan.json"

STANDALONE_PYTHON_CLUSTER_MODE = (
    "Spark standalone masters ({master}) cannot run Python applications in cluster deploy mode (Spark itself "
    "refuses: 'Cluster deploy mode is currently not supported for python applications on standalone clusters'). "
    "Use deploy mode 'client' (the driver runs on the Airflow worker, the executors on the cluster), or a YARN or "
    "Kubernetes master for cluster mode."
)


KUBERNETES_PROVIDER_MISSING = (
    "the Spark master {master} is Kubernetes: install apache-airflow-providers-cncf-kubernetes on the Airflow "
    "workers (the Spark provider needs its Kubernetes client to submit to and follow the driver pod)"
)


def _provider_kube_client():
    """The Kubernetes client module the Spark provider uses (None when cncf.kubernetes is not installed)."""
    from airflow.providers.apache.spark.hooks import spark_submit as provider

    return getattr(provider, "kube_client", None)


class UnsupportedDeployMode(ValueError):
    """The master cannot run the validation job in the requested deploy mode: a configuration error."""


class SparkMasterUnreachable(ConnectionError):
    """No master address accepted a TCP connection within the timeout."""


class SparkDriverFailed(RuntimeError):
    """The driver of a cluster-mode application did not finish cleanly."""


def encode_inline_plan(plan_json: str) -> str:
    """The plan as ``--plan-inline`` takes it: zlib-compressed, urlsafe base64 (see engine/job.py)."""
    return base64.urlsafe_b64encode(zlib.compress(plan_json.encode("utf-8"), 9)).decode("ascii")


def plan_arguments(plan_path: str, deploy_mode: str | None) -> tuple[list[str], str | None]:
    """Engine arguments naming the plan, and the file to ship with ``--files`` (or None).

    Client mode: the driver runs here and reads the local plan file. Cluster mode: the driver runs on a cluster
    node, so the plan travels inline when small, else as a ``--files`` file found by name on the driver.
    """
    if deploy_mode != "cluster":
        return ["--plan", plan_path], None
    with open(plan_path, encoding="utf-8") as fh:
        inline = encode_inline_plan(fh.read())
    if len(inline) <= INLINE_PLAN_LIMIT:
        return ["--plan-inline", inline], None
    return ["--plan-file", os.path.basename(plan_path)], plan_path


def master_addresses(master: str) -> list[tuple[str, int]]:
    """(host, port) of a ``spark://h1:p1,h2:p2`` or ``k8s://https://h:p`` master; [] when not checkable."""
    if master.startswith("spark://"):
        out = []
        for item in master[len("spark://"):].split(","):
            host, _, port = item.strip().rpartition(":")
            if host and port.isdigit():
                out.append((host, int(port)))
        return out
    if master.startswith("k8s://"):
        url = urlsplit(master[len("k8s://"):])
        if url.hostname:
            return [(url.hostname, url.port or (443 if url.scheme == "https" else 80))]
    return []


def check_master_reachable(master: str, timeout: float = 10.0) -> None:
    """Raise SparkMasterUnreachable unless some master address accepts a TCP connection within ``timeout``."""
    addresses = master_addresses(master)
    if not addresses:
        return
    deadline = time.monotonic() + timeout
    errors = []
    while True:
        for host, port in addresses:
            try:
                with socket.create_connection((host, port), timeout=max(0.5, min(3.0, deadline - time.monotonic()))):
                    return
            except OSError as exc:
                errors.append(f"{host}:{port}: {exc.strerror or exc}")
        if time.monotonic() >= deadline:
            break
        time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
    raise SparkMasterUnreachable(
        f"the Spark master {master} is unreachable: no connection within {timeout:.0f}s ({errors[-1]})")


class DataQualitySparkSubmitHook(SparkSubmitHook):
    """Submits the packaged validation job.

    Differences from the provider's hook:

    * when ``conn_id`` is None or names no connection, the master is ``local[*]`` (the provider's default is
      ``yarn``), and ``master=`` overrides whatever the connection says;
    * when ``spark-submit`` is not on PATH, the one inside the installed pyspark package is used;
    * the connection's extra may carry ``conf`` (Spark settings) and ``env_vars``; the operator's win;
    * Python cluster deploy mode on a standalone master is refused up front with a clear message, and so are
      driver-tracking settings the provider would only reject at submit time (no ResourceManager address, no
      Kubernetes namespace) and a ``k8s://`` master without the cncf.kubernetes provider (UnsupportedDeployMode);
    * :meth:`run` submits and, in cluster mode, follows the driver to its end with the provider's tracking.
    """

    def __init__(self, *args: Any, conn_id: str | None = "spark_default", master: str | None = None,
                 master_connect_timeout: float = 10.0, **kwargs: Any) -> None:
        self._dq_master = master
        self._dq_conn_id = conn_id
        self._dq_extra: dict = {}
        self.master_connect_timeout = master_connect_timeout
        try:
            super().__init__(*args, conn_id=conn_id or "", **kwargs)
        except (RuntimeError, NameError):
            # a k8s:// master without the cncf.kubernetes provider: the provider's hook raises RuntimeError (or, in
            # 6.3.4, NameError: its optional import leaves ``kube_client`` undefined). A setup error, not retryable.
            master = getattr(self, "_connection", {}).get("master", "")
            if "k8s" in master and _provider_kube_client() is None:
                raise UnsupportedDeployMode(KUBERNETES_PROVIDER_MISSING.format(master=master)) from None
            raise
        conn_conf = self._dq_extra.get("conf") or {}
        conn_env = self._dq_extra.get("env_vars") or {}
        if not isinstance(conn_conf, dict) or not isinstance(conn_env, dict):
            raise ValueError(f"the extra of Spark connection {conn_id!r}: 'conf' and 'env_vars' must be objects")
        self._conf = {**conn_conf, **(self._conf or {})}
        self._env_vars = {**conn_env, **(self._env_vars or {})} or None
        self._check_deploy_mode()

    def connection_exists(self) -> bool:
        if not self._dq_conn_id:
            return False
        try:
            self._dq_extra = dict(self.get_connection(self._dq_conn_id).extra_dejson or {})
        except Exception:
            return False
        return True

    def _resolve_connection(self) -> dict[str, Any]:
        data = super()._resolve_connection()
        exists = self.connection_exists()
        if self._dq_master:
            data["master"] = self._dq_master
        elif not exists:
            self.log.info("No Spark connection %r: using the embedded master %s", self._dq_conn_id, DEFAULT_MASTER)
            data["master"] = DEFAULT_MASTER
        if self._deploy_mode and not exists:  # the provider only applies deploy_mode= when a connection exists
            data["deploy_mode"] = self._deploy_mode
        return data

    def _check_deploy_mode(self) -> None:
        # the provider's driver tracking needs settings its own operator checks before submitting; so do we
        try:
            if self._track_driver_via_k8s_api:
                self._validate_track_driver_via_k8s_api_config()
            self._validate_yarn_track_via_rm_api_config()
        except ValueError as exc:
            raise UnsupportedDeployMode(f"cannot follow the Spark driver on {self.master}: {exc}") from None
        if self.deploy_mode != "cluster":
            return
        if self.master.startswith("spark://"):
            raise UnsupportedDeployMode(STANDALONE_PYTHON_CLUSTER_MODE.format(master=self.master))
        if self.master.startswith("local"):
            raise UnsupportedDeployMode(f"deploy mode 'cluster' needs a cluster manager; the master is {self.master}")

    @property
    def master(self) -> str:
        return self._connection["master"]

    @property
    def deploy_mode(self) -> str | None:
        return self._connection.get("deploy_mode")

    @property
    def conf(self) -> dict:
        return dict(self._conf)

    @property
    def env_vars(self) -> dict:
        return dict(self._env_vars or {})

    def _get_spark_binary_path(self) -> list[str]:
        binary = self._connection["spark_binary"]
        if binary == "spark-submit":
            return [spark_submit_binary()]
        return [binary]

    def run(self, application: str) -> None:
        """Submit and wait until the driver is done; raise if it did not finish cleanly.

        Client mode: spark-submit runs the driver here and its exit code is the outcome. Cluster mode: YARN and
        Kubernetes spark-submit wait for the application by default (their exit code/log is checked by the
        provider's hook); with ``yarn_track_via_rm_api`` / ``track_driver_via_k8s_api`` spark-submit returns at
        once and the provider's ResourceManager / Kubernetes API tracking follows the driver. Anything but a driver
        seen to succeed (FAILED/KILLED, a failed or vanished pod, a pod spark-submit never named) raises
        SparkDriverFailed.
        """
        check_master_reachable(self.master, self.master_connect_timeout)
        self.submit(application)
        if self._should_track_driver_status:  # standalone cluster mode (refused above for Python applications)
            self._start_driver_status_tracking()
            if self._driver_status != "FINISHED":
                raise SparkDriverFailed(f"the Spark driver {self._driver_id} ended as {self._driver_status}")
        elif self._should_track_yarn_application_via_rm_api():  # submit() raised if no application id was seen
            try:
                self._start_yarn_application_status_tracking(self._yarn_application_id)
            except RuntimeError as exc:
                raise SparkDriverFailed(f"the Spark driver did not succeed on YARN: {exc}") from None
            finally:
                self._run_post_submit_commands()
        elif self._should_track_driver_via_k8s_api():
            pod = self._kubernetes_driver_pod
            if not pod:
                self._run_post_submit_commands()
                raise SparkDriverFailed("spark-submit did not report the driver pod's name, so the driver cannot be "
                                        f"followed on {self.master}; nothing is read or reported")
            try:
                phase = self._poll_k8s_driver_via_api()
            except (RuntimeError, ValueError) as exc:
                raise SparkDriverFailed(f"the Spark driver did not succeed on Kubernetes: {exc}") from None
            if phase is None:
                raise SparkDriverFailed(f"the Spark driver pod {pod} disappeared before it finished (deleted or "
                                        "garbage-collected); its outcome is unknown")
            if phase != "Succeeded":
                raise SparkDriverFailed(f"the Spark driver pod {pod} ended in phase {phase}")
