"""The Spark provider's SparkSubmitHook, with an embedded local master when no connection exists."""

from __future__ import annotations

from typing import Any

from airflow.providers.apache.spark.hooks.spark_submit import SparkSubmitHook

from airflow_dq.submit.environment import DEFAULT_MASTER, spark_submit_binary


class DataQualitySparkSubmitHook(SparkSubmitHook):
    """Submits the packaged validation job.

    Differences from the provider's hook, both about out-of-the-box use:

    * when ``conn_id`` is None or names no connection, the master is ``local[*]`` (the provider's default is
      ``yarn``), and ``master=`` overrides whatever the connection says;
    * when ``spark-submit`` is not on PATH, the one inside the installed pyspark package is used.
    """

    def __init__(self, *args: Any, conn_id: str | None = "spark_default", master: str | None = None,
                 **kwargs: Any) -> None:
        self._dq_master = master
        self._dq_conn_id = conn_id
        super().__init__(*args, conn_id=conn_id or "", **kwargs)

    def connection_exists(self) -> bool:
        if not self._dq_conn_id:
            return False
        try:
            self.get_connection(self._dq_conn_id)
        except Exception:
            return False
        return True

    def _resolve_connection(self) -> dict[str, Any]:
        data = super()._resolve_connection()
        if self._dq_master:
            data["master"] = self._dq_master
        elif not self.connection_exists():
            self.log.info("No Spark connection %r: using the embedded master %s", self._dq_conn_id, DEFAULT_MASTER)
            data["master"] = DEFAULT_MASTER
        return data

    @property
    def master(self) -> str:
        return self._connection["master"]

    @property
    def deploy_mode(self) -> str | None:
        return self._connection.get("deploy_mode")

    def _get_spark_binary_path(self) -> list[str]:
        binary = self._connection["spark_binary"]
        if binary == "spark-submit":
            return [spark_submit_binary()]
        return [binary]
