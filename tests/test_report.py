"""The HTML report: self-contained, numbers from a real run, rendered by headless Chromium (Debian's ``chromium``)."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import zlib
from html import unescape

import pytest

from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.report import render_html, write_report
from tests.helpers import FLIGHTS, run_yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium not installed: apt-get install -y chromium (Debian package 'chromium')")


def _a(name: str, body: str, severity: str = "error") -> str:
    lines = [f"  - entity: \"{FLIGHTS}\"", f"    name: {name}", f"    severity: {severity}"]
    return "\n".join(lines + [f"    {ln}" for ln in body.strip().splitlines()]) + "\n"


SPEC = "version: 1\nassertions:\n" + "".join([
    _a("late_departures", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                          "exclude_nulls: true\ndimensions: [origin, carrier]\ntop_n: 3\n"
                          "samples: {limit: 4, columns: [month, day, dep_delay, origin, tailnum], mask: {tailnum: hash}}"),
    _a("tail_known", "type: field\nfield: tailnum\ncondition: {type: is_not_null}\n"
                     "failure_threshold: {type: percentage, value: 0.5}\ndimensions: [carrier]", severity="warn"),
    _a("origin_known", "type: field\nfield: origin\ncondition: {type: in, value: [EWR, JFK, LGA]}"),
    _a("ghost_column", "type: field\nfield: no_such_column\ncondition: {type: is_not_null}", severity="warn"),
])


@pytest.fixture(scope="module")
def run(spark, flights_parquet):
    return run_yaml(spark, SPEC, {FLIGHTS: flights_parquet}, run_id="report-run")


@pytest.fixture(scope="module")
def expected(flights_pandas):
    d = flights_pandas
    late = d["dep_delay"].notna() & (d["dep_delay"] > 60)
    per_origin = late.groupby(d["origin"]).sum()
    return {"late": int(late.sum()), "scope": int(d["dep_delay"].notna().sum()),
            "ewr_late": int(per_origin["EWR"]), "tail_missing": int(d["tailnum"].isna().sum()),
            "first_late_delay": float(d.loc[late, "dep_delay"].iloc[0])}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_report_is_self_contained(run):
    html = render_html(run)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    lowered = html.lower()
    for fetching in ("http://", "https://", "<script", "<link", "<img", "<iframe", "url(", "@import", "src="):
        assert fetching not in lowered, fetching


def test_report_shows_summary_expected_actual_dimensions_and_samples(run, expected):
    text = _text(render_html(run))
    assert "Outcome FAIL" in text
    assert "1 passed" in text and "2 failed" in text and "1 not evaluable" in text
    assert f"failing rows {expected['late']:,} of {expected['scope']:,}" in text
    assert "expected <= 60; failing rows <= 0" in text
    assert "Impact by origin" in text and "Impact by carrier" in text and "Others (" in text
    assert f"EWR fail {expected['ewr_late']:,}" in text
    assert "Failing rows: 4 example(s) of" in text and "sha256:" in text
    assert "column 'no_such_column' does not exist" in text
    # severity × status table: error row = 1 fail + 1 pass, warn row = 1 fail + 1 error
    assert re.search(r"error 1 1 0 2 warn 0 1 1 2", text), text[:600]


def test_report_escapes_everything_it_shows():
    nasty = "<script>alert(1)</script>"
    r = AssertionResult(assertion_id="x", name=nasty, kind="field_values", type="field", entity="e", severity="error",
                        status="fail", column="c", actual=1, expected="x", failing_rows=1, total_rows=2, message=nasty)
    result = RunResult(run_id="r", reference_time="t", started_at="s", finished_at="f", results=[r],
                       diagnostics={"x": {"samples": {"limit": 1, "columns": ["c"], "masked": {}, "rows": [[nasty]]},
                                          "dimensions": {"top_n": 1, "columns": [{"column": "c", "group_count": 1,
                                                                                  "failing_groups": 1, "groups": [
                                              {"value": nasty, "status": "fail", "failing_rows": 1, "total_rows": 2,
                                               "failure_rate": 0.5, "impact": 0.01}]}]}}})
    html = render_html(result)
    assert "<script" not in html.lower() and html.count("&lt;script&gt;") >= 4


def _chromium(*args: str, tmp: pathlib.Path) -> subprocess.CompletedProcess:
    profile = tmp / "chromium-profile"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _png_pixels(path: pathlib.Path):
    """Decode an 8-bit RGB(A), non-interlaced PNG (what Chromium writes) with the standard library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    bpp = 4 if color == 6 else 3
    raw, stride = zlib.decompress(idat), width * bpp
    prev, out = bytearray(stride), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return width, height, bpp, out


@needs_chromium
def test_chromium_renders_the_report_with_the_key_numbers(run, expected, tmp_path):
    report = write_report(run, str(tmp_path / "report.html"))
    url = pathlib.Path(report).as_uri()
    dom = _chromium("--dump-dom", url, tmp=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    text = _text(dom.stdout)
    assert "Outcome FAIL" in text
    assert f"failing rows {expected['late']:,} of {expected['scope']:,}" in text
    assert f"EWR fail {expected['ewr_late']:,}" in text
    assert f"{expected['tail_missing']:,}" in text
    assert f"{expected['first_late_delay']:g}" in text  # first failing sample row
    assert dom.stdout.count("<svg") == 3  # origin, carrier (late_departures), carrier (tail_known)

    shot = tmp_path / "report.png"
    painted = _chromium(f"--screenshot={shot}", "--window-size=1200,1400", "--hide-scrollbars", url, tmp=tmp_path)
    assert painted.returncode == 0 and shot.exists(), painted.stderr[-2000:]
    width, height, bpp, rows = _png_pixels(shot)
    assert (width, height) == (1200, 1400)
    red = sum(1 for row in rows for i in range(0, len(row), bpp)
              if abs(row[i] - 0xCF) < 12 and abs(row[i + 1] - 0x22) < 12 and abs(row[i + 2] - 0x2E) < 12)
    assert red > 500, red  # FAIL badges, the failing assertion's border and the impact bars are painted


def test_cli_writes_and_prints_the_report(tmp_path):
    entity = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
    spec = tmp_path / "spec.yml"
    spec.write_text(f"""version: 1
assertions:
  - entity: "{entity}"
    name: amount_small
    type: field
    field: amount
    condition: {{type: less_than, value: 5}}
    exclude_nulls: true
    dimensions: [event_type, product_id]
    samples: {{limit: 3, columns: [id, amount, email_address], mask: {{email_address: partial}}}}
""")
    data = ROOT / "dags_example" / "data" / "purchase_events.csv"
    report = tmp_path / "out" / "dq.html"
    base = [sys.executable, "-m", "airflow_dq.cli", "run", str(spec), "--source", f"{entity}={data}",
            "--out", str(tmp_path / "result.json"), "--master", "local[1]"]
    refused = subprocess.run(base + ["--report", str(report)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert refused.returncode == 2 and "does not exist" in refused.stderr  # before any Spark job
    report.parent.mkdir()
    proc = subprocess.run(base + ["--report", str(report)], capture_output=True, text=True, cwd=ROOT, timeout=400,
                          env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"})
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert f"report: {report}" in proc.stdout
    html = report.read_text()
    result = RunResult.from_json((tmp_path / "result.json").read_text())
    (r,) = result.results
    assert f"failing rows {r.failing_rows:,} of {r.total_rows:,}" in _text(html)
    assert "Impact by product_id" in html and "@example.com" not in html  # masked e-mail addresses
