"""Which columns a fused aggregation actually reads.

Spark's optimizer prunes a file scan to the columns the aggregate expressions reference (ColumnPruning, then the
file source's required schema), so the fused scan never reads a column that no remaining aggregate needs; columns
answered from Parquet footers (engine/footer_stats.py) drop out of the scan the same way. This module only reports
the pruned column list, read from the already-optimized plan (no extra analysis, no Spark job).
"""

from __future__ import annotations


def columns_read(frame) -> list[str] | None:
    """Sorted names of the columns referenced by the aggregation ``frame`` (None if the plan cannot be inspected)."""
    try:
        refs = frame._jdf.queryExecution().optimizedPlan().references().toSeq()
        return sorted({str(refs.apply(i).name()) for i in range(refs.size())})
    except Exception:  # Spark Connect or an internal API change: the report is optional
        return None
