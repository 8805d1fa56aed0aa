"""Per-dataset rewrites of prepared assertions before they join the fused scan.

* values exact in Parquet footers (engine/footer_stats.py) are answered without scanning: the unfiltered row count,
  null / non-null counts, min and max of integer, decimal and date columns; filtered null counts of a column without
  NULLs (0; its filtered non-null count is the filtered row count); field-values checks the footers decide
  (engine/footer_proofs.py: ``is_not_null`` / ``is_null``, comparisons every footer value satisfies);
* distinct counts follow the plan's explicit ``distinct`` option (engine/distinct_mode.py);
* from construction until ``complete``, Column building costs fewer py4j round trips (engine/lean_planning.py).
A dataset whose every aggregate is answered this way runs no Spark job at all. The runner calls ``adapt`` for each
prepared assertion, ``scan_request`` for its own aggregates, and ``complete`` on the scan's values.
"""

from __future__ import annotations

from dataclasses import replace

from airflow_dq.engine import distinct_mode, footer_proofs, predicates
from airflow_dq.engine.aggregates import rows as rows_in
from airflow_dq.engine.columns import find_field
from airflow_dq.engine.context import Agg, Dataset, Outcome, Pending
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.footer_stats import FooterStats
from airflow_dq.engine.lean_planning import LeanPlanning

_FOOTER_PRIMITIVES = ("rows", "nulls", "non_null", "min", "max")


def _footer_columns(ds: Dataset, assertions: list) -> list[str]:
    """Columns whose footer statistics could answer something: fields of metric and field-values checks."""
    out: dict[str, None] = {}
    for a in assertions:
        if not a.field or a.kind not in ("field_metric", "field_values"):
            continue
        try:
            out.setdefault(find_field(ds.schema, a.field).name)
        except NotEvaluable:
            continue
    return list(out)


class Speedups:
    def __init__(self, ds: Dataset, options: dict | None = None, assertions: list | None = None,
                 footers: bool | None = None):
        self.ds = ds
        self.options = options = options or {}
        try:
            self.distinct, self.rsd, self.option_error = *distinct_mode.mode(options), None
        except NotEvaluable as exc:  # refused for the assertions that count distinct values, not for the others
            self.distinct, self.rsd, self.option_error = "exact", distinct_mode.DEFAULT_RSD, exc
        self._interest = _footer_columns(ds, assertions or [])
        # fewer py4j round trips while the assertions build Columns, until complete() (lean_planning.py)
        self._lean = LeanPlanning(ds.spark) if options.get("lean_planning", True) else None
        use_footers = options.get("footer_stats", True) if footers is None else footers
        self.footer = FooterStats(ds.spark, ds.df, ds.source) if use_footers else None
        self._known: dict[str, dict] = {}  # owner -> {local name -> value answered without the scan}
        self.answered = 0

    # -- footer answers -------------------------------------------------------------------------------------------
    def _footer_value(self, agg) -> tuple[bool, object]:
        if self.footer is None or not isinstance(agg, Agg):
            return False, None
        parts = agg.key.split("|")
        if parts == ["rows"]:
            self.footer.load(self._columns_of_interest())
            rows = self.footer.rows()
            return rows is not None, rows
        if len(parts) != 3 or parts[0] not in _FOOTER_PRIMITIVES:
            return False, None
        primitive, column, sql_filter = parts
        self.footer.load(self._columns_of_interest())
        if sql_filter:  # a filter selects a subset of the rows: only "no NULL at all" carries over
            return (True, 0) if primitive == "nulls" and self.footer.nulls(column) == 0 else (False, None)
        if primitive in ("nulls", "non_null"):
            nulls, rows = self.footer.nulls(column), self.footer.rows()
            if nulls is None or rows is None:
                return False, None
            return True, nulls if primitive == "nulls" else rows - nulls
        return self.footer.extreme(primitive, column)

    def _same_as_rows(self, agg) -> Agg | None:
        """The filtered row count, for a filtered non-null count of a column the footers show has no NULL."""
        parts = agg.key.split("|") if self.footer is not None and isinstance(agg, Agg) else []
        if len(parts) == 3 and parts[0] == "non_null" and parts[2] and self.footer.nulls(parts[1]) == 0:
            return rows_in(self.ds, parts[2])
        return None

    def _columns_of_interest(self) -> list[str]:
        return self._interest

    def _field_check(self, a, aggregates: dict) -> dict:
        """Footer-decided failing/total rows of a field-values check (engine/footer_proofs.py)."""
        if self.footer is None or a.kind != "field_values" or (a.params or {}).get("field_transform") \
                or a.condition is None or set(aggregates) != {"failing", "total"}:
            return {}
        cond = a.condition
        if cond.type not in footer_proofs.PROVABLE + ("is_null", "is_not_null"):
            return {}
        try:
            field = find_field(self.ds.schema, a.field)
        except NotEvaluable:
            return {}
        self.footer.load(self._columns_of_interest())
        n_rows, nulls = self.footer.rows(), self.footer.nulls(field.name)
        if n_rows is None or nulls is None:
            return {}
        values_pass = False
        if cond.type in footer_proofs.PROVABLE:
            known_lo, lo = self.footer.extreme("min", field.name)
            known_hi, hi = self.footer.extreme("max", field.name)
            if known_lo and known_hi:
                try:
                    value, low, high = (predicates.literal_for(field, cond, part) for part in ("value", "min", "max"))
                except NotEvaluable:
                    return {}
                values_pass = footer_proofs.every_value_passes(cond.type, value, low, high, lo, hi)
        return footer_proofs.decided(cond.type, bool(a.exclude_nulls), bool(a.filter), n_rows, nulls, values_pass)

    # -- hooks used by the runner ---------------------------------------------------------------------------------
    def row_bound(self) -> int | None:
        """Rows the scan can see at most, if the footers say so exactly and count packing is on (plan option
        ``pack_counts``, default true); None otherwise."""
        if self.footer is None or not self.options.get("pack_counts", True):
            return None
        self.footer.load(self._columns_of_interest())
        return self.footer.rows()

    def adapt(self, a, prepared):
        """``prepare``'s answer with footer-answered aggregates removed and the distinct option applied."""
        if not isinstance(prepared, Pending):
            return prepared
        if self.option_error is not None and any(distinct_mode.is_distinct(g) for g in prepared.aggregates.values()):
            raise self.option_error
        known = self._field_check(a, prepared.aggregates)
        remaining: dict = {}
        approximated = False
        for local, agg in prepared.aggregates.items():
            if local in known:
                continue
            if distinct_mode.is_distinct(agg) and self.distinct == "approximate":
                remaining[local] = distinct_mode.approximate(agg, self.ds.scope, self.rsd)
                approximated = True
                continue
            found, value = self._footer_value(agg)
            if found:
                known[local] = value
            else:
                remaining[local] = self._same_as_rows(agg) or agg
        if known:
            self._known[a.id] = known
            self.answered += len(known)
        finish = prepared.finish
        if approximated:
            finish = self._flag_approximate(finish)
        if known:
            finish = self._flag_footer(finish, sorted(known))
        return replace(prepared, aggregates=remaining, finish=finish)

    def scan_request(self, owner: str, aggregates: dict) -> dict:
        """The part of a runner-owned request (e.g. the dataset's row count) the scan still has to compute."""
        remaining = {}
        for local, agg in aggregates.items():
            found, value = self._footer_value(agg)
            if found:
                self._known.setdefault(owner, {})[local] = value
            else:
                remaining[local] = agg
        return remaining

    def complete(self, values: dict) -> dict:
        """The scan's values per owner with the footer answers merged in (owners with nothing left to scan too)."""
        if self._lean is not None:
            self._lean.close()
            self._lean = None
        merged = {owner: dict(v) for owner, v in values.items()}
        for owner, known in self._known.items():
            merged.setdefault(owner, {}).update(known)
        return merged

    def stats(self) -> dict:
        out = {"distinct": self.distinct, "footer_answers": self.answered}
        if self.footer is not None:
            out["footer_files"] = self.footer.files_read
            if self.footer.reason:
                out["footer_skipped"] = self.footer.reason
        return out

    def _flag_approximate(self, finish):
        rsd = self.rsd

        def wrapped(values: dict) -> Outcome:
            outcome = finish(values)
            outcome.details = {**(outcome.details or {}), "approximate": {"method": "hyperloglog++", "rsd": rsd}}
            return outcome
        return wrapped

    @staticmethod
    def _flag_footer(finish, names: list[str]):
        def wrapped(values: dict) -> Outcome:
            outcome = finish(values)
            outcome.details = {**(outcome.details or {}), "from_parquet_footer": names}
            return outcome
        return wrapped
