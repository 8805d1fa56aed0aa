"""Failing-row samples of field-values assertions: at most one extra pass per dataset, only when something failed.

The pass tags every row with the assertions it fails, keeps the first ``limit`` rows per assertion (data order) and
collects only the selected columns. Masked columns are masked by Spark on the executors, so raw values of sensitive
columns never reach the driver or the result document.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.assertions import Assertion
from airflow_dq.engine.columns import find_field, quoted
from airflow_dq.engine.context import Dataset, first_line
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.failing_rows import RowTest

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 10
MAX_LIMIT = 1000
MAX_DEFAULT_COLUMNS = 20  # without an explicit column list: the assertion's field first, then schema order
MAX_TEXT = 200  # longer text values are cut (the result document stays bounded)
MASKS = ("redact", "hash", "partial")


def mask(col: Column, method: str | None) -> Column:
    """``redact`` → ``****``; ``hash`` → ``sha256:`` + 16 hex digits (stable: equal values, equal hashes);
    ``partial`` → ``****`` + the last 4 characters. NULL stays NULL."""
    if not method:
        return col
    text = col.cast("string")
    if method == "redact":
        return F.when(col.isNotNull(), F.lit("****"))
    if method == "hash":
        return F.concat(F.lit("sha256:"), F.substring(F.sha2(text, 256), 1, 16))
    if method == "partial":
        return F.when(F.length(text) <= 4, F.lit("****")).otherwise(
            F.concat(F.lit("****"), F.substring(text, -4, 4)))
    raise NotEvaluable(f"unknown mask {method!r}; use one of: {', '.join(MASKS)}")


def settings(a: Assertion) -> dict:
    """The assertion's sample settings with defaults: ``{"limit": int, "columns": [..] | None, "mask": {..}}``."""
    raw = (a.params or {}).get("samples")
    if raw is False:
        return {"limit": 0, "columns": None, "mask": {}}
    raw = raw if isinstance(raw, dict) else {}
    limit = raw.get("limit", DEFAULT_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_LIMIT:
        raise NotEvaluable(f"samples limit {limit!r} must be a whole number from 0 to {MAX_LIMIT}")
    masks = raw.get("mask") or {}
    if isinstance(masks, list):
        masks = {c: "redact" for c in masks}
    for column, method in masks.items():
        if method not in MASKS:
            raise NotEvaluable(f"samples mask for {column!r}: unknown mask {method!r}; use one of: {', '.join(MASKS)}")
    return {"limit": limit, "columns": raw.get("columns"), "mask": dict(masks)}


def resolve_masks(schema: T.StructType, masks: dict) -> dict[str, str]:
    """Mask settings keyed by the schema's own column names (a mask on a missing column is an error: it is a typo
    that would otherwise silently expose the column it meant)."""
    return {find_field(schema, c).name: m for c, m in masks.items()}


@dataclass
class SampleRequest:
    assertion: Assertion
    test: RowTest
    limit: int
    columns: list[str]
    masks: dict[str, str]
    aliases: list[str] = field(default_factory=list)


def plan_request(a: Assertion, ds: Dataset, test: RowTest) -> SampleRequest | None:
    conf = settings(a)
    if conf["limit"] == 0:
        return None
    schema = ds.schema
    masks = resolve_masks(schema, conf["mask"])
    if conf["columns"]:
        columns = [find_field(schema, c).name for c in conf["columns"]]
    else:
        first = find_field(schema, a.field).name
        columns = ([first] + [f.name for f in schema.fields if f.name != first])[:MAX_DEFAULT_COLUMNS]
    columns = list(dict.fromkeys(columns))
    return SampleRequest(a, test, conf["limit"], columns, {c: masks[c] for c in columns if c in masks})


def _clip(value):
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return value[: MAX_TEXT - 1] + "…"
    if isinstance(value, (bytes, bytearray)):
        return "0x" + bytes(value[:32]).hex() + ("…" if len(value) > 32 else "")
    return value


def sample_frame(ds: Dataset, requests: list[SampleRequest]) -> DataFrame:
    """The single query of a dataset's sample pass: rows tagged ``_a`` (request index), ranked ``_rn`` in data order,
    at most the largest limit per request (Spark's WindowGroupLimit keeps this a per-partition top-K)."""
    exprs: dict[tuple[str, str | None], str] = {}
    for req in requests:
        req.aliases = [exprs.setdefault((c, req.masks.get(c)), f"_c{len(exprs)}") for c in req.columns]
    flags = F.array(*[F.when(req.test.failing, F.lit(j)) for j, req in enumerate(requests)])
    frame = ds.df.select(
        F.monotonically_increasing_id().alias("_rid"),
        flags.alias("_flags"),
        *[mask(F.col(quoted(c)), m).alias(alias) for (c, m), alias in exprs.items()],
    )
    tagged = frame.where(F.exists("_flags", lambda x: x.isNotNull())).select(
        "*", F.explode(F.filter("_flags", lambda x: x.isNotNull())).alias("_a")).drop("_flags")
    ranked = tagged.withColumn("_rn", F.row_number().over(Window.partitionBy("_a").orderBy("_rid")))
    return ranked.where(F.col("_rn") <= max(req.limit for req in requests))


def run_samples(ds: Dataset, requests: list[SampleRequest]) -> dict[str, dict]:
    """One pass for all requests of a dataset → samples document per assertion id."""
    if not requests:
        return {}
    try:
        rows = sample_frame(ds, requests).collect()
    except Exception as exc:
        log.warning("failing-row samples could not be collected: %s", first_line(exc))
        return {req.assertion.id: {"error": f"Spark could not collect samples: {first_line(exc)}"} for req in requests}
    by_request: dict[int, list] = {}
    for row in sorted(rows, key=lambda r: (r["_a"], r["_rn"])):
        by_request.setdefault(row["_a"], []).append(row)
    out = {}
    for j, req in enumerate(requests):
        picked = by_request.get(j, [])[: req.limit]
        out[req.assertion.id] = {
            "limit": req.limit,
            "columns": req.columns,
            "masked": req.masks,
            "rows": [[_clip(r[alias]) for alias in req.aliases] for r in picked],
        }
    return out
