"""Small trading datasets for tests/fixtures/shacl/trading_catalog.ttl, with violations planted on purpose.

``EXPECTED`` is what each converted assertion must report: (status, actual) keyed by ``field_constraint``.
"""

from __future__ import annotations

import datetime as dt
import pathlib

import pyarrow as pa
import pyarrow.parquet as pq

CATALOG = pathlib.Path(__file__).resolve().parent / "fixtures" / "shacl" / "trading_catalog.ttl"
D = dt.date

TABLES = {
    "trades": {
        "trade_id": (pa.string(), ["T000001", "T000002", None, "T12345", "T1234567", "T000006", "T000007", "T000008"]),
        "notional": (pa.float64(), [100.0, 2.5e5, 3e8, 0.0, 10.0, 5e8, 1.0, 7.5]),
        "currency": (pa.string(), ["USD", "EUR", "GBP", "JPY", "usd ", "CHF", "USD", "EUR"]),
        "trade_date": (pa.date32(), [D(2026, 11, 2)] * 8),
        "settlement_date": (pa.date32(), [D(2026, 11, 4)] * 8),
        "counterparty": (pa.string(), ["CP1", "CP2", "CP3", "CP1", "CP2", "CP3", "CP1", "CP2"]),
        "desk": (pa.string(), ["rates", None, "fx", None, "rates", "fx", None, "credit"]),
        "status": (pa.string(), ["BOOKED", "BOOKED", "CANCELLED", "BOOKED", None, "BOOKED", "BOOKED", "BOOKED"]),
    },
    "counterparties": {
        "lei": (pa.string(), ["5493001KJTIIGC8Y1R12", "529900T8BM49AURSDO55", "7LTWFZYICNSX8D621K86",
                              "549300MLUDYVRQOOXS22", "213800D1EI4B9WTWWD28"]),
        "name": (pa.string(), ["Acme Bank", "Globex", "Initech", "Umbrella", "Stark"]),
        "rating": (pa.string(), ["AAA", "AA", "CCC", None, "BBB"]),
        "country": (pa.string(), ["US", "DE", "usa", "GB", None]),
    },
    "positions": {
        "quantity": (pa.int64(), [100, 250, None, 75, 10, 5]),
        "book": (pa.string(), ["EQ-LON", "eq-nyc", "FX-1", "Eq-Tokyo", None, "EQ-PAR"]),
        "price": (pa.float64(), [12.5, 101.0, 0.5, 20000.0, 33.3, 1.25]),
        "trader": (pa.string(), ["alice", "bob", "42", "carol", "dave", "eve"]),
    },
    "audit_events": {
        "event_id": (pa.string(), ["e1", "e2", "e3"]),
    },
}

ENTITY = {
    "trades": "urn:li:dataset:(urn:li:dataPlatform:spark,bank.example/trading/trades,PROD)",
    "counterparties": "urn:li:dataset:(urn:li:dataPlatform:spark,bank.example/trading/counterparties,PROD)",
    "positions": "urn:li:dataset:(urn:li:dataPlatform:logical,bank.example/trading/positions,PROD)",
    "audit_events": "urn:li:dataset:(urn:li:dataPlatform:spark,bank.example/shapes/audit_events,PROD)",
}

# (dataset, field_constraint) → (status, actual). Field-values `actual` is the number of failing rows.
EXPECTED = {
    ("trades", "trade_id_not_null"): ("fail", 1),
    ("trades", "trade_id_max_length"): ("fail", 1),  # T1234567 (the NULL is not a value: not counted)
    ("trades", "trade_id_pattern"): ("fail", 2),  # T12345, T1234567
    ("trades", "notional_max_value"): ("pass", 5e8),
    ("trades", "notional_min_exclusive"): ("fail", 0.0),  # minExclusive 0 and a notional of 0.0
    ("trades", "currency_not_null"): ("pass", 0),
    ("trades", "currency_min_length"): ("pass", 0),
    ("trades", "currency_max_length"): ("fail", 1),  # "usd "
    ("trades", "currency_in"): ("fail", 2),  # "usd ", "CHF"
    ("trades", "counterparty_required"): ("pass", 0),
    ("trades", "status_has_value"): ("fail", 2),  # CANCELLED, and the row without a status
    ("counterparties", "lei_not_null"): ("pass", 0),
    ("counterparties", "lei_min_length"): ("pass", 0),
    ("counterparties", "lei_max_length"): ("pass", 0),
    ("counterparties", "lei_pattern"): ("pass", 0),
    ("counterparties", "name_not_null"): ("pass", 0),
    ("counterparties", "name_min_length"): ("pass", 0),
    ("counterparties", "rating_in"): ("fail", 1),  # CCC (the NULL rating is not a value)
    ("counterparties", "country_pattern"): ("fail", 1),  # usa
    ("positions", "quantity_required"): ("fail", 1),
    ("positions", "quantity_cardinality"): ("fail", 1),
    ("positions", "book_pattern"): ("fail", 1),  # FX-1 (flags "i": Eq-Tokyo matches)
    ("positions", "price_min_value"): ("pass", 0.5),
    ("positions", "price_max_exclusive"): ("fail", 20000.0),
    ("audit_events", "event_id_not_null"): ("pass", 0),
}

# severities from sh:severity: currency is sh:Warning, status is sh:Info, rating is sh:Warning; the rest Violation
WARN = {("trades", k) for k in ("currency_not_null", "currency_min_length", "currency_max_length", "currency_in",
                                "status_has_value")} | {("counterparties", "rating_in")}


def key(dataset: str, suffix: str) -> str:
    return f"{ENTITY[dataset]}_{suffix}"


def write_tables(directory: pathlib.Path) -> dict[str, str]:
    """Parquet files (pyarrow keeps NULLs as NULLs); returns dataset name → path."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, columns in TABLES.items():
        table = pa.table({c: pa.array(values, type=t) for c, (t, values) in columns.items()})
        path = directory / f"{name}.parquet"
        pq.write_table(table, path)
        paths[name] = str(path)
    return paths


def sources(paths: dict[str, str]) -> dict[str, str]:
    """Source mapping keyed by the URNs' dataset names, the way a DAG author would write it."""
    return {ENTITY[name].split(",")[1]: path for name, path in paths.items()}
