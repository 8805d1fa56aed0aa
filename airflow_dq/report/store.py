"""Writing the HTML report next to a task's result document (any store the result location supports)."""

from __future__ import annotations

import logging
from dataclasses import replace

from airflow_dq.core.results import RunResult
from airflow_dq.report import REPORT_NAME
from airflow_dq.report.html import render_html

log = logging.getLogger(__name__)


def _sibling(uri: str, name: str) -> str:
    head, sep, tail = uri.partition("?")
    return head.rsplit("/", 1)[0] + "/" + name + (sep + tail if sep else "")


def write_report_next_to(result: RunResult, location, title: str | None = None) -> str | None:
    """Write ``report.html`` beside the result document of ``location`` (a ``hooks.result_store.ResultLocation``).

    Returns where it is (local path, or the URI the driver uses), or None when it could not be written: the report
    is a convenience and never fails the task (the reason is logged).
    """
    report = replace(location, spark_uri=_sibling(location.spark_uri, REPORT_NAME),
                     reader_uri=_sibling(location.reader_uri, REPORT_NAME))
    try:
        report.path().write_text(render_html(result, title), encoding="utf-8")
    except Exception as exc:  # fsspec raises many kinds; the run's outcome must not depend on the report
        log.warning("could not write the data quality report to %s: %s", report.spark_uri, exc)
        return None
    return report.display
