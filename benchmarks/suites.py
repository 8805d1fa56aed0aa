"""The benchmark suites over TPC-H ``lineitem``: S30 (30 assertions over 11 columns) and S300 (ten variants of each).

Every assertion is written to PASS on tpchgen-cli's data at any scale factor (the regex check passes *with* failing
rows, under its percentage threshold), so no leg pays for failure diagnostics and all legs compute the same thing.
``S30_METRICS`` lists the aggregates S30 needs; the floor (floor.py) and the GX suite (gx_suite.py) mirror it.
"""

from __future__ import annotations

import yaml

ENTITY = "urn:li:dataset:(urn:li:dataPlatform:file,tpch.lineitem,PROD)"
ROWS_PER_SF = 6_001_215  # lineitem rows at SF 1 (TPC-H spec); tpchgen-cli follows it
NOT_NULL_COLUMNS = ("l_orderkey", "l_suppkey", "l_quantity", "l_extendedprice", "l_discount", "l_shipdate",
                    "l_returnflag", "l_linestatus")
SHIP_MODES = ("AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK")
COMMENT_REGEX = "[a-z][a-z ,.;:!?'-]*"  # ~15.6 % of TPC-H comments do not match (leading blank, digits)
COMMENT_THRESHOLD_PCT = 25.0


def _volume(name, cond, filters=None):
    a = {"entity": ENTITY, "name": name, "type": "volume", "metric": "row_count", "condition": cond}
    if filters:
        a["filters"] = filters
    return a


def _field(name, field, cond, **extra):
    return {"entity": ENTITY, "name": name, "type": "field", "field": field, "condition": cond, **extra}


def _metric(name, field, metric, cond):
    return {"entity": ENTITY, "name": name, "type": "field", "field": field, "metric": metric, "condition": cond}


def s30(scale: float, variant: int = 0) -> list[dict]:
    """The 30 assertions; ``variant`` 1..9 shifts bounds, values and filters (same columns, same outcome)."""
    v = variant
    rows = ROWS_PER_SF * scale
    mode = SHIP_MODES[v % len(SHIP_MODES)]
    flag = "ARN"[v % 3]
    sfx = f"_v{v}" if v else ""
    out = [
        _volume("row_count" + sfx, {"type": "between", "min": int(rows * 0.9) - v, "max": int(rows * 1.1) + v}),
        _volume("returned_rows" + sfx, {"type": "greater_than", "value": v}, filters=f"l_returnflag = '{flag}'"),
        _volume("mode_rows" + sfx, {"type": "greater_than", "value": v}, filters=f"l_shipmode = '{mode}'"),
    ]
    for col in NOT_NULL_COLUMNS:  # variants check the same columns within one ship mode each
        out.append(_field(f"{col}_not_null{sfx}", col, {"type": "is_not_null"},
                          **({"filters": f"l_shipmode = '{mode}'"} if v else {})))
    out += [
        _field("quantity_range" + sfx, "l_quantity", {"type": "between", "min": 1 - v, "max": 50 + v}),
        _field("discount_range" + sfx, "l_discount", {"type": "between", "min": 0, "max": round(0.10 + v / 100, 2)}),
        _field("tax_range" + sfx, "l_tax", {"type": "between", "min": 0, "max": round(0.08 + v / 100, 2)}),
        _field("returnflag_in" + sfx, "l_returnflag", {"type": "in", "value": ["A", "N", "R"] + [f"X{v}"] * bool(v)}),
        _field("linestatus_in" + sfx, "l_linestatus", {"type": "in", "value": ["F", "O"] + [f"X{v}"] * bool(v)}),
        _field("shipmode_not_in" + sfx, "l_shipmode", {"type": "not_in", "value": ["BOAT", f"CANOE{v}"]}),
        _field("comment_regex" + sfx, "l_comment", {"type": "matches_regex", "value": COMMENT_REGEX},
               failure_threshold={"type": "percentage", "value": COMMENT_THRESHOLD_PCT + v}),
        _field("price_positive" + sfx, "l_extendedprice", {"type": "greater_than", "value": -v}),
        _field("tax_at_most" + sfx, "l_tax", {"type": "less_than_or_equal_to", "value": round(0.08 + v / 100, 2)}),
        _field("suppkey_at_least" + sfx, "l_suppkey", {"type": "greater_than_or_equal_to", "value": 1 - v}),
        _field("air_quantity" + sfx, "l_quantity", {"type": "less_than_or_equal_to", "value": 50 + v},
               filters=f"l_shipmode = '{mode}'"),
        _metric("quantity_min" + sfx, "l_quantity", "min", {"type": "greater_than_or_equal_to", "value": 1 - v}),
        _metric("quantity_max" + sfx, "l_quantity", "max", {"type": "less_than_or_equal_to", "value": 50 + v}),
        _metric("discount_mean" + sfx, "l_discount", "mean", {"type": "between", "min": 0.04 - v / 1000,
                                                                  "max": 0.06 + v / 1000}),
        _metric("tax_null_pct" + sfx, "l_tax", "null_percentage", {"type": "less_than_or_equal_to", "value": 1 + v}),
        _metric("shipdate_nulls" + sfx, "l_shipdate", "null_count", {"type": "less_than_or_equal_to", "value": v}),
        _metric("shipmode_unique" + sfx, "l_shipmode", "unique_count", {"type": "between", "min": 7 - v,
                                                                          "max": 7 + v}),
        _metric("price_max" + sfx, "l_extendedprice", "max", {"type": "less_than_or_equal_to", "value": 110000 + v}),
        _metric("quantity_mean" + sfx, "l_quantity", "mean", {"type": "between", "min": 24 - v, "max": 27 + v}),
    ]
    assert len(out) == 30, len(out)
    return out


def s300(scale: float) -> list[dict]:
    return [a for v in range(10) for a in s30(scale, v)]


SUITES = {"S30": s30, "S300": s300}


def spec_yaml(suite: str, scale: float) -> str:
    return yaml.safe_dump({"version": 1, "severity": "error", "assertions": SUITES[suite](scale)}, sort_keys=False)


def columns_used(suite: str = "S30", scale: float = 1.0) -> list[str]:
    cols: dict[str, None] = {}
    for a in SUITES[suite](scale):
        if a.get("field"):
            cols.setdefault(a["field"])
    return list(cols)
