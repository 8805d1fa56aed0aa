"""What an assertion module sees of its dataset while planning, and what it hands back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from airflow_dq.core.sources import Source
from airflow_dq.engine.errors import NotEvaluable


@dataclass
class Outcome:
    """What a check concluded; the runner adds identity, severity and timing."""

    status: str
    actual: Any = None
    expected: str | None = None
    failing_rows: int | None = None
    total_rows: int | None = None
    message: str | None = None
    details: dict = field(default_factory=dict)


@dataclass(eq=False)
class Agg:
    """An aggregate with a semantic identity: requests with equal keys are computed once per scan.

    (Column text cannot serve as the key: ``str(count_distinct(x))`` prints as ``count(x)``.)
    An Agg made by ``Dataset.shared`` holds its ``build`` until ``materialize()``: an aggregate answered without the
    scan (Parquet footers, engine/speedups.py) never costs the py4j round trips of building its Columns.
    """

    key: str
    column: Column | None = None
    # set for "the number of rows where this condition holds" (``column`` may then be None and is built only when
    # needed): the fused scan may pack several such counts into one buffer field (engine/packed_counts.py)
    condition: Column | None = None
    build: "Callable[[], Column | CountIf] | None" = None

    def materialize(self) -> "Agg":
        """Build the Columns (once; a build that raises is kept, so every assertion sharing it gets the error)."""
        if self.build is not None:
            built = self.build()
            if isinstance(built, CountIf):
                self.condition = built.condition
            else:
                self.column = built
            self.build = None
        return self

    def aggregate(self) -> Column:
        self.materialize()
        return self.column if self.column is not None else count_where(self.condition)


@dataclass(frozen=True)
class CountIf:
    """What a ``Dataset.shared`` builder returns for "the number of rows where ``condition`` holds"."""

    condition: Column


def count_where(cond: Column) -> Column:
    """Number of rows where ``cond`` is true (NULL counts as false; 0 on an empty table, unlike sum)."""
    return F.count(F.when(cond, 1))


@dataclass
class Pending:
    """A check that needs aggregate values from the dataset's fused scan before it can conclude.

    ``aggregates`` maps local names to aggregates (an ``Agg`` to share it with other assertions, or a plain
    Column used by this assertion alone); ``finish`` receives the computed values under the same names.
    """

    aggregates: dict[str, "Agg | Column"]
    finish: Callable[[dict[str, Any]], Outcome]


@dataclass
class Dataset:
    entity: str
    source: Source
    df: DataFrame
    spark: SparkSession
    reference_time: Any  # datetime with tzinfo
    _filters: dict = field(default_factory=dict)
    _shared: dict = field(default_factory=dict)  # Agg key -> Agg, built once per dataset
    _columns: dict = field(default_factory=dict)  # column references and literals, built once per dataset

    def shared(self, key: str, build: "Callable[[], Column | CountIf]") -> Agg:
        """The aggregate identified by ``key``; ``build()`` makes its Columns when the scan needs them.

        Equal keys mean equal inputs, so an assertion repeating another's aggregate (S300 asks for ~380 aggregates,
        ~190 of them distinct) costs no further Column building."""
        agg = self._shared.get(key)
        if agg is None:
            agg = self._shared[key] = Agg(key, build=build)
        return agg

    @property
    def schema(self):
        return self.df.schema

    # Each Column operation is a py4j round trip (~0.3-1 ms); with hundreds of assertions, reusing the Columns every
    # assertion asks for (a column reference, the literals true/false) is a measurable part of planning.
    def column(self, name: str) -> Column:
        """``F.col`` of an already resolved (quoted) column name, built once per dataset."""
        key = ("col", name)
        if key not in self._columns:
            self._columns[key] = F.col(name)
        return self._columns[key]

    def literal(self, value: bool) -> Column:
        key = ("lit", value)
        if key not in self._columns:
            self._columns[key] = F.lit(value)
        return self._columns[key]

    def within(self, sql_filter: str | None, cond: Column) -> Column:
        """``cond`` restricted to the rows the filter selects (``cond`` itself when there is no filter)."""
        return self.scope(sql_filter) & cond if sql_filter else cond

    def restrict(self, sql_filter: str | None, value: Column) -> Column:
        """``value`` on the rows the filter selects, NULL elsewhere (``value`` itself when there is no filter)."""
        return F.when(self.scope(sql_filter), value) if sql_filter else value

    def scope(self, sql_filter: str | None) -> Column:
        """A boolean Column selecting the rows an assertion looks at; a NULL filter result excludes the row."""
        if not sql_filter:
            return self.literal(True)
        if sql_filter not in self._filters:
            try:
                col = F.expr(sql_filter)
                self.df.where(col)  # eager analysis: no Spark job, catches parse and column errors
            except Exception as exc:  # pyspark's AnalysisException/ParseException and py4j errors
                self._filters[sql_filter] = NotEvaluable(f"invalid filter {sql_filter!r}: {first_line(exc)}")
            else:
                self._filters[sql_filter] = F.coalesce(col.cast("boolean"), self.literal(False))
        value = self._filters[sql_filter]
        if isinstance(value, NotEvaluable):
            raise value
        return value


def first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[0][:500] if lines else text[:500]
