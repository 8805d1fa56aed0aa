"""OpenLineage events for ``airflow-dq run`` (opt-in with ``--openlineage``), through openlineage-python's client.

The transport comes from openlineage-python's own configuration — ``OPENLINEAGE_CONFIG`` / ``openlineage.yml``,
``OPENLINEAGE_URL``, or ``OPENLINEAGE__TRANSPORT__*`` environment variables — exactly as for any other producer.
One START event when the run begins, then COMPLETE (outcome pass or warn) or FAIL (an error-severity failure, or
Spark failed), carrying the same dataset and run facets as the Airflow operator's events.
Emission problems are reported on stderr and never change the command's exit code.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timezone

from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
from openlineage.client.generated.error_message_run import ErrorMessageRunFacet
from openlineage.client.generated.job_type_job import JobTypeJobFacet
from openlineage.client.uuid import generate_new_uuid

from airflow_dq.core.plan import Plan
from airflow_dq.core.results import RunResult
from airflow_dq.lineage.facets import build_lineage

DEFAULT_NAMESPACE = "default"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class CliLineage:
    """Emits the events of one CLI run; every method is a no-op when not enabled."""

    def __init__(self, plan: Plan, *, enabled: bool, namespace: str | None = None, job_name: str | None = None,
                 client: OpenLineageClient | None = None):
        self.plan = plan
        self.enabled = enabled
        self.namespace = namespace or os.environ.get("OPENLINEAGE_NAMESPACE") or DEFAULT_NAMESPACE
        self.job_name = job_name or "airflow_dq.run"
        self.run_id = str(generate_new_uuid())
        self._client = client

    @classmethod
    def from_args(cls, args, plan: Plan) -> "CliLineage":
        spec = os.path.splitext(os.path.basename(str(args.spec)))[0] or "spec"
        return cls(plan, enabled=bool(getattr(args, "openlineage", False)),
                   namespace=getattr(args, "openlineage_namespace", None),
                   job_name=getattr(args, "openlineage_job", None) or f"airflow_dq.{spec}")

    @property
    def client(self) -> OpenLineageClient:
        if self._client is None:
            self._client = OpenLineageClient()
        return self._client

    def _emit(self, state: RunState, result: RunResult | None, tests: bool, error: str | None = None) -> None:
        if not self.enabled:
            return
        try:
            lineage = build_lineage(self.plan, result, tests=tests)
            run_facets = dict(lineage.run_facets)
            if error:
                run_facets["errorMessage"] = ErrorMessageRunFacet(message=error, programmingLanguage="python")
            job = Job(namespace=self.namespace, name=self.job_name, facets={
                "jobType": JobTypeJobFacet(processingType="BATCH", integration="AIRFLOW_DQ", jobType="JOB")})
            self.client.emit(RunEvent(eventType=state, eventTime=_now(), run=Run(runId=self.run_id, facets=run_facets),
                                      job=job, inputs=lineage.inputs))
        except Exception as exc:  # lineage never changes the outcome of a run
            print(f"airflow-dq: could not emit the OpenLineage {state.value} event: {type(exc).__name__}: {exc}",
                  file=sys.stderr)

    def start(self) -> None:
        self._emit(RunState.START, None, tests=False)

    def finish(self, result: RunResult) -> None:
        """COMPLETE when no error-severity assertion failed, else FAIL — both with the full facets."""
        if result.outcome == "fail":
            failed = [r.name for r in result.results if r.severity == "error" and not r.success]
            self._emit(RunState.FAIL, result, tests=True,
                       error=f"{len(failed)} error-severity assertion(s) did not pass: {', '.join(failed)}")
        else:
            self._emit(RunState.COMPLETE, result, tests=True)

    def fail(self, message: str) -> None:
        """Spark failed before any result: FAIL, every assertion a ``skip`` test."""
        self._emit(RunState.FAIL, None, tests=True, error=message)
