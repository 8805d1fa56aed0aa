"""DataQualityOperator: compile a spec, submit the packaged PySpark job, bring the result back, gate on severity."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from airflow.sdk import BaseOperator
from airflow.sdk.exceptions import AirflowException, AirflowFailException

from airflow_dq.core.plan import Plan
from airflow_dq.core.results import ResultError, RunResult
from airflow_dq.lineage.mixin import DataQualityLineageMixin
from airflow_dq.spec.build import build_plan, load_any
from airflow_dq.spec.errors import SpecError
from airflow_dq.submit.environment import LOCAL_CONF, is_local, local_env
from airflow_dq.submit.package import build_engine_package
from airflow_dq.summary import results_table, xcom_summary


class DataQualityDataFailure(AirflowFailException):
    """Error-severity assertions failed: the data is wrong, retrying will not help."""


class DataQualityInputError(AirflowFailException):
    """The spec or the sources are invalid: a retry will not fix them."""


class DataQualityInfrastructureError(AirflowException):
    """Spark failed or wrote no usable result: retryable."""


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text)[:200]


def default_result_dir() -> str:
    home = os.environ.get("AIRFLOW_HOME") or os.path.expanduser("~/airflow")
    return os.path.join(home, "airflow-dq", "results")


class DataQualityOperator(DataQualityLineageMixin, BaseOperator):
    """Validate datasets against data-quality assertions on Spark.

    :param spec: the assertions: a YAML file path, YAML text, or a parsed mapping (``version: 1``, ``assertions:``).
    :param sources: entity → where its data is: ``"path[:format]"``, ``"table:db.tbl"`` or
        ``{"path": ..., "format": ..., "options": {...}}`` / ``{"table": ...}``. Keys may be the entity URN, its
        dataset name, or the last part of that name.
    :param conn_id: the ``spark`` connection giving the master; when it does not exist the job runs on ``local[*]``.
    :param master: overrides the connection's master.
    :param conf: extra Spark configuration.
    :param result_dir: local working directory of this worker (the plan; results too unless ``result_uri``).
    :param result_uri: where the Spark driver writes result documents, on any Hadoop filesystem (``file://``,
        ``hdfs://``, ``s3a://``, ``gs://``, ``abfs://``), read back here through ObjectStoragePath (templated);
        each try gets ``<result_uri>/<dag>/<task>/<run>/try-<n>/result.json``. Needed when the driver runs
        elsewhere (cluster deploy mode). See docs/cluster.md.
    :param submit_kwargs: further arguments of the provider's SparkSubmitHook (executor_memory, num_executors, ...).
    """

    template_fields: Sequence[str] = ("spec", "sources", "result_dir", "result_uri", "conf")
    ui_color = "#e8f4ea"

    def __init__(self, *, spec: Any, sources: dict[str, Any], conn_id: str | None = "spark_default",
                 master: str | None = None, conf: dict[str, Any] | None = None, result_dir: str | None = None, result_uri: str | None = None,
                 submit_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        self.sources = sources
        self.conn_id = conn_id
        self.master = master
        self.conf = conf or {}
        self.result_dir = result_dir
        self.result_uri = result_uri
        self.submit_kwargs = submit_kwargs or {}
        self._hook = None
        self.run_result: RunResult | None = None
        self.plan: Plan | None = None

    # -- planning ---------------------------------------------------------------------------------------------
    def _reference_time(self, context) -> datetime | None:
        for key in ("data_interval_end", "logical_date"):
            value = context.get(key)
            if value is not None:
                return value
        return None

    def _run_key(self, context) -> tuple[str, str]:
        ti = context["ti"]
        run_id = getattr(ti, "run_id", None) or context.get("run_id") or "manual"
        try_number = getattr(ti, "try_number", 1) or 1
        key = f"{ti.dag_id}/{ti.task_id}/{_safe(str(run_id))}/try-{try_number}"
        if getattr(ti, "map_index", -1) not in (-1, None):
            key += f"/map-{ti.map_index}"
        return key, f"{ti.dag_id}.{ti.task_id}.{run_id}.{try_number}"

    def build_plan(self, context) -> Plan:
        try:
            assertions = load_any(self.spec)
            key, run_id = self._run_key(context)
            return build_plan(assertions, self.sources or {}, run_id=run_id,
                              reference_time=self._reference_time(context),
                              options={"task_key": key})
        except SpecError as exc:
            raise DataQualityInputError(f"invalid data-quality spec or sources:\n{exc}") from None

    # -- execution --------------------------------------------------------------------------------------------
    def execute(self, context) -> dict:
        self.plan = plan = self.build_plan(context)
        workdir = Path(self.result_dir or default_result_dir()) / plan.options["task_key"]
        workdir.mkdir(parents=True, exist_ok=True)
        plan_path = workdir / "plan.json"
        plan_path.write_text(plan.to_json(), encoding="utf-8")
        location = self.result_location(plan)  # this try's own location, emptied: never an earlier document

        self.submit(str(plan_path), location, context)
        self.run_result = result = self.read_result(location, plan.run_id)
        summary = xcom_summary(result, location.display)
        context["ti"].xcom_push(key="return_value", value=summary)
        self.gate(result)
        return summary

    def result_location(self, plan: Plan):
        from airflow_dq.hooks.result_store import ResultLocationError, check_readable, clear, result_location

        base = self.result_uri or self.result_dir or default_result_dir()
        location = result_location(base, plan.options["task_key"])
        try:
            check_readable(location)
            clear(location)
        except ResultLocationError as exc:
            raise DataQualityInputError(str(exc)) from None
        except OSError as exc:
            raise DataQualityInfrastructureError(f"cannot prepare the result location {location}: {exc}") from None
        return location

    def _make_hook(self, plan_path: str, result_location):
        from airflow_dq.hooks.spark_submit import DataQualitySparkSubmitHook, plan_arguments

        package = build_engine_package()
        kwargs = dict(self.submit_kwargs)
        probe = DataQualitySparkSubmitHook(conn_id=self.conn_id, master=self.master,
                                           deploy_mode=kwargs.get("deploy_mode"))
        master = probe.master
        conf = {**(LOCAL_CONF if is_local(master) else {}), **self._openlineage_conf(), **self.conf}
        env = {**local_env(master), **(kwargs.pop("env_vars", None) or {})}
        plan_args, plan_file = plan_arguments(plan_path, probe.deploy_mode)
        files = ",".join(f for f in (kwargs.pop("files", None), plan_file) if f) or None
        return DataQualitySparkSubmitHook(
            conn_id=self.conn_id, master=self.master, conf=conf, py_files=package.zip_path, files=files,
            application_args=[*plan_args, "--out", str(result_location)],
            name=kwargs.pop("name", f"airflow-dq-{self.task_id}"), env_vars=env or None, **kwargs,
        ), package

    def submit(self, plan_path: str, result_location, context) -> None:
        from airflow_dq.hooks.spark_submit import SparkMasterUnreachable, UnsupportedDeployMode

        try:
            hook, package = self._make_hook(plan_path, result_location)
        except UnsupportedDeployMode as exc:
            raise DataQualityInputError(str(exc)) from None
        self._hook = hook
        self.log.info("Submitting %d assertions to Spark master %s (deploy mode %s); result at %s",
                      len(self.plan.assertions), hook.master, hook.deploy_mode or "client", result_location)
        try:
            hook.run(application=package.launcher_path)
        except SparkMasterUnreachable as exc:
            raise DataQualityInfrastructureError(f"the Spark validation job could not start: {exc}") from None
        except (AirflowException, RuntimeError) as exc:
            raise DataQualityInfrastructureError(
                f"the Spark validation job failed (driver or spark-submit ended abnormally; no result is read "
                f"or reported): {exc}") from None
        except (OSError, ValueError) as exc:
            raise DataQualityInfrastructureError(f"could not start spark-submit: {exc}") from None

    def read_result(self, location, run_id: str) -> RunResult:
        """This try's result document through the result store; anything untrustworthy is a retryable failure."""
        from airflow_dq.hooks.result_store import ResultLocationError, ResultUnavailable, parse_location
        from airflow_dq.hooks.result_store import read_result as read_document

        if isinstance(location, str):
            location = parse_location(location)
        try:
            return read_document(location, run_id)
        except ResultUnavailable as exc:
            raise DataQualityInfrastructureError(f"the Spark job finished but left no usable result: {exc}") from None
        except ResultLocationError as exc:
            raise DataQualityInfrastructureError(str(exc)) from None

    def gate(self, result: RunResult) -> None:
        self.log.info("Data quality results:\n%s", results_table(result))
        failed = [r for r in result.results if not r.success]
        warns = [r for r in failed if r.severity == "warn"]
        if warns:
            self.log.warning("DATA QUALITY WARNING: %d warn-severity assertion(s) did not pass:\n%s",
                             len(warns), results_table(result, only=warns))
        errors = [r for r in failed if r.severity == "error"]
        if errors:
            names = ", ".join(r.name for r in errors)
            raise DataQualityDataFailure(f"{len(errors)} error-severity assertion(s) did not pass: {names}")

    def on_kill(self) -> None:
        if self._hook is not None:
            self._hook.on_kill()
