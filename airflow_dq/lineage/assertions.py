"""Assertion results → DataQualityAssertionsDatasetFacet entries and TestRunFacet executions.

``success`` and ``severity`` are independent (a warn assertion that failed is ``success: false, severity: warn``).
An assertion that could not be evaluated (result status ``error``) is never reported as a pass: it becomes
``success: false`` / test ``status: fail``, with ``params.status: "error"`` and ``params.message`` saying why.
An assertion that was planned but never ran (the Spark job failed before any result) is a test with status ``skip``
and is left out of the dataset facet, which can only say pass or fail.
"""

from __future__ import annotations

import json
import math
from typing import Any

from openlineage.client.generated.data_quality_assertions_dataset import Assertion as OLAssertion
from openlineage.client.generated.test_run import TestExecution

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.results import AssertionResult, json_safe

_FIELD_VALUE_TYPES = {"is_not_null": "not_null", "is_null": "null", "in": "accepted_values",
                      "not_in": "rejected_values"}
_TEST_STATUS = {"pass": "pass", "fail": "fail", "error": "fail"}


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def classify(a: Assertion) -> str:
    """A normalised test classification, e.g. ``not_null``, ``unique``, ``row_count``, ``accepted_values``."""
    if a.kind == "volume":
        return "row_count"
    if a.kind == "sql":
        return "custom_sql"
    if a.kind in ("freshness", "schema"):
        return a.kind
    cond = a.condition
    ctype = cond.type if cond else None
    if a.kind == "field_metric":
        value = _number(cond.value) if cond else None
        if a.metric in ("null_count", "null_percentage") and ctype in ("equal_to", "less_than_or_equal_to") \
                and value == 0:
            return "not_null"
        if a.metric == "unique_percentage" and ctype in ("equal_to", "greater_than_or_equal_to") and value == 100:
            return "unique"
        return a.metric or "field_metric"
    if a.kind == "field_values":
        if a.params.get("field_transform") == "length":
            return ctype if ctype and ctype.startswith("length_") else f"length_{ctype}"
        return _FIELD_VALUE_TYPES.get(ctype, ctype or "field_values")
    return a.kind


def content_of(a: Assertion) -> tuple[str, str]:
    """(content, contentType): the SQL of a sql assertion, else the assertion as declared, as JSON."""
    if a.kind == "sql" and a.params.get("statement"):
        return str(a.params["statement"]), "sql"
    declared = a.declared or a.to_dict()
    return json.dumps(json_safe(declared), sort_keys=True), "json"


def params_of(a: Assertion, r: AssertionResult | None) -> dict:
    """Assertion-specific inputs, and for a result the status and counts the facet has no field for."""
    out: dict[str, Any] = {"id": a.id, "kind": a.kind}
    if a.metric:
        out["metric"] = a.metric
    if a.condition is not None:
        out["condition"] = a.condition.to_dict()
    if a.filter:
        out["filter"] = a.filter
    if a.kind == "field_values":
        out["failure_threshold"] = a.failure_threshold.to_dict()
        if a.exclude_nulls:
            out["exclude_nulls"] = True
    for key, value in a.params.items():
        if key != "statement" and value is not None:
            out[key] = value
    if r is not None:
        out["status"] = r.status
        for key in ("failing_rows", "total_rows", "message"):
            value = getattr(r, key)
            if value is not None:
                out[key] = value
    return json_safe(out)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    safe = json_safe(value)
    return safe if isinstance(safe, str) else json.dumps(safe)


def dataset_assertion(a: Assertion, r: AssertionResult) -> OLAssertion:
    content, content_type = content_of(a)
    return OLAssertion(
        assertion=classify(a),
        success=r.status == "pass",
        column=a.field or None,
        severity=a.severity,
        name=r.name or a.display_name,
        description=a.description,
        expected=r.expected,
        actual=None if r.status == "error" else _text(r.actual),
        content=content,
        contentType=content_type,
        params=params_of(a, r),
    )


def execution_entry(a: Assertion, r: AssertionResult | None, dataset: tuple[str, str] | None = None) -> TestExecution:
    """One TestRunFacet entry; ``r`` None means the assertion was planned but never ran (``skip``).

    The run-level facet has no dataset or column field: ``params`` carries ``dataset_namespace``, ``dataset_name``
    (the input dataset the test is about) and ``column``."""
    content, content_type = content_of(a)
    params = params_of(a, r)
    if dataset:
        params["dataset_namespace"], params["dataset_name"] = dataset
    if a.field:
        params["column"] = a.field
    if r is None:
        params["status"] = "skip"
    return TestExecution(
        name=r.name if r is not None else a.display_name,
        status=_TEST_STATUS[r.status] if r is not None else "skip",
        severity=a.severity,
        type=classify(a),
        description=a.description,
        expected=r.expected if r is not None else (a.condition.describe() if a.condition else None),
        actual=None if r is None or r.status == "error" else _text(r.actual),
        content=content,
        contentType=content_type,
        params=params,
    )
