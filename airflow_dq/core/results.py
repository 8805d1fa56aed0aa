"""The result document written by the Spark job and read back by the Airflow side."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

RESULT_FORMAT = "airflow-dq/result"
RESULT_VERSION = 1
STATUSES = ("pass", "fail", "error")


class ResultError(ValueError):
    """A result document is missing, malformed or belongs to another run: it is never trusted."""


def json_safe(value: Any) -> Any:
    """Values as they can go into JSON: NaN/inf become strings, dates ISO strings, decimals floats/strings."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        return value
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    try:
        as_float = float(value)  # Decimal and numpy-likes
    except (TypeError, ValueError):
        return str(value)
    return as_float if str(value) == str(as_float) else str(value)


@dataclass
class AssertionResult:
    assertion_id: str
    name: str
    kind: str
    type: str
    entity: str
    severity: str
    status: str
    column: str | None = None
    actual: Any = None
    expected: str | None = None
    failing_rows: int | None = None
    total_rows: int | None = None
    message: str | None = None
    duration_ms: float | None = None
    details: dict = field(default_factory=dict)
    assertion: dict = field(default_factory=dict)

    @property
    def success(self) -> bool:
        return self.status == "pass"

    def to_dict(self) -> dict:
        return {
            "assertion_id": self.assertion_id,
            "name": self.name,
            "kind": self.kind,
            "type": self.type,
            "entity": self.entity,
            "column": self.column,
            "severity": self.severity,
            "status": self.status,
            "success": self.success,
            "actual": json_safe(self.actual),
            "expected": self.expected,
            "failing_rows": self.failing_rows,
            "total_rows": self.total_rows,
            "message": self.message,
            "duration_ms": self.duration_ms,
            "details": json_safe(self.details),
            "assertion": self.assertion,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "AssertionResult":
        if d.get("status") not in STATUSES:
            raise ResultError(f"assertion {d.get('assertion_id')!r} has an unknown status {d.get('status')!r}")
        return cls(**{k: d.get(k) for k in (
            "assertion_id", "name", "kind", "type", "entity", "severity", "status", "column", "actual", "expected",
            "failing_rows", "total_rows", "message", "duration_ms")}, details=d.get("details") or {},
            assertion=d.get("assertion") or {})


def outcome(results: list[AssertionResult]) -> str:
    """``fail`` if an error-severity assertion did not pass, else ``warn`` if any did not pass, else ``pass``."""
    if any(r.severity == "error" and not r.success for r in results):
        return "fail"
    if any(not r.success for r in results):
        return "warn"
    return "pass"


def summarize(results: list[AssertionResult]) -> dict:
    by_status = {s: 0 for s in STATUSES}
    by_severity = {sev: {s: 0 for s in STATUSES} for sev in ("error", "warn")}
    for r in results:
        by_status[r.status] += 1
        by_severity.setdefault(r.severity, {s: 0 for s in STATUSES})[r.status] += 1
    return {"total": len(results), "outcome": outcome(results), "by_status": by_status, "by_severity": by_severity}


@dataclass
class RunResult:
    run_id: str
    reference_time: str
    started_at: str
    finished_at: str
    results: list[AssertionResult]
    engine: dict = field(default_factory=dict)
    datasets: list[dict] = field(default_factory=list)
    # assertion id → {"dimensions": ..., "samples": ...}: large, so kept out of the per-assertion details
    diagnostics: dict = field(default_factory=dict)

    @property
    def summary(self) -> dict:
        return summarize(self.results)

    @property
    def outcome(self) -> str:
        return outcome(self.results)

    def to_dict(self) -> dict:
        return {
            "format": RESULT_FORMAT,
            "version": RESULT_VERSION,
            "run_id": self.run_id,
            "reference_time": self.reference_time,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "summary": self.summary,
            "engine": json_safe(self.engine),
            "datasets": json_safe(self.datasets),
            "diagnostics": json_safe(self.diagnostics),
            "results": [r.to_dict() for r in self.results],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    @classmethod
    def from_dict(cls, data: dict, expected_run_id: str | None = None) -> "RunResult":
        if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
            raise ResultError("not an airflow-dq result document")
        if data.get("version") != RESULT_VERSION:
            raise ResultError(f"result version {data.get('version')!r} is not supported")
        if expected_run_id is not None and data.get("run_id") != expected_run_id:
            raise ResultError(f"result belongs to run {data.get('run_id')!r}, not to this run {expected_run_id!r}")
        try:
            return cls(
                run_id=data["run_id"],
                reference_time=data["reference_time"],
                started_at=data["started_at"],
                finished_at=data["finished_at"],
                results=[AssertionResult.from_dict(r) for r in data["results"]],
                engine=data.get("engine") or {},
                datasets=data.get("datasets") or [],
                diagnostics=data.get("diagnostics") or {},
            )
        except (KeyError, TypeError) as exc:
            raise ResultError(f"result document is incomplete: {exc}") from None

    @classmethod
    def from_json(cls, text: str, expected_run_id: str | None = None) -> "RunResult":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResultError(f"result document is not valid JSON (truncated?): {exc}") from None
        return cls.from_dict(data, expected_run_id)
