"""The task's extra link to its HTML report (set by the operator in ``operator.links["report"]``)."""

from __future__ import annotations

from airflow.sdk import BaseOperatorLink


class DataQualityReportLink(BaseOperatorLink):
    """The self-contained HTML report of the task's data-quality run."""

    name = "Data quality report"

    def get_link(self, operator, *, ti_key) -> str:
        return (getattr(operator, "links", None) or {}).get("report", "")
