"""Diagnostics after a dataset's fused scan: dimensional analysis and failing-row samples of field-values assertions.

At most two extra passes per dataset: one grouping pass when any assertion lists ``dimensions`` (and was evaluated),
one sample pass when any field-values assertion failed. The full documents go to the result document's top-level
``diagnostics`` section; each AssertionResult's ``details`` only gets a small reference.
A diagnostic that cannot be computed is reported as an error in its section and in the assertion's message; it never
changes the assertion's own status.
"""

from __future__ import annotations

import logging
import time

from airflow_dq.core.results import AssertionResult
from airflow_dq.engine import dimensions, samples
from airflow_dq.engine.context import Dataset, first_line
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.failing_rows import row_test

log = logging.getLogger(__name__)


def _note(result: AssertionResult, what: str, message: str) -> None:
    note = f"{what} not available: {message}"
    result.message = f"{result.message}; {note}" if result.message else note


def diagnose(ds: Dataset, assertions: list, results: dict[str, AssertionResult], into: dict) -> dict:
    """Compute the diagnostics of one dataset into ``into`` (assertion id → document); return pass statistics."""
    dim_requests, sample_requests = [], []
    for a in assertions:
        res = results.get(a.id)
        if a.kind != "field_values" or res is None or res.status not in ("pass", "fail"):
            continue
        wants_dims = bool((a.params or {}).get("dimensions"))
        wants_samples = res.status == "fail" and (res.failing_rows or 0) > 0
        if not (wants_dims or wants_samples):
            continue
        try:
            test = row_test(a, ds)
        except Exception as exc:  # NotEvaluable, or an engine bug that must not hide the results
            message = str(exc) if isinstance(exc, NotEvaluable) else f"internal error: {first_line(exc)}"
            into.setdefault(a.id, {})["error"] = message
            _note(res, "diagnostics", message)
            continue
        for wanted, module, bucket, what in ((wants_dims, dimensions, dim_requests, "dimensions"),
                                              (wants_samples, samples, sample_requests, "samples")):
            if not wanted:
                continue
            try:
                request = module.plan_request(a, ds, test)
            except NotEvaluable as exc:
                into.setdefault(a.id, {})[what] = {"error": str(exc)}
                _note(res, what, str(exc))
                continue
            except Exception as exc:  # an engine bug must not hide the results
                log.exception("unexpected error while planning %s of %s", what, a.id)
                into.setdefault(a.id, {})[what] = {"error": f"internal error: {first_line(exc)}"}
                continue
            if request is not None:
                bucket.append(request)
    stats = {"dimension_passes": 0, "sample_passes": 0}
    passes = (("dimensions", "dimension", dim_requests, lambda r: dimensions.run_dimensions(ds, r, results)),
              ("samples", "sample", sample_requests, lambda r: samples.run_samples(ds, r)))
    for what, stat, requests, run in passes:
        if not requests:
            continue
        started = time.perf_counter()
        try:
            documents = run(requests)
        except Exception as exc:  # an engine bug must not hide the results
            log.exception("unexpected error in the %s pass", what)
            documents = {r.assertion.id: {"error": f"internal error: {first_line(exc)}"} for r in requests}
        stats[f"{stat}_passes"] = 1
        stats[f"{stat}_ms"] = round((time.perf_counter() - started) * 1000, 3)
        for aid, doc in documents.items():
            into.setdefault(aid, {})[what] = doc
            if "error" in doc:
                _note(results[aid], what, doc["error"])
    for a in assertions:
        doc = into.get(a.id)
        if doc is None or a.id not in results:
            continue
        ref = {"section": f"diagnostics/{a.id}"}
        if "columns" in doc.get("dimensions", {}):
            ref["dimensions"] = [c["column"] for c in doc["dimensions"]["columns"]]
        if "rows" in doc.get("samples", {}):
            ref["samples"] = len(doc["samples"]["rows"])
        results[a.id].details["diagnostics"] = ref
    return stats
