"""Path sources in every file format Spark reads without extra packages: the same small table written by pyarrow
(Parquet, ORC, CSV) and by ``json`` (JSON lines) gives the same results through the engine, and they are the
oracle's (tests/oracle.py over the Python rows the files were written from)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from tests import oracle

FORMATS = ("parquet", "orc", "csv", "json")
ROWS = [
    {"id": 1, "amount": 2.5, "name": "alpha", "day": date(2024, 1, 1)},
    {"id": 2, "amount": None, "name": "", "day": date(2024, 1, 2)},
    {"id": 3, "amount": -1.25, "name": None, "day": None},
    {"id": 4, "amount": 0.0, "name": " ", "day": date(2024, 1, 1)},
    {"id": 5, "amount": 10.0, "name": "日本語", "day": date(2023, 12, 31)},
    {"id": 6, "amount": 3.75, "name": "beta", "day": date(2024, 2, 29)},
    {"id": 7, "amount": None, "name": "alpha", "day": None},
    {"id": 8, "amount": 7.125, "name": "", "day": date(2024, 1, 1)},
    {"id": 9, "amount": -0.5, "name": "a,b \"quoted\"", "day": date(2024, 3, 1)},
    {"id": 10, "amount": 100.0, "name": "gamma", "day": date(2024, 1, 3)},
]
KINDS = {"id": "int64", "amount": "double", "name": "string", "day": "date"}
METRICS = [("amount", "null_count"), ("amount", "min"), ("amount", "max"), ("amount", "mean"), ("amount", "median"),
           ("amount", "stddev"), ("amount", "negative_count"), ("amount", "zero_percentage"), ("name", "null_count"),
           ("name", "unique_count"), ("name", "unique_percentage"), ("name", "empty_count"),
           ("name", "empty_percentage"), ("day", "null_percentage"), ("id", "unique_percentage")]
VALUES = [("amount", {"type": "between", "min": 0, "max": 10}, False, None),
          ("amount", {"type": "greater_than", "value": 0}, True, None),
          ("name", {"type": "in", "value": ["alpha", "beta", ""]}, False, None),
          ("name", {"type": "not_empty"}, True, None),
          ("name", {"type": "matches_regex", "value": "[a-z]+"}, True, None),
          ("name", {"type": "length_between", "min": 1, "max": 5}, False, None),
          ("name", {"type": "greater_than", "value": 1}, True, "length"), ("name", {"type": "is_null"}, False, None),
          ("day", {"type": "equal_to", "value": "2024-01-01"}, True, None),
          ("day", {"type": "in", "value": ["2024-01-01", "2024-02-29"]}, False, None),
          ("id", {"type": "not_in", "value": [3, 4]}, False, None)]
FILTER_SQL, FILTER_PY = "id > 3", lambda row: row["id"] > 3


def _write(base, fmt: str) -> str:
    import pyarrow as pa

    table = pa.Table.from_pylist(ROWS, schema=pa.schema([("id", pa.int64()), ("amount", pa.float64()),
                                                         ("name", pa.string()), ("day", pa.date32())]))
    path = base / f"table.{fmt}"
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, path)
    elif fmt == "orc":
        from pyarrow import orc

        orc.write_table(table, path)
    elif fmt == "csv":
        from pyarrow import csv

        csv.write_csv(table, path)  # strings quoted ("" is the empty string), NULL an empty field
    else:
        path.write_text("".join(json.dumps({k: v.isoformat() if isinstance(v, date) else v for k, v in r.items()},
                                           ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    return f"{path}:{fmt}"


def _assertions(fmt: str) -> list[dict]:
    out = [{"name": "rows", "type": "volume", "condition": {"type": "equal_to", "value": len(ROWS)}},
           {"name": "rows_filtered", "type": "volume", "filters": FILTER_SQL,
            "condition": {"type": "greater_than", "value": 0}},
           {"name": "schema", "type": "schema", "condition": {"type": "contains", "columns": [
               {"name": "id", "type": "number"}, {"name": "amount", "type": "number"},
               {"name": "name", "type": "string"}]}}]
    for col, metric in METRICS:
        out.append({"name": f"{col}|{metric}", "type": "field", "field": col, "metric": metric,
                    "condition": {"type": "greater_than_or_equal_to", "value": 0}})
    for n, (col, cond, exclude, transform) in enumerate(VALUES):
        for filtered in (False, True):
            a = {"name": f"{col}|{n}|{filtered}", "type": "field", "field": col, "condition": cond,
                 "exclude_nulls": exclude, "samples": False}
            if transform:
                a["field_transform"] = transform
            if filtered:
                a["filters"] = FILTER_SQL
            out.append(a)
    return [{**a, "entity": f"table_{fmt}", "name": f"{fmt}:{a['name']}"} for a in out]


def _expected() -> dict[str, tuple]:
    """name -> (actual, failing rows, total rows) by the oracle, over the Python rows."""
    columns = {c: [r[c] for r in ROWS] for c in KINDS}
    exp = {"rows": (len(ROWS), None, None), "rows_filtered": (sum(map(FILTER_PY, ROWS)), None, None)}
    for col, metric in METRICS:
        exp[f"{col}|{metric}"] = (oracle.metric(metric, columns[col]), None, None)
    for n, (col, cond, exclude, transform) in enumerate(VALUES):
        for filtered in (False, True):
            values = [r[col] for r in ROWS if not filtered or FILTER_PY(r)]
            failing, total = oracle.field_values(oracle.typed_condition(cond, KINDS[col]), values, exclude, transform)
            exp[f"{col}|{n}|{filtered}"] = (failing, failing, total)
    return exp


@pytest.fixture(scope="module")
def format_sources(tmp_path_factory):
    base = tmp_path_factory.mktemp("formats")
    return {fmt: _write(base, fmt) for fmt in FORMATS}


@pytest.mark.spark
def test_every_format_gives_the_oracles_results(spark, format_sources):
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan, load_any

    assertions = [a for fmt in FORMATS for a in _assertions(fmt)]
    plan = build_plan(load_any({"version": 1, "assertions": assertions}),
                      {f"table_{fmt}": src for fmt, src in format_sources.items()}, run_id="formats")
    result = run_plan(spark, plan)
    assert [d["source"]["format"] for d in result.datasets] == list(FORMATS)
    got = {fmt: {r.name.split(":", 1)[1]: r for r in result.results if r.entity == f"table_{fmt}"} for fmt in FORMATS}
    expected = _expected()
    mismatches = []
    for fmt in FORMATS:
        res = got[fmt]
        assert res["schema"].status == "pass", (fmt, res["schema"].message)
        for name, (actual, failing, total) in expected.items():
            r = res[name]
            value = r.actual if r.status != "error" else oracle.ERROR
            same = value == pytest.approx(actual, rel=1e-12) if isinstance(actual, float) else value == actual
            if not same or (r.failing_rows, r.total_rows) != (failing, total) and failing is not None:
                mismatches.append((fmt, name, r.status, r.actual, r.failing_rows, r.total_rows, actual, failing, total,
                                   r.message))
    assert not mismatches, mismatches
    # the same verdicts everywhere, and the table is not trivial: empty strings, NULLs and failures in every format
    verdicts = {fmt: {n: r.status for n, r in got[fmt].items()} for fmt in FORMATS}
    assert all(v == verdicts["parquet"] for v in verdicts.values())
    assert expected["name|empty_count"][0] > 0 and expected["name|null_count"][0] > 0
    assert {"pass", "fail"} <= set(verdicts["parquet"].values())


@pytest.mark.spark
def test_csv_empty_field_is_null_and_quoted_empty_string_is_empty(spark, tmp_path):
    """docs/semantics.md, Sources: Spark's default CSV reading would make both NULL; a source's nullValue wins."""
    from tests.helpers import by_name, run_yaml

    path = tmp_path / "blanks.csv"
    path.write_text('id,s\n1,""\n2,\n3,NULL\n4,a\n', encoding="utf-8")
    items = "".join(f"- entity: t\n  name: {n}\n  type: field\n  field: s\n  metric: {m}\n"
                    "  condition: {type: greater_than_or_equal_to, value: 0}\n"
                    for n, m in (("nulls", "null_count"), ("empties", "empty_count")))
    text = "version: 1\nassertions:\n" + items
    default = by_name(run_yaml(spark, text, {"t": f"{path}:csv"}))
    marked = by_name(run_yaml(spark, text, {"t": {"path": str(path), "format": "csv",
                                                  "options": {"nullValue": "NULL"}}}))
    lines = path.read_text().splitlines()[1:]
    unquoted_empty = sum(line.endswith(",") for line in lines)
    quoted_empty = sum(line.endswith(',""') for line in lines)
    word_null = sum(line.endswith(",NULL") for line in lines)
    assert (default["nulls"].actual, default["empties"].actual) == (unquoted_empty, quoted_empty)
    assert (marked["nulls"].actual, marked["empties"].actual) == (unquoted_empty + word_null, quoted_empty)
