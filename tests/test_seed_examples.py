"""Every YAML example of seed 002 (tests/seed_002/*.yml, as written apart from SQL table names) parses and runs on
Spark against datasets built to match it, with the outcome docs/seed_examples.md states (read from its table): a
"good" purchase_events table, a "bad" one, and one CLI run of all examples through spark-submit."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from airflow_dq.spec.loader import load_spec
from tests.helpers import by_name

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "tests" / "seed_002").glob("*.yml"))
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:snowflake,test_db.public.purchase_events,PROD)"
REFERENCE = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)



def documented_outcomes() -> dict[str, tuple[str, str, str | None, str]]:
    """docs/seed_examples.md's table: example -> (status on the good dataset, status on the bad dataset, fragment of
    the bad result's message or None, status in the one-spec CLI run on the bad dataset)."""
    text = (ROOT / "docs" / "seed_examples.md").read_text(encoding="utf-8")
    out = {}
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        example, _checks, good, bad, fragment, cli = (c.strip() for c in line.strip().strip("|").split("|"))
        out[example.strip("`")] = (good.strip("`"), bad.strip("`"),
                                   fragment.strip("`") if fragment.startswith("`") else None, cli.strip("`"))
    return out


OUTCOMES = documented_outcomes()


def _purchase_events(bad: bool) -> list[dict]:
    rows = []
    n = 999 if bad else 1000
    for i in range(1, n + 1):
        rows.append({
            "id": 7 if bad and i == 8 else i,
            "product_id": f"product_{i % 3 + 1}",
            "amount": None if i % 250 == 0 else Decimal(f"{(i % 95) / 10 + 0.25:.2f}"),
            "email_address": f"user{i}@example.com",
            "event_type": "purchase" if i % 4 else "refund",
            "updated_at": REFERENCE - timedelta(hours=1, minutes=i),
            "col_date": date(2026, 10, 1) + timedelta(days=i % 30),
            "name": f"Customer {i}",
        })
    if bad:
        rows[0]["amount"] = Decimal("11.50")
        rows[1]["product_id"] = "product_9"  # also an orphan for the foreign-key example
        rows[2]["email_address"] = "not-an-email"
        rows[3]["col_date"] = None
        rows[4]["name"] = ""
        for r in rows:
            r["updated_at"] -= timedelta(hours=7)
    return rows


def _write(path: pathlib.Path, rows: list[dict], schema) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return str(path)


def _schema(amount_type=None, columns=None):
    import pyarrow as pa

    fields = [("id", pa.int32()), ("product_id", pa.string()), ("amount", amount_type or pa.decimal128(10, 2)),
              ("email_address", pa.string()), ("event_type", pa.string()), ("updated_at", pa.timestamp("us", tz="UTC")),
              ("col_date", pa.date32()), ("name", pa.string())]
    return pa.schema([f for f in fields if columns is None or f[0] in columns])


@pytest.fixture(scope="module")
def seed_data(spark, tmp_path_factory):
    """Parquet files for the good and bad purchase_events, plus the catalog tables the SQL examples join."""
    base = tmp_path_factory.mktemp("seed002")
    good, bad = _purchase_events(False), _purchase_events(True)
    bad_str = [{**r, "amount": None if r["amount"] is None else str(r["amount"])} for r in bad]
    import pyarrow as pa

    paths = {
        "good": _write(base / "good.parquet", good, _schema()),
        "bad": _write(base / "bad.parquet", bad, _schema()),
        "bad_types": _write(base / "bad_types.parquet", bad_str, _schema(amount_type=pa.string())),
        "four": _write(base / "four.parquet", [{k: r[k] for k in ("id", "product_id", "amount", "updated_at")}
                                               for r in good],
                       _schema(columns={"id", "product_id", "amount", "updated_at"})),
        "products": _write(base / "products.parquet",
                           [{"id": f"product_{i}", "title": f"Product {i}"} for i in (1, 2, 3)],
                           pa.schema([("id", pa.string()), ("title", pa.string())])),
        "raw": _write(base / "raw.parquet", good, _schema()),
    }
    # Catalog tables as far as the engine is concerned: names the SQL examples use that are not entities of the run.
    spark.read.parquet(paths["products"]).createOrReplaceTempView("products")
    spark.read.parquet(paths["raw"]).createOrReplaceTempView("purchase_events_raw")
    return paths


def _run(spark, path: pathlib.Path, source: str):
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan

    plan = build_plan(load_spec(path), {ENTITY: source}, run_id=path.stem, reference_time=REFERENCE)
    result = run_plan(spark, plan)
    assert len(result.results) == 1
    return result.results[0]


def test_every_seed_example_is_a_fixture_with_a_documented_outcome():
    assert [p.stem for p in SEEDS] == list(OUTCOMES)
    statuses = {"pass", "fail", "error"}
    assert all({good, bad, cli} <= statuses for good, bad, _, cli in OUTCOMES.values())


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_seed_example_parses_with_its_schedule(path):
    (a,) = load_spec(path)
    assert a.entity == ENTITY and a.severity == "error"
    assert a.schedule and a.schedule["type"] in ("interval", "on_table_change")
    if a.schedule["type"] == "interval":
        assert a.schedule["interval"] == "6 hours"


@pytest.mark.parametrize("path", SEEDS, ids=[p.stem for p in SEEDS])
def test_seed_example_outcomes(spark, seed_data, path):
    good_status, bad_status, fragment, _ = OUTCOMES[path.stem]
    good = _run(spark, path, seed_data["four" if path.stem == "13_schema_exact_match" else "good"])
    assert good.status == good_status, (good.message, good.actual, good.details)
    bad_source = {"13_schema_exact_match": "good", "14_schema_contains": "bad_types"}.get(path.stem, "bad")
    bad = _run(spark, path, seed_data[bad_source])
    assert bad.status == bad_status, (bad.message, bad.actual, bad.details)
    if fragment:
        assert fragment in (bad.message or ""), bad.message


def test_seed_numbers_on_the_bad_dataset(spark, seed_data):
    """The computed values themselves, not only the verdicts."""
    got = {p.stem: _run(spark, p, seed_data["bad"]) for p in SEEDS if not p.stem.startswith(("13", "14"))}
    assert got["02_volume_between"].actual == 999
    assert (got["05_field_values_between"].failing_rows, got["05_field_values_between"].total_rows) == (1, 996)
    assert (got["06_field_values_in_set"].failing_rows, got["06_field_values_in_set"].total_rows) == (1, 999)
    assert got["07_field_values_email_regex"].failing_rows == 1
    assert got["08_field_metric_null_count"].actual == 1
    assert got["09_field_metric_unique_percentage"].actual == pytest.approx(998 * 100 / 999)
    assert got["10_field_metric_empty_percentage"].actual == pytest.approx(100 / 999)
    assert got["11_sql_foreign_key"].actual == 1
    assert got["12b_sql_row_count_difference_corrected"].actual == -1
    assert "does not parse" in got["12_sql_row_count_difference"].message
    fresh = got["01_freshness_6_hours"]
    assert fresh.details["source_type"] == "LAST_MODIFIED_FIELD"
    assert fresh.actual == (REFERENCE - timedelta(hours=8, minutes=1)).isoformat()


@pytest.mark.submit
def test_cli_runs_the_seed_examples_with_as_of(seed_data, tmp_path):
    """All examples in one spec through ``airflow-dq run`` (spark-submit) on the bad dataset: exit 1 and the
    statuses of the docs' CLI column; the SQL examples see the joined tables because they are declared in the run."""
    items = [p.read_text().split("assertions:\n", 1)[1] for p in SEEDS]
    extra = ("- entity: products\n  type: volume\n  condition: {type: greater_than, value: 0}\n"
             "- entity: purchase_events_raw\n  type: volume\n  condition: {type: greater_than, value: 0}\n")
    spec = tmp_path / "seed_002_all.yml"
    spec.write_text("version: 1\nassertions:\n" + "".join(items) + extra)
    out = tmp_path / "result.json"
    proc = subprocess.run([sys.executable, "-m", "airflow_dq.cli", "run", str(spec),
                           "--source", f"purchase_events={seed_data['bad']}",
                           "--source", f"products={seed_data['products']}",
                           "--source", f"purchase_events_raw={seed_data['raw']}",
                           "--as-of", REFERENCE.isoformat(), "--master", "local[2]", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    got = [(r["status"], r["message"]) for r in doc["results"]]
    assert [status for status, _ in got] == [OUTCOMES[p.stem][3] for p in SEEDS] + ["pass", "pass"], \
        [(r["name"], r["status"], r["message"]) for r in doc["results"]]
    for p, (status, message) in zip(SEEDS, got):
        _, bad, fragment, cli = OUTCOMES[p.stem]
        if fragment and cli == bad:
            assert fragment in (message or ""), (p.stem, message)
    assert doc["reference_time"] == REFERENCE.isoformat()
