"""Data of the differential tests (tests/test_differential*.py): the edge-case table, the filters used on it and on
``flights`` (as SQL for the engine and as Python for the oracle), and the helper that runs assertion dicts on a
Parquet file through the engine.

Columns: NULL, NaN, ±inf, -0.0, empty and whitespace strings, unicode, a long string, decimals, dates, timestamps
written with several UTC offsets (``ts``, an instant) and wall-clock timestamps (``ntz``, timestamp_ntz on Spark),
and an all-null column."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

ENTITY = "urn:li:dataset:(urn:li:dataPlatform:file,diff.table,PROD)"
NAN, INF = float("nan"), float("inf")
LONG = "ß" * 5000 + "x" * 5000
EDGE = {
    "d": [None, NAN, INF, -INF, 0.0, -0.0, -1.5, 2.25, 1e308, 3.0, None, 7.0, 3.0, NAN, 0.1, 0.2],
    "f": [1.5, None, INF, 0.0, -2.0, 2.0, 2.0, None, 0.5, -0.0, 10.0, 11.0, 1.5, 1.5, 3.0, 4.0],
    "g": [1.5, None, -3.25, 0.0, -0.0, 2.0, 2.0, None, 0.5, 1e-300, 10.0, -11.0, 1.5, 1.5, 3.0, 4.0],
    "i": [None, 0, -1, 1, 2 ** 62, -(2 ** 62), 5, 5, None, 7, 0, 3, 3, 9, -4, 1],
    "s": [None, "", " ", "  a ", "é", "日本語", "🙂", LONG, "abc", "ABC", "a\tb", "", None, "abc", "x y", "\u00a0"],
    "dec": [None, Decimal("0.100000"), Decimal("0.200000"), Decimal("-0.300000"), Decimal("0"), Decimal("123456.789012"),
            Decimal("0.1"), None, Decimal("-0.000001"), Decimal("99999999999999.999999"), Decimal("1"), Decimal("2"),
            Decimal("3"), Decimal("0.3"), Decimal("0"), Decimal("-5.5")],
    "dt": [None, date(2024, 1, 1), date(1970, 1, 1), date(2024, 2, 29), date(9999, 12, 31), date(2024, 1, 1),
           None, date(2000, 1, 1), date(2024, 1, 2), date(2024, 1, 1), date(2024, 3, 1), date(2024, 3, 2),
           date(2024, 3, 3), date(2024, 3, 4), date(2024, 3, 5), date(2024, 3, 6)],
    "ts": [None] + [datetime(2024, 3, 31, 1, 30, tzinfo=timezone(timedelta(hours=h % 5 - 2))) for h in range(14)] + [None],
    "ntz": [datetime(2024, 3, 31, h % 4, 30) for h in range(15)] + [None],
    "allnull": [None] * 16,
}
EDGE_TYPES = {"d": "double", "f": "double", "g": "double", "i": "int64", "s": "string", "dec": "decimal",
              "dt": "date", "ts": "timestamp", "ntz": "timestamp_ntz", "allnull": "double"}
# Filters of the differential tests: the SQL the engine gets and the same rule in Python for the oracle.
EDGE_FILTERS = {"positive_i": "i > 0", "recent": "dt >= '2024-01-01'", "nothing": "s = 'no such value'"}
EDGE_FILTERS_PY = {
    "positive_i": lambda d: [x is not None and x > 0 for x in d["i"]],
    "recent": lambda d: [x is not None and x >= date(2024, 1, 1) for x in d["dt"]],
    "nothing": lambda d: [False for _ in d["s"]],
}

FLIGHT_FILTERS = {"jfk": "origin = 'JFK'", "january_late": "month = 1 AND dep_delay > 30"}
FLIGHT_FILTERS_PY = {
    "jfk": lambda d: [o == "JFK" for o in d["origin"]],
    "january_late": lambda d: [m == 1 and (x is not None and x > 30) for m, x in zip(d["month"], d["dep_delay"])],
}


def write_edge(path, rows: int | None = None) -> str:
    """The edge table (or its first ``rows`` rows; 0 gives the empty table) as Parquet written by pyarrow."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"double": pa.float64(), "int64": pa.int64(), "string": pa.string(), "decimal": pa.decimal128(20, 6),
             "date": pa.date32(), "timestamp": pa.timestamp("us", tz="UTC"), "timestamp_ntz": pa.timestamp("us")}
    arrays = {c: pa.array(v if rows is None else v[:rows], type=types[EDGE_TYPES[c]], from_pandas=False)
              for c, v in EDGE.items()}
    pq.write_table(pa.table(arrays), path)
    return str(path)


def run(spark, path: str, assertions: list[dict], entity: str = ENTITY, source=None):
    """Run assertion dicts (the YAML form) on ``path`` (or ``source``); return ({name: result}, run result)."""
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan, load_any

    plan = build_plan(load_any({"version": 1, "assertions": assertions}), {entity: source or path},
                      run_id="differential")
    result = run_plan(spark, plan)
    return {r.name: r for r in result.results}, result
