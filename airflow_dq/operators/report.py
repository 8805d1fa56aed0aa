"""The markdown report shown in the task's "Rendered Templates" tab (field ``quality_report``)."""

from __future__ import annotations

from airflow_dq.core.results import RunResult

_ICON = {"pass": "PASS", "fail": "FAIL", "error": "ERROR"}


def _md(value) -> str:
    text = "" if value is None else str(value)
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= 80 else text[:79] + "…"


def markdown_report(result: RunResult, summary: dict) -> str:
    s = result.summary
    headline = f"## Data quality: {summary['outcome'].upper()}"
    counts = (f"{s['total']} assertions: {s['by_status']['pass']} passed, {s['by_status']['fail']} failed, "
              f"{s['by_status']['error']} not evaluable")
    lines = [headline, "", counts]
    gate = summary.get("gate") or {}
    if gate.get("reason"):
        lines += ["", f"Gate: {gate['reason']}"]
    if summary.get("empty_inputs"):
        lines += ["", "Empty input (0 rows): " + ", ".join(summary["empty_inputs"])]
    lines += ["", "| status | severity | assertion | column | actual | expected |", "|---|---|---|---|---|---|"]
    order = {"error": 0, "fail": 1, "pass": 2}
    for r in sorted(result.results, key=lambda r: (order[r.status], r.severity != "error")):
        actual = r.actual if r.status != "error" else r.message
        lines.append(f"| {_ICON[r.status]} | {r.severity} | {_md(r.name)} | {_md(r.column)} | {_md(actual)} "
                     f"| {_md(r.expected)} |")
    if summary.get("result_location"):
        lines += ["", f"Result document: `{summary['result_location']}`"]
    return "\n".join(lines)
