"""Human and machine summaries of a run result: the results table and the XCom summary."""

from __future__ import annotations

from airflow_dq.core.results import AssertionResult, RunResult, json_safe

_MARK = {"pass": "PASS", "fail": "FAIL", "error": "ERROR"}


def _cell(value, width: int) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def results_table(result: RunResult, only: list[AssertionResult] | None = None) -> str:
    rows = only if only is not None else result.results
    header = ("STATUS", "SEV", "ASSERTION", "COLUMN", "ACTUAL", "EXPECTED")
    widths = (6, 5, 44, 16, 14, 40)
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        actual = r.actual if r.status != "error" else "-"
        cells = (_MARK[r.status], r.severity, r.name, r.column or "", actual, r.expected or "")
        lines.append("  ".join(_cell(c, w).ljust(w) for c, w in zip(cells, widths)).rstrip())
        if r.message:
            lines.append(f"{'':>8}↳ {r.message}")
    s = result.summary
    lines.append("")
    lines.append(f"{s['total']} assertions: {s['by_status']['pass']} passed, {s['by_status']['fail']} failed, "
                 f"{s['by_status']['error']} not evaluable → outcome {s['outcome'].upper()}")
    return "\n".join(lines)


def xcom_summary(result: RunResult, result_location: str | None) -> dict:
    """Small, JSON-safe summary for XCom: counts, outcome, and one line per assertion that did not pass."""
    s = result.summary
    return json_safe({
        "run_id": result.run_id,
        "outcome": s["outcome"],
        "total": s["total"],
        "by_status": s["by_status"],
        "by_severity": s["by_severity"],
        "failed": [
            {"name": r.name, "entity": r.entity, "column": r.column, "severity": r.severity, "status": r.status,
             "actual": r.actual, "expected": r.expected, "message": r.message}
            for r in result.results if not r.success
        ],
        "result_location": result_location,
    })
