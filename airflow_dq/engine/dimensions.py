"""Dimensional analysis: per-group failing/total counts and an impact score for field-values assertions.

All dimension columns of all assertions of a dataset are evaluated in ONE grouping pass (GROUPING SETS: one set per
dimension column plus the grand total). The grand total is checked against the assertion's own counts from the
fused scan; a mismatch is reported as an error instead of numbers nobody can trust.

Impact score (OpenMetadata's dimensional analysis, seed 003):
``impact = failure_rate² × volume_factor × sample_weight / 1.5``, in [0, 1].
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.results import AssertionResult
from airflow_dq.engine.aggregates import count_where
from airflow_dq.engine.columns import find_field, quoted
from airflow_dq.engine.context import Dataset, first_line
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.failing_rows import RowTest
from airflow_dq.engine.samples import mask, resolve_masks, settings

log = logging.getLogger(__name__)

DEFAULT_TOP_N = 5
MAX_TOP_N = 1000
MAX_GROUP_ROWS = 100_000  # rows the grouping pass may return (all groups of all dimension columns of a dataset)

# Volume tiers: a group with fewer rows than the bound gets the factor; 100,000 rows and more get 1.5.
VOLUME_TIERS = ((10, 0.25), (100, 0.5), (1_000, 0.75), (10_000, 1.0), (100_000, 1.25))
MAX_VOLUME_FACTOR = 1.5
# Sample weight: a credibility discount that grows linearly to 1 at 30 rows (the usual "large enough sample").
CREDIBLE_ROWS = 30
NORMALIZER = 1.5  # = MAX_VOLUME_FACTOR × max sample weight: the impact of a 100%-failing large group is 1.0


def volume_factor(rows: int) -> float:
    for bound, factor in VOLUME_TIERS:
        if rows < bound:
            return factor
    return MAX_VOLUME_FACTOR


def sample_weight(rows: int) -> float:
    return min(1.0, rows / CREDIBLE_ROWS) if rows > 0 else 0.0


def impact_score(failing: int, total: int) -> float:
    if total <= 0:
        return 0.0
    rate = failing / total
    return rate * rate * volume_factor(total) * sample_weight(total) / NORMALIZER


@dataclass
class DimensionRequest:
    assertion: Assertion
    test: RowTest
    columns: list[str]
    top_n: int
    masks: dict[str, str]
    aliases: list[str] = field(default_factory=list)


def plan_request(a: Assertion, ds: Dataset, test: RowTest) -> DimensionRequest | None:
    params = a.params or {}
    names = params.get("dimensions") or []
    if not names:
        return None
    top_n = params.get("top_n", DEFAULT_TOP_N)
    if isinstance(top_n, bool) or not isinstance(top_n, int) or not 1 <= top_n <= MAX_TOP_N:
        raise NotEvaluable(f"top_n {top_n!r} must be a whole number from 1 to {MAX_TOP_N}")
    fields = [find_field(ds.schema, c) for c in names]
    for f in fields:
        if isinstance(f.dataType, T.MapType):
            raise NotEvaluable(f"dimension column {f.name!r} is a map ({f.dataType.simpleString()}); maps cannot be "
                               "grouped")
    columns = list(dict.fromkeys(f.name for f in fields))
    # A column masked in the samples is masked in the group labels too (grouped by the masked value).
    masks = resolve_masks(ds.schema, settings(a)["mask"])
    return DimensionRequest(a, test, columns, top_n, {c: masks[c] for c in columns if c in masks})


def _group(value, failing: int, total: int, threshold) -> dict:
    return {
        "value": value,
        "status": "pass" if threshold.allows(failing, total) else "fail",
        "failing_rows": failing,
        "total_rows": total,
        "failure_rate": failing / total if total else 0.0,
        "impact": impact_score(failing, total),
    }


def rank_groups(groups: list[tuple], top_n: int, threshold) -> list[dict]:
    """``(value, failing, total)`` per group → the top N by impact, the rest aggregated as one "Others" entry."""
    scored = [_group(v, f, t, threshold) for v, f, t in groups if t > 0]
    scored.sort(key=lambda g: (-g["impact"], -g["failing_rows"], -g["total_rows"], str(g["value"])))
    top, rest = scored[:top_n], scored[top_n:]
    if rest:
        others = _group("Others", sum(g["failing_rows"] for g in rest), sum(g["total_rows"] for g in rest), threshold)
        others.update(others=True, groups=len(rest))
        top.append(others)
    return top


def grouping_frame(ds: Dataset, requests: list[DimensionRequest]) -> DataFrame:
    """The single aggregation of a dataset's dimension pass: GROUPING SETS ((d0), (d1), ..., ()) with per-request
    total (``_t{j}``) and failing (``_x{j}``) counts and ``_gid`` telling which set a row belongs to."""
    keys: dict[tuple[str, str | None], str] = {}
    for req in requests:
        req.aliases = [keys.setdefault((c, req.masks.get(c)), f"_d{len(keys)}") for c in req.columns]
    aliases = list(keys.values())
    frame = ds.df.select(
        *[mask(F.col(quoted(c)), m).alias(alias) for (c, m), alias in keys.items()],
        *[req.test.scope.alias(f"_s{j}") for j, req in enumerate(requests)],
        *[req.test.failing.alias(f"_f{j}") for j, req in enumerate(requests)],
    )
    sets = [[alias] for alias in aliases] + [[]]
    return frame.groupingSets(sets, *aliases).agg(
        F.grouping_id().alias("_gid"),
        *[count_where(F.col(f"_s{j}")).alias(f"_t{j}") for j in range(len(requests))],
        *[count_where(F.col(f"_f{j}")).alias(f"_x{j}") for j in range(len(requests))],
    )


def run_dimensions(ds: Dataset, requests: list[DimensionRequest],
                   results: dict[str, AssertionResult]) -> dict[str, dict]:
    """One GROUPING SETS pass for every request of a dataset → dimensions document per assertion id."""
    if not requests:
        return {}
    try:
        grouped = grouping_frame(ds, requests)
        rows = grouped.limit(MAX_GROUP_ROWS + 1).collect()
    except Exception as exc:
        log.warning("dimension pass failed: %s", first_line(exc))
        return {r.assertion.id: {"error": f"Spark could not compute the dimensions: {first_line(exc)}"}
                for r in requests}
    aliases = list(dict.fromkeys(alias for req in requests for alias in req.aliases))
    keys = {(c, req.masks.get(c)): alias for req in requests for c, alias in zip(req.columns, req.aliases)}
    if len(rows) > MAX_GROUP_ROWS:
        names = sorted({c for c, _ in keys})
        return {r.assertion.id: {"error": f"dimension columns {', '.join(names)} have more than {MAX_GROUP_ROWS} "
                                          "groups in total; choose lower-cardinality columns"} for r in requests}
    k = len(aliases)
    everything = (1 << k) - 1
    by_alias: dict[str, list] = {alias: [] for alias in aliases}
    grand = None
    for row in rows:
        gid = row["_gid"]
        if gid == everything:
            grand = row
            continue
        for i, alias in enumerate(aliases):  # bit (k-1-i) is 0 for the grouped column
            if gid == everything ^ (1 << (k - 1 - i)):
                by_alias[alias].append(row)
    out = {}
    for j, req in enumerate(requests):
        a, res = req.assertion, results[req.assertion.id]
        totals = (grand[f"_x{j}"], grand[f"_t{j}"]) if grand is not None else (0, 0)
        if totals != (res.failing_rows or 0, res.total_rows or 0):
            out[a.id] = {"error": f"the dimension pass counted {totals[0]} failing of {totals[1]} rows, the assertion "
                                  f"{res.failing_rows} of {res.total_rows}; dimensions not reported"}
            continue
        columns = []
        for name, alias in zip(req.columns, req.aliases):
            groups = [(r[alias], r[f"_x{j}"], r[f"_t{j}"]) for r in by_alias[alias]]
            ranked = rank_groups(groups, req.top_n, a.failure_threshold)
            populated = [g for g in groups if g[2] > 0]
            columns.append({
                "column": name,
                "masked": req.masks.get(name),
                "group_count": len(populated),
                "failing_groups": sum(1 for _, f, t in populated if not a.failure_threshold.allows(f, t)),
                "groups": ranked,
            })
        out[a.id] = {"top_n": req.top_n, "columns": columns}
    return out
