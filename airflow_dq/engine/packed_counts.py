"""Several row counts in one aggregation buffer field, for suites with many conditional counts.

Spark compiles a whole stage to Java only while each operator has at most ``spark.sql.codegen.maxFields`` (100)
fields. A suite like the benchmark's S300 asks for ~160 conditional counts in its one fused aggregation; unpacked,
the aggregation exceeds the limit and Spark evaluates it row by row in its interpreter, several times slower.

A count never exceeds the number of rows scanned. When an upper bound of that number is known before the scan (the
row count in the Parquet footers, exact for a bare Parquet relation), every count fits in ``bits =
bound.bit_length()`` bits, and ``63 // bits`` counts fit side by side in one non-negative long:
``sum(if(c1, 1, 0) + if(c2, 2^bits, 0) + ...)``. No slot can carry into the next and the sum cannot overflow.

The bound is checked rather than trusted: the packed aggregation also counts the rows it actually scanned, and if
that exceeds the bound (files changed between reading the footers and scanning) the values are refused and the scan
is repeated unpacked (``StaleBound``).
"""

from __future__ import annotations

from typing import Any, Callable

from pyspark.sql import Column
from pyspark.sql import functions as F

SCANNED = "_scanned_rows"


class StaleBound(Exception):
    """More rows were scanned than the bound the packing relied on."""


def slots_per_field(bound: int | None) -> int:
    """How many counts of at most ``bound`` fit in one long (0 or 1: packing is pointless or impossible)."""
    if bound is None or bound < 0:
        return 0
    return 63 // max(1, int(bound).bit_length())


def plan(counts: dict[str, Column], others: dict[str, Column], bound: int | None
         ) -> tuple[list[Column], Callable[[dict[str, Any]], dict[str, Any]]] | None:
    """Aggregate Columns for ``counts`` (alias -> condition) packed next to ``others`` (alias -> aggregate).

    Returns (columns to aggregate, a function turning their collected row into {alias: value}), or None when packing
    would not reduce the number of fields.
    """
    per_field = slots_per_field(bound)
    if per_field < 2 or len(counts) < 2:
        return None
    bits = 63 // per_field  # >= bound.bit_length(): room to spare is harmless
    aliases = list(counts)
    groups = [aliases[i:i + per_field] for i in range(0, len(aliases), per_field)]
    columns = [col.alias(alias) for alias, col in others.items()]
    for g, group in enumerate(groups):  # Python ints become literals on the JVM side: 3 py4j calls per count
        terms = [F.when(counts[alias], 1 << (bits * slot)).otherwise(0) for slot, alias in enumerate(group)]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        columns.append(F.sum(total.cast("long")).alias(f"_packed{g}"))
    columns.append(F.count(F.lit(1)).alias(SCANNED))
    mask = (1 << bits) - 1

    def unpack(row: dict[str, Any]) -> dict[str, Any]:
        scanned = row[SCANNED]
        if scanned > bound:
            raise StaleBound(f"{scanned} rows scanned, more than the {bound} the Parquet footers announced")
        out = {alias: row[alias] for alias in others}
        for g, group in enumerate(groups):
            packed = row[f"_packed{g}"] or 0  # sum() of no rows is NULL; count() of no rows is 0
            for slot, alias in enumerate(group):
                out[alias] = (packed >> (bits * slot)) & mask
        return out

    return columns, unpack
