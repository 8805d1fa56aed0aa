"""Exact or approximate distinct counts, chosen explicitly through the plan's ``options``.

``plan.options["distinct"]``: ``"exact"`` (the default: ``count(DISTINCT x)``, which makes Spark shuffle the distinct
values) or ``"approximate"`` (HyperLogLog++, ``approx_count_distinct`` with ``options["distinct_rsd"]``, default
0.01 relative standard deviation; no shuffle of values). Approximate results say so in their ``details``.
"""

from __future__ import annotations

from pyspark.sql import functions as F

from airflow_dq.engine.columns import quoted
from airflow_dq.engine.context import Agg
from airflow_dq.engine.errors import NotEvaluable

MODES = ("exact", "approximate")
DEFAULT_RSD = 0.01


def mode(options: dict | None) -> tuple[str, float]:
    """(mode, rsd) from plan options; a bad value is refused with a message naming the option."""
    options = options or {}
    value = options.get("distinct", "exact") or "exact"
    if value not in MODES:
        raise NotEvaluable(f"plan option distinct={value!r} is not one of {', '.join(MODES)}")
    rsd = options.get("distinct_rsd", DEFAULT_RSD)
    if isinstance(rsd, bool) or not isinstance(rsd, (int, float)) or not 0 < rsd < 0.4:
        raise NotEvaluable(f"plan option distinct_rsd={rsd!r} must be a number in (0, 0.4)")
    return value, float(rsd)


def is_distinct(agg) -> bool:
    return isinstance(agg, Agg) and agg.key.startswith("distinct|")


def approximate(agg: Agg, scope_of, rsd: float) -> Agg:
    """The HyperLogLog++ twin of a ``distinct|column|filter`` aggregate (engine/aggregates.py keys)."""
    _, column, sql_filter = agg.key.split("|", 2)
    scope = scope_of(sql_filter or None)
    return Agg(f"approx_distinct|{column}|{sql_filter}|{rsd}",
               F.approx_count_distinct(F.when(scope, F.col(quoted(column))), rsd=rsd))
