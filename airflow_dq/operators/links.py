"""Extra links on data-quality tasks: the run's result document and the Spark UI of the validation job.

Airflow 3 computes a link on the worker when the task finishes (``get_link`` on the executed operator) and
stores it as an XCom; the UI shows a button per link, disabled when the link is empty.
"""

from __future__ import annotations

import os
import urllib.request
from urllib.parse import urlparse

from airflow.sdk import BaseOperatorLink


def location_url(location: str | None) -> str:
    """A browser-openable URL for a result location: local paths become ``file://`` URLs."""
    if not location:
        return ""
    if urlparse(location).scheme in ("", "file") and not location.startswith("file:"):
        return "file://" + os.path.abspath(location)
    return location


def reachable(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout):  # noqa: S310 - http(s) URLs the job reported
            return True
    except Exception:
        return False


class DataQualityResultLink(BaseOperatorLink):
    """The result document (or report) of the task's data-quality run."""

    name = "Data quality result"

    def get_link(self, operator, *, ti_key) -> str:
        return (getattr(operator, "links", None) or {}).get("result", "")


class SparkUILink(BaseOperatorLink):
    """The Spark UI / history server page of the validation job, when one is known and reachable."""

    name = "Spark UI"

    def get_link(self, operator, *, ti_key) -> str:
        return (getattr(operator, "links", None) or {}).get("spark_ui", "")


def spark_ui_url(template: str | None, engine: dict) -> str:
    """The Spark UI link: ``template`` formatted with the job's ``application_id`` (a history server), else the
    live UI URL the engine reported if it still answers (a local job's UI is gone when the job ends)."""
    app_id = engine.get("application_id") or ""
    if template:
        try:
            return template.format(application_id=app_id, master=engine.get("master", ""))
        except (KeyError, IndexError):
            return template
    live = engine.get("ui_web_url") or engine.get("spark_ui_url") or ""
    return live if live and reachable(live) else ""
