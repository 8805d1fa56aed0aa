"""OpenLineage for DataQualityOperator: the methods the Airflow OpenLineage provider's DefaultExtractor calls.

* ``get_openlineage_facets_on_start``: the validated datasets (names, subsets), from the compiled spec — no Spark;
* ``..._on_complete`` / ``..._on_failure``: the same datasets with the assertions, metrics and test facets of the
  run (``self.plan`` / ``self.run_result``, kept by the operator also when it raises on a data failure). When Spark
  failed before any result, every planned assertion is a ``skip`` test.

Lineage never breaks a task: any exception while building facets is logged and an empty OperatorLineage returned.
``_openlineage_conf()`` gives the spark-submit conf that links a Spark-side OpenLineage listener to this task
(``spark.openlineage.parentJobNamespace`` ... ``rootParentRunId``), through the provider's own helper.
"""

from __future__ import annotations

import logging
from typing import Any

from airflow_dq.lineage.facets import build_lineage

log = logging.getLogger(__name__)


class DataQualityLineageMixin:
    """Mixed into DataQualityOperator (expects ``spec``, ``sources``, ``conf``, ``plan``, ``run_result``)."""

    def _dq_lineage_plan(self):
        plan = getattr(self, "plan", None)
        if plan is not None:
            return plan
        from airflow_dq.spec.build import build_plan, load_any

        # before execute (the START event): the same assertions execute() will plan, without Spark
        loader = getattr(self, "load_assertions", None)
        assertions = loader() if callable(loader) else load_any(self.spec)
        filters = getattr(self, "filters", None)
        if filters:
            from airflow_dq.operators.templating import apply_filters

            assertions = apply_filters(assertions, filters)
        return build_plan(assertions, self.sources or {})

    def _dq_build_lineage(self, plan, result, tests: bool):
        return build_lineage(plan, result, spark_conf=getattr(self, "conf", None), tests=tests)

    def _dq_operator_lineage(self, when: str):
        from airflow.providers.openlineage.extractors import OperatorLineage

        try:
            plan = self._dq_lineage_plan()
            result = getattr(self, "run_result", None) if when != "start" else None
            lineage = self._dq_build_lineage(plan, result, tests=when != "start")
            return OperatorLineage(inputs=lineage.inputs, run_facets=lineage.run_facets)
        except Exception as exc:  # lineage must never break (or change the outcome of) the task
            logger = getattr(self, "log", log)
            logger.warning("airflow-dq: could not build OpenLineage facets on %s (%s: %s); emitting none",
                           when, type(exc).__name__, exc, exc_info=True)
            return OperatorLineage()

    def get_openlineage_facets_on_start(self):
        return self._dq_operator_lineage("start")

    def get_openlineage_facets_on_complete(self, task_instance):
        return self._dq_operator_lineage("complete")

    def get_openlineage_facets_on_failure(self, task_instance):
        return self._dq_operator_lineage("failure")

    def _openlineage_conf(self, context: Any = None) -> dict[str, str]:
        """``spark.openlineage.parent*`` / ``rootParent*`` keys for spark-submit, unless the provider is disabled or
        unconfigured (``is_disabled()``: no events of the task to nest under) or the user's own ``conf`` already
        sets parent information. Empty when it cannot be determined."""
        user_conf = dict(getattr(self, "conf", None) or {})
        try:
            from airflow.providers.openlineage.conf import is_disabled

            if is_disabled():
                return {}
            from airflow.providers.common.compat.openlineage.utils.spark import (
                inject_parent_job_information_into_spark_properties,
            )

            if context is None:
                from airflow.sdk import get_current_context

                context = get_current_context()
            merged = inject_parent_job_information_into_spark_properties(user_conf, context)
        except Exception as exc:
            logger = getattr(self, "log", log)
            logger.warning("airflow-dq: no OpenLineage parent job information for Spark (%s: %s)",
                           type(exc).__name__, exc)
            return {}
        return {k: str(v) for k, v in merged.items() if k.startswith("spark.openlineage.") and k not in user_conf}
