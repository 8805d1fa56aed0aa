"""Field-values checks decided by Parquet footer statistics, without looking at a row.

If the footers say every non-null value of a column lies in [lo, hi] (the exact min and max over all row groups,
engine/footer_stats.py) and every value of that interval satisfies a comparison, then no non-null row can fail it:
the failing rows are exactly the NULLs in scope (or none, with ``exclude_nulls``). Unfiltered, that is the footer's
null count; within a filter it is known only when the column holds no NULL at all (then 0). The same reasoning
answers ``is_not_null`` / ``is_null`` checks.

Only integer and decimal columns are decided (their footer min/max are exact, and they hold no NaN); a float literal
against an integer column only while every footer value is exactly representable as a double (Spark compares the two
as doubles). Anything not proven is left to the scan.
"""

from __future__ import annotations

from decimal import Decimal

PROVABLE = ("between", "greater_than", "greater_than_or_equal_to", "less_than", "less_than_or_equal_to",
            "equal_to", "not_equal_to")
_EXACT_DOUBLE = 2 ** 53


def _comparable(x, lo, hi) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float, Decimal)):
        return False
    if isinstance(x, float) and not isinstance(lo, Decimal) and max(abs(lo), abs(hi)) > _EXACT_DOUBLE:
        return False
    return True


def every_value_passes(cond_type: str, value, low, high, lo, hi) -> bool:
    """True when every v with ``lo <= v <= hi`` satisfies the condition (``value``, or ``low``/``high`` for between,
    already converted to the column's kind by engine/predicates.py)."""
    if lo is None or hi is None or isinstance(lo, bool) or not isinstance(lo, (int, Decimal)):
        return False
    if cond_type == "between":
        return _comparable(low, lo, hi) and _comparable(high, lo, hi) and low <= lo and hi <= high
    if not _comparable(value, lo, hi):
        return False
    return {
        "greater_than": lambda: lo > value,
        "greater_than_or_equal_to": lambda: lo >= value,
        "less_than": lambda: hi < value,
        "less_than_or_equal_to": lambda: hi <= value,
        "equal_to": lambda: lo == hi == value,
        "not_equal_to": lambda: value < lo or value > hi,
    }.get(cond_type, lambda: False)()


def decided(cond_type: str, exclude_nulls: bool, filtered: bool, rows: int, nulls: int,
            values_pass: bool) -> dict[str, int]:
    """The field-values aggregates ("failing", "total") the footers decide, from the dataset's row and null counts.

    ``values_pass``: every non-null value is known to satisfy the condition (``every_value_passes``).
    """
    if cond_type == "is_not_null":
        failing, non_null_only = nulls, False
    elif cond_type == "is_null":
        failing, non_null_only = rows - nulls, False
    elif cond_type in PROVABLE and values_pass:
        non_null_only = exclude_nulls
        failing = 0 if non_null_only else nulls
    else:
        return {}
    if not filtered:
        return {"failing": failing, "total": rows - nulls if non_null_only else rows}
    # within a filter the failing rows are a subset of the dataset's: known when the dataset has none
    return {"failing": 0} if failing == 0 else {}
