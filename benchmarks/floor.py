"""The floor: the best naive single pass, one hand-written ``df.agg`` computing exactly the metrics S30 needs.

It is what a careful engineer would write by hand for suite S30 (variant 0 in suites.py): each number once, no
framework, conditions checked in Python afterwards. The engine must be at least as fast as this.
"""

from __future__ import annotations

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from benchmarks.suites import COMMENT_REGEX, COMMENT_THRESHOLD_PCT, NOT_NULL_COLUMNS, ROWS_PER_SF


def _bad(cond):
    """Rows where a row-level check does not hold (NULL counts as failing, as in the engine)."""
    return F.count(F.when(~F.coalesce(cond, F.lit(False)), 1))


def aggregates() -> list:
    c = F.col
    aggs = [
        F.count(F.lit(1)).alias("rows"),
        F.count(F.when(c("l_returnflag") == "A", 1)).alias("returned_rows"),
        F.count(F.when(c("l_shipmode") == "AIR", 1)).alias("mode_rows"),
    ]
    aggs += [F.count(F.when(c(col).isNull(), 1)).alias(f"{col}_nulls") for col in NOT_NULL_COLUMNS]
    aggs += [
        _bad(c("l_quantity").between(1, 50)).alias("quantity_range"),
        _bad(c("l_discount").between(0, 0.10)).alias("discount_range"),
        _bad(c("l_tax").between(0, 0.08)).alias("tax_range"),
        _bad(c("l_returnflag").isin("A", "N", "R")).alias("returnflag_in"),
        _bad(c("l_linestatus").isin("F", "O")).alias("linestatus_in"),
        _bad(~c("l_shipmode").isin("BOAT", "CANOE0")).alias("shipmode_not_in"),
        _bad(c("l_comment").rlike("^(?:" + COMMENT_REGEX + ")$")).alias("comment_regex"),
        _bad(c("l_extendedprice") > 0).alias("price_positive"),
        _bad(c("l_tax") <= 0.08).alias("tax_at_most"),
        _bad(c("l_suppkey") >= 1).alias("suppkey_at_least"),
        F.count(F.when((c("l_shipmode") == "AIR") & ~F.coalesce(c("l_quantity") <= 50, F.lit(False)), 1))
        .alias("air_quantity"),
        F.min("l_quantity").alias("quantity_min"),
        F.max("l_quantity").alias("quantity_max"),
        F.avg("l_discount").alias("discount_mean"),
        F.count(F.when(c("l_tax").isNull(), 1)).alias("tax_nulls"),
        F.count_distinct("l_shipmode").alias("shipmode_unique"),
        F.max("l_extendedprice").alias("price_max"),
        F.avg("l_quantity").alias("quantity_mean"),
    ]
    return aggs


def run(df: DataFrame, scale: float) -> dict:
    """Compute the metrics in one job and judge S30's 30 conditions; returns {name: passed}."""
    v = df.agg(*aggregates()).collect()[0].asDict()
    n = v["rows"]
    rows = ROWS_PER_SF * scale
    ok = {
        "row_count": int(rows * 0.9) <= n <= int(rows * 1.1),
        "returned_rows": v["returned_rows"] > 0,
        "mode_rows": v["mode_rows"] > 0,
    }
    ok.update({f"{col}_not_null": v[f"{col}_nulls"] == 0 for col in NOT_NULL_COLUMNS})
    for name in ("quantity_range", "discount_range", "tax_range", "returnflag_in", "linestatus_in",
                 "shipmode_not_in", "price_positive", "tax_at_most", "suppkey_at_least", "air_quantity"):
        ok[name] = v[name] == 0
    ok["comment_regex"] = (v["comment_regex"] * 100.0 / n if n else 0.0) <= COMMENT_THRESHOLD_PCT
    ok["quantity_min"] = v["quantity_min"] >= 1
    ok["quantity_max"] = v["quantity_max"] <= 50
    ok["discount_mean"] = 0.04 <= float(v["discount_mean"]) <= 0.06
    ok["tax_null_pct"] = (v["tax_nulls"] * 100.0 / n if n else 0.0) <= 1
    ok["shipdate_nulls"] = v["l_shipdate_nulls"] <= 0
    ok["shipmode_unique"] = 7 <= v["shipmode_unique"] <= 7
    ok["price_max"] = v["price_max"] <= 110000
    ok["quantity_mean"] = 24 <= float(v["quantity_mean"]) <= 27
    assert len(ok) == 30, sorted(ok)
    return ok
