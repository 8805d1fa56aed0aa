"""Templated specs (template_ext .yml), sources and filters, through dag.test() with a fixed logical date."""

from __future__ import annotations

import pathlib

import pendulum
import pytest

from tests.airflow_helpers import task_states, xcom_value
from tests.dq_airflow_queries import rendered_fields

pytestmark = [pytest.mark.airflow, pytest.mark.submit]

DAGS = pathlib.Path(__file__).resolve().parent / "dags" / "severity_dags.py"
SPEC = pathlib.Path(__file__).resolve().parent / "dags" / "specs"
ROOT = pathlib.Path(__file__).resolve().parent.parent
NOV_1 = pendulum.datetime(2026, 11, 1, tz="UTC")


def test_spec_file_sources_and_filters_are_rendered_with_the_run_context(dag_runner):
    import pandas as pd

    events = pd.read_csv(ROOT / "dags_example" / "data" / "purchase_events.csv", parse_dates=["updated_at"])
    day = events[events.updated_at.dt.strftime("%Y-%m-%d") == "2026-11-01"]
    purchases = int((day.event_type == "purchase").sum())

    run = dag_runner(DAGS, "severity_templated", logical_date=NOV_1)
    assert task_states(run) == {"absolute_spec": "success", "relative_spec_and_filters": "success"}
    absolute = xcom_value(run, "absolute_spec")
    assert absolute["outcome"] == "pass" and absolute["total"] == 1
    rendered = rendered_fields(run, "absolute_spec")["spec"]
    assert "name: daily_rows_20261101" in rendered and f"value: {len(day)}" in rendered

    relative = xcom_value(run, "relative_spec_and_filters")
    assert relative["outcome"] == "pass", relative  # the day's purchases only: spec filter AND operator filter
    fields = rendered_fields(run, "relative_spec_and_filters")
    assert fields["filters"] == {"purchase_events": "event_type = 'purchase'"}
    assert f"value: {purchases}" in fields["spec"]
    assert fields["sources"]["purchase_events"].endswith("dags_example/data/purchase_events.csv")


def test_errors_in_a_templated_spec_name_the_file_and_line(dag_runner, capfd):
    run = dag_runner(DAGS, "severity_templated_broken", logical_date=NOV_1)
    log = "".join(capfd.readouterr())
    assert task_states(run) == {"dq": "failed"}
    assert (f"{SPEC / 'templated_broken.yml'}:6: assertions[0].condition: condition 'between' needs both 'min' "
            "and 'max'") in log
    assert "Spark-Submit cmd" not in log


def test_relative_and_absolute_spec_paths_resolve_without_airflow_loading_them_at_parse_time():
    from tests.conftest import load_dag

    dag = load_dag(DAGS, "severity_templated")
    dag.resolve_template_files()  # what the DAG processor does: the spec path must stay a path
    assert dag.get_task("absolute_spec").spec == str(SPEC / "templated_daily.yml")
    assert dag.get_task("relative_spec_and_filters").spec == "specs/templated_daily.yml"
