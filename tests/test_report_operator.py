"""DataQualityOperator writes the HTML report next to the result document and links it; XCom and OpenLineage stay
small (diagnostics are referenced, never embedded)."""

from __future__ import annotations

import json
import pathlib

import pandas as pd
import pytest

from tests.airflow_helpers import task_states, xcom_value

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "report_dags.py"
DATA = pathlib.Path(__file__).resolve().parent.parent / "dags_example" / "data" / "purchase_events.csv"


@pytest.fixture(scope="module")
def report_run(dag_runner):
    return dag_runner(DAGS, "dq_report")


def test_report_is_written_next_to_the_result_and_linked(report_run):
    assert task_states(report_run) == {"dq": "success"}  # warn only
    summary = xcom_value(report_run, "dq")
    report = pathlib.Path(summary["report_location"])
    result = pathlib.Path(summary["result_location"])
    assert report.name == "report.html" and report.parent == result.parent and report.is_file()
    from airflow.models.xcom import XComModel
    from airflow.utils.session import create_session

    with create_session() as session:
        link = session.query(XComModel.value).filter(
            XComModel.dag_id == report_run.dag_id, XComModel.run_id == report_run.run_id,
            XComModel.task_id == "dq", XComModel.key == "_link_DataQualityReportLink").scalar()
    while isinstance(link, str) and link.startswith('"'):
        link = json.loads(link)
    assert link == "file://" + str(report)

    d = pd.read_csv(DATA)
    failing = int((d["amount"].notna() & (d["amount"] >= 5)).sum())
    html = report.read_text()
    assert f"{failing:,} of {int(d['amount'].notna().sum()):,}" in html
    assert "Impact by <code>product_id</code>" in html and "@example.com" not in html


def test_xcom_summary_references_diagnostics_without_embedding_them(report_run):
    summary = xcom_value(report_run, "dq")
    text = json.dumps(summary)
    document = json.loads(pathlib.Path(summary["result_location"]).read_text())
    diag = document["diagnostics"]["amount_small"]
    assert len(diag["samples"]["rows"]) == 5 and diag["dimensions"]["columns"][1]["column"] == "product_id"
    group_labels = {str(g["value"]) for c in diag["dimensions"]["columns"] for g in c["groups"]
                    if not g.get("others")}
    sample_values = {str(v) for row in diag["samples"]["rows"] for v in row if isinstance(v, str)}
    assert group_labels and sample_values
    for value in group_labels | sample_values:
        assert json.dumps(value) not in text, value  # as a JSON string: "purchase" is part of "purchase_events"
    assert len(text) < 3000, len(text)


def test_openlineage_events_do_not_embed_diagnostics(report_run, ol_events):
    document = json.loads(pathlib.Path(xcom_value(report_run, "dq")["result_location"]).read_text())
    diag = document["diagnostics"]["amount_small"]
    hashed = {v for row in diag["samples"]["rows"] for v in row if isinstance(v, str) and v.startswith("sha256:")}
    events = [e for e in ol_events(lambda ev: any(x.get("job", {}).get("name", "").startswith("dq_report")
                                                  for x in ev)) if e.get("job", {}).get("name", "").startswith("dq_report")]
    assert events, "no OpenLineage events for the dq_report DAG"
    text = json.dumps(events)
    assert hashed and not any(h in text for h in hashed)
    assert '"groups"' not in text and "failure_rate" not in text
