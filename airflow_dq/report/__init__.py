"""Self-contained HTML report of a run (airflow-side; reads only the result document)."""

from __future__ import annotations

import os

from airflow_dq.core.results import RunResult
from airflow_dq.report.html import render_html

REPORT_NAME = "report.html"


def report_path_for(result_location: str) -> str:
    """The report's place next to the result document: ``.../result.json`` → ``.../report.html``."""
    return os.path.join(os.path.dirname(os.path.abspath(result_location)), REPORT_NAME)


def write_report(result: RunResult, path: str, title: str | None = None) -> str:
    """Render the report and write it atomically to ``path``; returns the absolute path."""
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(render_html(result, title))
    os.replace(tmp, path)
    return path


__all__ = ["render_html", "write_report", "report_path_for", "REPORT_NAME"]
