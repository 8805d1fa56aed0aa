"""Executes a plan: per dataset, plan every assertion, run one fused scan, conclude each assertion."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timezone

from pyspark.sql import SparkSession

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.plan import Plan
from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.engine import loader, views
from airflow_dq.engine.context import Agg, Dataset, Outcome, Pending, first_line
from airflow_dq.engine.diagnostics import diagnose
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.fused import FusedScan
from airflow_dq.engine.registry import KINDS
from airflow_dq.engine.speedups import Speedups

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _result(a: Assertion, outcome: Outcome, duration_ms: float) -> AssertionResult:
    return AssertionResult(
        assertion_id=a.id, name=a.display_name, kind=a.kind, type=a.spec_type, entity=a.entity,
        severity=a.severity, status=outcome.status, column=a.field, actual=outcome.actual,
        expected=outcome.expected, failing_rows=outcome.failing_rows, total_rows=outcome.total_rows,
        message=outcome.message, duration_ms=round(duration_ms, 3), details=outcome.details,
        assertion=a.declared or a.to_dict(),
    )


def _error(a: Assertion, message: str) -> Outcome:
    return Outcome("error", expected=a.condition.describe() if a.condition else None, message=message)


def run_plan(spark: SparkSession, plan: Plan, job_group_prefix: str | None = None) -> RunResult:
    started = _now()
    reference = datetime.fromisoformat(plan.reference_time)
    if reference.tzinfo is None:
        reference = reference.replace(tzinfo=timezone.utc)
    results: dict[str, AssertionResult] = {}
    datasets = []
    diagnostics: dict = {}  # filled per dataset after its fused scan (engine/diagnostics.py)
    # Timestamps are instants; literals and filters without an offset, and timestamp_ntz values, read as UTC.
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    # Listing files while loading is attributed to its own job group, not to a dataset's (or a previous run's).
    spark.sparkContext.setJobGroup(f"{job_group_prefix or 'airflow-dq'}:{plan.run_id}:load",
                                   "airflow-dq: loading datasets", interruptOnCancel=True)
    frames = _load_all(spark, plan)  # every dataset first: custom SQL may read any of them (engine/views.py)
    for index, entity in enumerate(plan.entities()):
        group = f"{job_group_prefix or 'airflow-dq'}:{plan.run_id}:{index}"
        spark.sparkContext.setJobGroup(group, f"airflow-dq validation of {entity}", interruptOnCancel=True)
        assertions = [a for a in plan.assertions if a.entity == entity]
        stats = _run_dataset(spark, plan, entity, assertions, reference, results, diagnostics, frames=frames)
        stats["spark_jobs"] = len(spark.sparkContext.statusTracker().getJobIdsForGroup(group))
        stats["job_group"] = group
        datasets.append(stats)
    ordered = [results[a.id] for a in plan.assertions]
    engine = {"spark_version": spark.version, "master": spark.sparkContext.master,
              "application_id": spark.sparkContext.applicationId}
    return RunResult(run_id=plan.run_id, reference_time=plan.reference_time, started_at=started,
                     finished_at=_now(), results=ordered, engine=engine, datasets=datasets,
                     diagnostics=diagnostics)


def _load_all(spark, plan) -> dict:
    """entity -> DataFrame (or the NotEvaluable that loading raised); loaded datasets become temp views."""
    frames: dict = {}
    for source in plan.sources:  # also sources no assertion names: custom SQL may read them
        entity = source.entity
        try:
            frames[entity] = loader.load(spark, source)
        except NotEvaluable as exc:
            frames[entity] = exc
    views.register_all({e: df for e, df in frames.items() if not isinstance(df, NotEvaluable)})
    return frames


def _run_dataset(spark, plan, entity, assertions, reference, results, diagnostics=None, frames=None) -> dict:
    t0 = time.perf_counter()
    source = plan.source_for(entity)
    stats: dict = {"entity": entity, "source": source.to_dict(), "assertions": len(assertions)}
    try:
        df = frames[entity] if frames and entity in frames else loader.load(spark, source)
        if isinstance(df, NotEvaluable):
            raise df
    except NotEvaluable as exc:
        for a in assertions:
            results[a.id] = _result(a, _error(a, str(exc)), 0.0)
        stats["error"] = str(exc)
        return stats
    ds = Dataset(entity=entity, source=source, df=df, spark=spark, reference_time=reference)
    scan = FusedScan(df)
    speed = Speedups(ds, plan.options, assertions)  # Parquet footer answers, distinct option (speedups.py)
    pending: dict[str, tuple[Assertion, Pending, float]] = {}
    for a in assertions:
        started = time.perf_counter()
        module = KINDS.get(a.kind)
        try:
            if module is None:
                raise NotEvaluable(f"assertion kind {a.kind!r} is not supported by this engine")
            prepared = speed.adapt(a, module.prepare(a, ds))
            if isinstance(prepared, Pending):  # build what the scan still has to compute (errors are this one's)
                for agg in prepared.aggregates.values():
                    if isinstance(agg, Agg):
                        agg.materialize()
        except NotEvaluable as exc:
            results[a.id] = _result(a, _error(a, str(exc)), (time.perf_counter() - started) * 1000)
            continue
        except Exception as exc:  # an engine bug must not hide the other assertions' results
            log.exception("unexpected error while planning %s", a.id)
            results[a.id] = _result(a, _error(a, f"internal error: {first_line(exc)}"),
                                    (time.perf_counter() - started) * 1000)
            continue
        if isinstance(prepared, Outcome):
            results[a.id] = _result(a, prepared, (time.perf_counter() - started) * 1000)
        else:
            scan.request(a.id, prepared.aggregates)
            pending[a.id] = (a, prepared, (time.perf_counter() - started) * 1000)
    if pending:  # schema and custom SQL assertions alone scan no data (docs/semantics.md, scan budget)
        scan.request("__dataset__", speed.scan_request("__dataset__", {"rows": Agg("rows", None, ds.literal(True))}))
    scan.count_bound = speed.row_bound()  # lets the scan pack its row counts (engine/packed_counts.py)
    scan_started = time.perf_counter()
    values, errors = scan.run()
    values = speed.complete(values)
    scan_ms = (time.perf_counter() - scan_started) * 1000
    for aid, (a, prepared, plan_ms) in pending.items():
        if aid in errors or aid not in values:
            outcome = _error(a, f"Spark could not evaluate the assertion: {errors.get(aid, 'no value computed')}")
        else:
            try:
                outcome = prepared.finish(values[aid])
            except Exception as exc:
                log.exception("unexpected error while concluding %s", aid)
                outcome = _error(a, f"internal error: {first_line(exc)}")
        results[aid] = _result(a, outcome, plan_ms)
    if diagnostics is not None:
        stats["diagnostics"] = diagnose(ds, assertions, results, diagnostics)
    stats.update({
        "rows": values.get("__dataset__", {}).get("rows"),
        "aggregates": scan.size,
        "fused_jobs": scan.jobs_run,
        "fallback": scan.fallback_used,
        "packed_fields": scan.packed_fields,
        "columns_read": scan.columns_read,
        **speed.stats(),
        "scan_ms": round(scan_ms, 3),
        "duration_ms": round((time.perf_counter() - t0) * 1000, 3),
        "schema": [{"name": f.name, "type": f.dataType.simpleString()} for f in df.schema.fields],
    })
    return stats

