"""The self-contained HTML report of one run: summary by severity and status, each assertion with expected vs
actual, dimension impact as bar charts, failing-row samples as tables.

Everything is inline (CSS, SVG); a Content-Security-Policy forbids any fetch, so the report can be opened from a
file share, attached to a ticket or served as a static file without calling anything.
"""

from __future__ import annotations

import json
from html import escape

from airflow_dq.core.results import STATUSES, AssertionResult, RunResult
from airflow_dq.report.chart import impact_chart, label_of

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_ORDER = {"fail": 0, "error": 1, "pass": 2}
_OUTCOME_STATUS = {"pass": "pass", "warn": "warn", "fail": "fail"}

STYLE = """
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#bf8700;--error:#8250df;--muted:#57606a;--line:#d0d7de}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
color:#1f2328;background:#f6f8fa}main{max-width:1180px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}h3{font-size:15px;margin:14px 0 6px}
.meta{color:var(--muted);font-size:12.5px}.badge{display:inline-block;padding:1px 9px;border-radius:11px;color:#fff;
font-weight:600;font-size:12px;letter-spacing:.02em}.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}
.badge.error{background:var(--error)}.badge.warn{background:var(--warn)}.sev{font-size:12px;color:var(--muted);
border:1px solid var(--line);border-radius:10px;padding:0 7px;margin-left:6px}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border:1px solid var(--line);border-radius:8px;
padding:12px 16px;min-width:140px}.card .n{font-size:26px;font-weight:700}.card.pass .n{color:var(--pass)}
.card.fail .n{color:var(--fail)}.card.error .n{color:var(--error)}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:5px 10px;text-align:left;vertical-align:top}
th{background:#f0f3f6;font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}
section.assertion{background:#fff;border:1px solid var(--line);border-left:5px solid var(--pass);border-radius:8px;
padding:12px 16px;margin:12px 0}section.assertion.fail{border-left-color:var(--fail)}
section.assertion.error{border-left-color:var(--error)}section.assertion.warnsev.fail{border-left-color:var(--warn)}
.kv{display:grid;grid-template-columns:140px 1fr;gap:2px 12px;margin:8px 0}.kv dt{color:var(--muted)}.kv dd{margin:0}
.msg{background:#fff8c5;border:1px solid #d4a72c66;border-radius:6px;padding:6px 10px;margin:6px 0}
.chart .track{fill:#eef1f4}.chart .bar.fail{fill:var(--fail)}.chart .bar.pass{fill:var(--pass)}
.chart .bar.others{fill:#8c959f}.chart text{font:12px system-ui,sans-serif;fill:#1f2328}.chart .val{fill:var(--muted)}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}.masked{color:var(--muted);font-style:italic}
.null{color:var(--muted)}
"""


def _num(value) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    return str(value)


def _cell(value) -> str:
    if value is None:
        return '<span class="null">NULL</span>'
    if isinstance(value, (dict, list)):
        return f"<code>{escape(json.dumps(value, default=str))}</code>"
    return escape(_num(value))


def _summary(result: RunResult) -> str:
    s = result.summary
    cards = "".join(f'<div class="card {st}"><div class="n">{s["by_status"][st]:,}</div><div>{label}</div></div>'
                    for st, label in (("pass", "passed"), ("fail", "failed"), ("error", "not evaluable")))
    rows = "".join(
        f"<tr><th>{escape(sev)}</th>" + "".join(f'<td class="num">{counts.get(st, 0):,}</td>' for st in STATUSES)
        + f'<td class="num">{sum(counts.values()):,}</td></tr>'
        for sev, counts in s["by_severity"].items())
    table = ("<table><thead><tr><th>severity</th>" + "".join(f"<th>{st}</th>" for st in STATUSES)
             + "<th>total</th></tr></thead><tbody>" + rows + "</tbody></table>")
    return f'<div class="cards">{cards}</div><h3>By severity and status</h3>{table}'


def _dimension_block(doc: dict) -> str:
    if "error" in doc:
        return f'<h3>Dimensions</h3><div class="msg">Dimensions not available: {escape(doc["error"])}</div>'
    out = []
    for col in doc.get("columns", []):
        masked = f' <span class="masked">(labels masked: {escape(col["masked"])})</span>' if col.get("masked") else ""
        out.append(f'<h3>Impact by <code>{escape(col["column"])}</code>{masked}</h3>'
                   f'<p class="meta">{col.get("failing_groups", 0):,} of {col.get("group_count", 0):,} groups fail; '
                   f'top {doc.get("top_n")} by impact</p>')
        groups = col.get("groups", [])
        out.append(impact_chart(col["column"], groups))
        rows = "".join(
            f'<tr><td>{escape(label_of(g))}</td><td><span class="badge {escape(g["status"])}">{escape(g["status"])}'
            f'</span></td><td class="num">{g["failing_rows"]:,}</td><td class="num">{g["total_rows"]:,}</td>'
            f'<td class="num">{g["failure_rate"] * 100:.2f}%</td><td class="num">{g["impact"]:.3g}</td></tr>'
            for g in groups)
        out.append("<table><thead><tr><th>group</th><th>status</th><th>failing rows</th><th>rows</th>"
                   f"<th>failure rate</th><th>impact</th></tr></thead><tbody>{rows}</tbody></table>")
    return "".join(out)


def _samples_block(doc: dict, failing: int | None) -> str:
    if "error" in doc:
        return f'<h3>Failing rows</h3><div class="msg">Samples not available: {escape(doc["error"])}</div>'
    rows = doc.get("rows", [])
    masked = doc.get("masked") or {}
    head = "".join(f"<th>{escape(c)}" + (f' <span class="masked">({escape(masked[c])})</span>' if c in masked else "")
                   + "</th>" for c in doc.get("columns", []))
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    of = f" of {failing:,}" if isinstance(failing, int) else ""
    return (f"<h3>Failing rows: {len(rows):,} example(s){of}</h3>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _assertion(r: AssertionResult, diagnostics: dict) -> str:
    sev = "warnsev" if r.severity == "warn" else "errsev"
    facts = [("entity", escape(r.entity)), ("column", f"<code>{escape(r.column)}</code>" if r.column else "—"),
             ("expected", escape(r.expected or "—")),
             ("actual", escape(_num(r.actual)) if r.status != "error" else "—")]
    if r.failing_rows is not None:
        rate = f" ({r.failing_rows * 100.0 / r.total_rows:.2f}%)" if r.total_rows else ""
        facts.append(("failing rows", f"{r.failing_rows:,} of {_num(r.total_rows)}{rate}"))
    kv = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    msg = f'<div class="msg">{escape(r.message)}</div>' if r.message else ""
    parts = [f'<section class="assertion {escape(r.status)} {sev}" id="a-{escape(r.assertion_id)}">',
             f'<h3><span class="badge {escape(r.status)}">{escape(r.status.upper())}</span> {escape(r.name)}'
             f'<span class="sev">{escape(r.severity)}</span></h3><dl class="kv">{kv}</dl>{msg}']
    doc = diagnostics.get(r.assertion_id) or {}
    if "error" in doc:
        parts.append(f'<div class="msg">Diagnostics not available: {escape(doc["error"])}</div>')
    if "dimensions" in doc:
        parts.append(_dimension_block(doc["dimensions"]))
    if "samples" in doc:
        parts.append(_samples_block(doc["samples"], r.failing_rows))
    parts.append("</section>")
    return "".join(parts)


def render_html(result: RunResult, title: str | None = None) -> str:
    outcome = result.outcome
    title = title or f"Data quality report: {result.run_id}"
    ordered = sorted(result.results, key=lambda r: (_ORDER.get(r.status, 3), r.severity != "error"))
    entities = sorted({r.entity for r in result.results})
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p>Outcome <span class="badge {_OUTCOME_STATUS.get(outcome, "error")}" id="outcome">'
        f'{escape(outcome.upper())}</span></p>',
        f'<p class="meta">run <code>{escape(result.run_id)}</code> · reference time {escape(result.reference_time)}'
        f' · started {escape(result.started_at)} · finished {escape(result.finished_at)} · '
        f'{len(entities)} dataset(s): {escape(", ".join(entities))}</p>',
        "<h2>Summary</h2>", _summary(result),
        "<h2>Assertions</h2>",
        *[_assertion(r, result.diagnostics or {}) for r in ordered],
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body><main>"
            + "".join(body) + "</main></body></html>\n")
