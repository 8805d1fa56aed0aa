"""DataQualitySensor: re-run a chosen set of assertions (typically freshness and volume) until they pass.

Modes: ``poke`` (holds a worker slot, runs the check every ``poke_interval``), ``reschedule`` (frees the slot
between checks) and ``deferrable=True``: spark-submit is started detached, the task defers to
:class:`~airflow_dq.triggers.result.DataQualityResultTrigger`, which watches the job and its result location in
the triggerer; between attempts the task waits in the triggerer too (TimeDeltaTrigger). Each check is the same
Spark job DataQualityOperator submits, restricted to the chosen assertions.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from airflow.sdk import BaseSensorOperator, PokeReturnValue
from airflow.sdk.exceptions import AirflowSensorTimeout

from airflow_dq.core.assertions import Assertion
from airflow_dq.operators.data_quality import (
    DataQualityInfrastructureError,
    DataQualityInputError,
    DataQualityOperator,
    default_result_dir,
)
from airflow_dq.operators.templating import SpecTemplateMixin, apply_filters, select_assertions
from airflow_dq.spec.errors import SpecError

DEFAULT_KINDS = ("freshness", "volume")


class DataQualitySensor(SpecTemplateMixin, BaseSensorOperator):
    """Wait until the selected assertions pass.

    :param spec: / :param sources: / :param filters: as for DataQualityOperator (templated; ``.yml`` specs are
        rendered as templates).
    :param select: names (or ids) of the assertions to re-run; default: every assertion whose kind is in ``kinds``.
    :param kinds: assertion kinds to re-run when ``select`` is not given (default freshness and volume; None: all).
    :param accept_warn: also stop waiting when only warn-severity assertions fail (default: all must pass).
    :param deferrable: wait in the triggerer instead of a worker slot.
    :param check_poll_interval: (deferrable) seconds between the trigger's looks at the result location.
    Other arguments (conn_id, master, conf, result_dir, result_uri, submit_kwargs) go to the Spark submission.
    An empty input (0 rows) never satisfies the sensor.
    """

    template_fields: Sequence[str] = ("spec", "sources", "filters", "select", "result_dir", "conf")
    template_ext: Sequence[str] = (".yml", ".yaml")
    template_fields_renderers = {"spec": "yaml", "sources": "json", "filters": "json", "conf": "json"}
    ui_color = "#e8eef4"

    def __init__(self, *, spec: Any, sources: dict[str, Any], select: list[str] | None = None,
                 kinds: Sequence[str] | None = DEFAULT_KINDS, accept_warn: bool = False,
                 filters: dict[str, str] | None = None, conn_id: str | None = "spark_default",
                 master: str | None = None, conf: dict[str, Any] | None = None, result_dir: str | None = None,
                 submit_kwargs: dict[str, Any] | None = None, deferrable: bool = False,
                 check_poll_interval: float = 5.0, **kwargs: Any) -> None:
        self._submit_options = {k: kwargs.pop(k) for k in ("result_uri",) if k in kwargs}
        super().__init__(**kwargs)
        self.spec = spec
        self.sources = sources
        self.select = select
        self.kinds = tuple(kinds) if kinds else None
        self.accept_warn = accept_warn
        self.filters = filters
        self.conn_id = conn_id
        self.master = master
        self.conf = conf or {}
        self.result_dir = result_dir
        self.submit_kwargs = submit_kwargs or {}
        self.deferrable = deferrable
        self.check_poll_interval = check_poll_interval
        self.attempts = 0

    # -- which assertions -------------------------------------------------------------------------------------
    def selected_assertions(self) -> list[Assertion]:
        try:
            assertions = apply_filters(self.load_assertions(), self.filters)
        except SpecError as exc:
            raise DataQualityInputError(f"invalid data-quality spec or sources:\n{exc}") from None
        if self.select:
            try:
                chosen = select_assertions(assertions, self.select)
            except SpecError as exc:
                raise DataQualityInputError(f"{exc} ({self.spec_file or 'spec'})") from None
        elif self.kinds:
            chosen = [a for a in assertions if a.kind in self.kinds or a.spec_type in self.kinds]
        else:
            chosen = assertions
        if not chosen:
            raise DataQualityInputError(f"no assertion of kind {list(self.kinds or [])} in the spec "
                                        f"{self.spec_file or ''}; pass select=[names] or kinds=None")
        return chosen

    def checker(self) -> DataQualityOperator:
        """A DataQualityOperator running only the selected assertions, never failing on data."""
        return DataQualityOperator(
            task_id=self.task_id, spec=self.selected_assertions(), sources=self.sources, conn_id=self.conn_id,
            master=self.master, conf=self.conf, result_dir=self.result_dir, submit_kwargs=self.submit_kwargs,
            fail_on="never", on_empty="fail", emit_assets=False, **self._submit_options)

    def satisfied(self, summary: dict) -> bool:
        return summary["outcome"] == "pass" or (summary["outcome"] == "warn" and self.accept_warn)

    def _log_attempt(self, summary: dict) -> None:
        failed = ", ".join(f["name"] for f in summary.get("failed") or []) or "none"
        empty = ", ".join(summary.get("empty_inputs") or [])
        self.log.info("Data-quality check %d: outcome %s; not passing: %s%s", self.attempts,
                      summary["outcome"].upper(), failed, f"; empty input: {empty}" if empty else "")

    # -- poke / reschedule ------------------------------------------------------------------------------------
    def poke(self, context) -> bool | PokeReturnValue:
        self.attempts += 1
        summary = self.checker().execute(context)
        self._log_attempt(summary)
        return PokeReturnValue(is_done=self.satisfied(summary), xcom_value=summary)

    # -- deferrable -------------------------------------------------------------------------------------------
    def execute(self, context) -> Any:
        if not self.deferrable:
            return super().execute(context)
        self.submit_and_defer(context, deadline=time.time() + self.timeout, attempt=1)

    def submit_and_defer(self, context, deadline: float, attempt: int) -> None:
        from airflow_dq.sensors.launch import launch_detached
        from airflow_dq.triggers.result import DataQualityResultTrigger

        checker = self.checker()
        plan = checker.plan = checker.build_plan(context)
        workdir = Path(self.result_dir or default_result_dir()) / plan.options["task_key"]
        workdir.mkdir(parents=True, exist_ok=True)
        plan_path = workdir / "plan.json"
        plan_path.write_text(plan.to_json(), encoding="utf-8")
        location = checker.result_location(plan)
        hook, package = checker._make_hook(str(plan_path), location)
        command = hook._build_spark_submit_command(package.launcher_path)
        try:
            job = launch_detached(command, getattr(hook, "_env", None), str(workdir / f"spark-submit-{attempt}.log"))
        except OSError as exc:
            raise DataQualityInfrastructureError(str(exc)) from None
        self.log.info("Check %d: spark-submit started in the background (pid %s, log %s); deferring until the "
                      "result is at %s", attempt, job.pid, job.log_path, location)
        trigger = DataQualityResultTrigger(
            location={"spark_uri": location.spark_uri, "reader_uri": location.reader_uri,
                      "conn_id": location.conn_id},
            run_id=plan.run_id, pid=job.pid, host=job.host, log_path=job.log_path,
            poll_interval=self.check_poll_interval, timeout=max(deadline - time.time(), 1.0),
            context={"deadline": deadline, "attempt": attempt, "location": location.spark_uri,
                     "run_id": plan.run_id})
        self.defer(trigger=trigger, method_name="check_complete")

    def check_complete(self, context, event: dict | None = None, **_: Any) -> Any:
        event = event or {}
        state = event.get("context") or {}
        attempt, deadline = state.get("attempt", 1), state.get("deadline", time.time())
        status = event.get("status")
        if status == "timeout":
            raise AirflowSensorTimeout(f"data-quality sensor timed out: {event.get('message')}")
        if status != "done":
            raise DataQualityInfrastructureError(f"data-quality check {attempt} failed: {event.get('message')}")
        checker = self.checker()
        result = checker.read_result(state["location"], state["run_id"])
        summary = checker.summarize(result, event.get("location") or state["location"])
        context["ti"].xcom_push(key="return_value", value=summary)
        self.attempts = attempt
        self._log_attempt(summary)
        if self.satisfied(summary):
            return summary
        if time.time() + self.poke_interval > deadline:
            raise AirflowSensorTimeout(f"data-quality sensor timed out after {attempt} check(s); last outcome "
                                       f"{summary['outcome']}")
        from airflow_dq.triggers.result import DataQualityWaitTrigger

        self.defer(trigger=DataQualityWaitTrigger(self.poke_interval, {"deadline": deadline, "attempt": attempt + 1}),
                   method_name="resubmit")

    def resubmit(self, context, event: dict | None = None, **_: Any) -> None:
        state = (event or {}).get("context") or {}
        self.submit_and_defer(context, deadline=state.get("deadline", time.time()), attempt=state.get("attempt", 2))
