"""One aggregation job per dataset for every aggregate any assertion needs.

Aggregates requested as ``Agg`` are de-duplicated by their key, so two assertions asking for the same
count share one aggregate. If the fused job cannot be analysed or fails at run time, the scan falls back to evaluating
each assertion's aggregates on their own so a single bad assertion is reported as ``error`` and the
others still get their values. Row counts (``Agg.condition`` set) are packed several to a buffer field when an upper
bound of the rows is known (``count_bound``, engine/packed_counts.py).
"""

from __future__ import annotations

import logging
from typing import Any

from pyspark.sql import Column, DataFrame

from airflow_dq.engine import packed_counts, pruning
from airflow_dq.engine.context import Agg, first_line

log = logging.getLogger(__name__)


class FusedScan:
    def __init__(self, df: DataFrame, count_bound: int | None = None):
        self.df = df
        self.count_bound = count_bound  # rows the scan can see at most; None: counts are not packed
        self._by_key: dict[str, str] = {}  # Agg key -> output alias
        self._columns: dict[str, Agg | Column] = {}  # alias -> aggregate (an Agg's Column is built when needed)
        self._counts: dict[str, Column] = {}  # alias -> condition, for aggregates that count rows where it holds
        self.packed_fields = 0  # buffer fields holding packed counts in the last job (0: not packed)
        self._owners: dict[str, dict[str, str]] = {}  # owner -> {local name -> alias}
        self.jobs_run = 0
        self.fallback_used = False
        self.columns_read: list[str] | None = None  # after run(): what the scan read (engine/pruning.py)

    def request(self, owner: str, aggregates: dict[str, "Agg | Column"]) -> None:
        mapping = {}
        for local, agg in aggregates.items():
            key = agg.key if isinstance(agg, Agg) else None
            alias = self._by_key.get(key) if key is not None else None
            if alias is None:
                alias = f"_a{len(self._columns)}"
                self._columns[alias] = agg.materialize() if isinstance(agg, Agg) else agg
                if isinstance(agg, Agg) and agg.condition is not None:
                    self._counts[alias] = agg.condition
                if key is not None:
                    self._by_key[key] = alias
            mapping[local] = alias
        self._owners[owner] = mapping

    def run(self) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        """Compute every requested aggregate. Returns (values per owner, error message per failed owner)."""
        if not self._columns:
            return {}, {}
        try:
            row = self._collect(list(self._columns))
        except Exception as exc:  # analysis or runtime failure of the fused job: isolate the culprit(s)
            log.warning("fused aggregation failed (%s); evaluating assertions one by one", first_line(exc))
            self.fallback_used = True
            return self._run_isolated()
        return {owner: {local: row[alias] for local, alias in m.items()} for owner, m in self._owners.items()}, {}

    def _collect(self, aliases: list[str]) -> dict[str, Any]:
        counts = {a: self._counts[a] for a in aliases if a in self._counts}
        others = {a: self._aggregate(a) for a in aliases if a not in self._counts}
        packing = packed_counts.plan(counts, others, self.count_bound)
        if packing is not None:
            exprs, unpack = packing
            frame = self.df.agg(*exprs)
            self.jobs_run += 1
            try:
                row = unpack(frame.collect()[0].asDict())
            except packed_counts.StaleBound as exc:
                log.warning("packed counts refused (%s); counting again unpacked", exc)
            else:
                self.packed_fields = len(exprs) - len(others) - 1
                self.columns_read = pruning.columns_read(frame)
                return row
        frame = self.df.agg(*[self._aggregate(a).alias(a) for a in aliases])
        self.jobs_run += 1
        row = frame.collect()[0].asDict()
        self.packed_fields = 0
        self.columns_read = pruning.columns_read(frame)
        return row

    def _aggregate(self, alias: str) -> Column:
        agg = self._columns[alias]
        return agg.aggregate() if isinstance(agg, Agg) else agg

    def _run_isolated(self) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        values: dict[str, dict[str, Any]] = {}
        errors: dict[str, str] = {}
        for owner, mapping in self._owners.items():
            if not mapping:  # everything it needs was answered without the scan (engine/speedups.py)
                values[owner] = {}
                continue
            try:
                row = self._collect(sorted(set(mapping.values())))
            except Exception as exc:
                errors[owner] = first_line(exc)
                continue
            values[owner] = {local: row[alias] for local, alias in mapping.items()}
        return values, errors

    @property
    def size(self) -> int:
        return len(self._columns)
