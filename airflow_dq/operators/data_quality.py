"""DataQualityOperator: compile a spec, submit the packaged PySpark job, bring the result back, gate on severity."""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from airflow.sdk import BaseOperator
from airflow.sdk.exceptions import AirflowException, AirflowFailException, AirflowSkipException

from airflow_dq.core.plan import Plan
from airflow_dq.core.results import ResultError, RunResult
from airflow_dq.lineage.mixin import DataQualityLineageMixin
from airflow_dq.operators.assets import assets_for_sources
from airflow_dq.operators.gating import FAIL_ON, ON_EMPTY, Verdict, check_choice, decide
from airflow_dq.operators.links import DataQualityResultLink, SparkUILink, location_url, spark_ui_url
from airflow_dq.report.link import DataQualityReportLink
from airflow_dq.report.store import write_report_next_to
from airflow_dq.operators.report import markdown_report
from airflow_dq.operators.templating import SpecTemplateMixin, apply_filters, select_assertions
from airflow_dq.spec.build import build_plan
from airflow_dq.spec.engine_options import parse_engine_options
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


class DataQualityRetryableFailure(AirflowException):
    """Assertions failed and ``retry_on_failure=True``: the task's retries apply (e.g. data that arrives late)."""


class DataQualitySkipped(AirflowSkipException):
    """The input was empty and ``on_empty="skip"``."""


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text)[:200]


def default_result_dir() -> str:
    home = os.environ.get("AIRFLOW_HOME") or os.path.expanduser("~/airflow")
    return os.path.join(home, "airflow-dq", "results")


class DataQualityOperator(SpecTemplateMixin, DataQualityLineageMixin, BaseOperator):
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
    :param fail_on: ``error`` (default: fail when an error-severity assertion does not pass), ``warn`` (fail on any
        assertion that does not pass) or ``never`` (always succeed; branch on the XCom summary instead).
    :param retry_on_failure: data failures are final by default (retrying does not fix data); True makes them
        retryable so the task's ``retries`` apply, e.g. while waiting for late data.
    :param on_empty: what an input with 0 rows means: ``fail`` (default; counts as an error-severity failure),
        ``warn``, ``skip`` (the task is skipped) or ``ignore`` (the assertions alone decide).
    :param filters: entity → SQL condition ANDed into every assertion of that entity (templated, e.g.
        ``{"purchase_events": "ds = '{{ ds }}'"}``).
    :param emit_assets: declare each source as an inlet Asset and its "validated" twin as an outlet Asset.
    :param validated_on_warn: also emit the validated asset event when the outcome is ``warn`` (default: pass only).
    :param select: run only these assertions (names or ids) of the spec; default all.
    :param engine_options: engine settings for this run, e.g. ``{"distinct": "approximate"}`` (see
        airflow_dq/spec/engine_options.py and docs/benchmarks.md); unknown keys fail the task before Spark starts.
    :param spark_ui_url: link template for the Spark UI / history server, e.g.
        ``"http://history:18080/history/{application_id}"``.
    """

    template_fields: Sequence[str] = ("spec", "sources", "filters", "result_dir", "result_uri", "conf", "quality_report")
    template_ext: Sequence[str] = (".yml", ".yaml")
    template_fields_renderers = {"spec": "yaml", "sources": "json", "filters": "json", "conf": "json",
                                 "quality_report": "md"}
    operator_extra_links = (DataQualityResultLink(), SparkUILink(), DataQualityReportLink())
    # the Rendered Templates tab then shows the outcome (quality_report) of the finished run
    overwrite_rtif_after_execution = True
    ui_color = "#e8f4ea"

    def __init__(self, *, spec: Any, sources: dict[str, Any], conn_id: str | None = "spark_default",
                 master: str | None = None, conf: dict[str, Any] | None = None, result_dir: str | None = None, result_uri: str | None = None,
                 submit_kwargs: dict[str, Any] | None = None, fail_on: str = "error",
                 retry_on_failure: bool = False, on_empty: str = "fail", filters: dict[str, str] | None = None,
                 emit_assets: bool = True, validated_on_warn: bool = False, spark_ui_url: str | None = None,
                 select: list[str] | None = None, engine_options: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        self.emit_assets = emit_assets
        self._validated_assets = []
        if emit_assets:
            inlets, validated = assets_for_sources(sources)
            self._validated_assets = validated
            kwargs["inlets"] = [*(kwargs.get("inlets") or []), *inlets]
            kwargs["outlets"] = [*(kwargs.get("outlets") or []), *validated]
        super().__init__(**kwargs)
        self.fail_on = check_choice("fail_on", fail_on, FAIL_ON)
        self.on_empty = check_choice("on_empty", on_empty, ON_EMPTY)
        self.retry_on_failure = retry_on_failure
        self.filters = filters
        self.validated_on_warn = validated_on_warn
        self.spark_ui_url = spark_ui_url
        self.select = select
        self.engine_options = engine_options or {}
        self.quality_report = ""
        self.links: dict[str, str] = {}
        self.verdict: Verdict | None = None
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
            assertions = apply_filters(select_assertions(self.load_assertions(), self.select), self.filters)
            key, run_id = self._run_key(context)
            return build_plan(assertions, self.sources or {}, run_id=run_id,
                              reference_time=self._reference_time(context),
                              options={**parse_engine_options(self.engine_options), "task_key": key})
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
        summary = self.summarize(result, location.display)
        summary["report_location"] = write_report_next_to(result, location, f"Data quality: {self.task_id}")
        context["ti"].xcom_push(key="return_value", value=summary)
        self.publish(result, summary, context)
        self.gate(result)
        return summary

    def summarize(self, result: RunResult, location: str) -> dict:
        """The XCom summary, with the gating verdict: ``outcome`` is the outcome after the empty-input policy."""
        self.verdict = verdict = decide(result, self.fail_on, self.on_empty)
        summary = xcom_summary(result, location)
        summary["assertions_outcome"] = summary["outcome"]
        summary["outcome"] = verdict.outcome
        summary["empty_inputs"] = verdict.empty
        summary["gate"] = {"fail_on": self.fail_on, "on_empty": self.on_empty, "action": verdict.action,
                           "reason": verdict.reason}
        return summary

    def publish(self, result: RunResult, summary: dict, context) -> None:
        """What the UI shows without opening the log: report field, extra links, the validated asset event."""
        self.quality_report = markdown_report(result, summary)
        self.links = {"result": location_url(summary.get("result_location")),
                      "spark_ui": spark_ui_url(self.spark_ui_url, result.engine),
                      "report": location_url(summary.get("report_location"))}
        validated = self._validated_assets
        if not validated:
            return
        emit = self.verdict.action == "succeed" and (
            self.verdict.outcome == "pass" or (self.verdict.outcome == "warn" and self.validated_on_warn))
        if emit:
            extra = {"airflow_dq": {k: summary[k] for k in ("outcome", "total", "by_status", "run_id")},
                     "failed": [f["name"] for f in summary["failed"]], "result_location": summary["result_location"]}
            for asset in validated:
                context["outlet_events"][asset].extra = extra
            self.log.info("Emitting validated asset event(s): %s", ", ".join(a.uri for a in validated))
        else:
            # the task may still succeed (warn, fail_on="never"): no "validated" event for data that is not
            uris = {a.uri for a in validated}
            self.outlets = [o for o in self.outlets if getattr(o, "uri", None) not in uris]
            self.log.info("Not emitting the validated asset event (outcome %s)", self.verdict.outcome)

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
        """Log the results table, then succeed, fail, or skip per ``fail_on`` / ``on_empty`` / ``retry_on_failure``."""
        verdict = self.verdict or decide(result, self.fail_on, self.on_empty)
        self.log.info("Data quality results:\n%s", results_table(result))
        failed = [r for r in result.results if not r.success]
        warns = [r for r in failed if r.severity == "warn"]
        if warns:
            self.log.warning("DATA QUALITY WARNING: %d warn-severity assertion(s) did not pass:\n%s",
                             len(warns), results_table(result, only=warns))
        if verdict.empty:
            self.log.warning("DATA QUALITY: empty input (0 rows): %s (on_empty=%r)",
                             ", ".join(verdict.empty), self.on_empty)
        self.log.info("Data quality gate: %s", verdict.reason)
        if verdict.action == "skip":
            raise DataQualitySkipped(verdict.reason)
        if verdict.action == "fail":
            errors = [r for r in failed if r.severity == "error"]
            names = ", ".join(r.name for r in (errors if self.fail_on == "error" else failed))
            if errors and self.fail_on == "error":
                message = f"{len(errors)} error-severity assertion(s) did not pass: {names}"
            elif failed:
                message = f"{len(failed)} assertion(s) did not pass (fail_on={self.fail_on!r}): {names}"
            else:
                message = verdict.reason
            if verdict.empty and not failed:
                message = f"{verdict.reason}"
            if self.retry_on_failure:
                raise DataQualityRetryableFailure(message)
            raise DataQualityDataFailure(message)

    def on_kill(self) -> None:
        if self._hook is not None:
            self._hook.on_kill()
