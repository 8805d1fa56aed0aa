"""Every example DAG imports cleanly and runs end to end with dag.test() on local Spark."""

from __future__ import annotations

import pathlib

import pytest

from tests.airflow_helpers import task_states, xcom_value

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "dags_example"
EVENTS = str(EXAMPLES / "data" / "purchase_events.csv")


def test_every_example_dag_imports_without_errors(airflow_db):
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=str(EXAMPLES), safe_mode=False)
    assert bag.import_errors == {}
    assert {"airflow_dq_example", "example_dq_branch", "example_dq_sensor", "example_dq_assets",
            "example_dq_on_validated_events", "example_dq_purchase_events_producer", "dq_products_daily",
            "dq_purchase_events_checks__every_6_hours", "dq_purchase_events_checks__on_table_change"} <= set(bag.dags)




@pytest.mark.airflow
@pytest.mark.submit
def test_main_example_runs(dag_runner):
    run = dag_runner(EXAMPLES / "example_dq.py", "airflow_dq_example")
    assert task_states(run) == {"validate_purchase_events": "success", "report": "success"}
    assert xcom_value(run, "validate_purchase_events")["outcome"] == "warn"


@pytest.mark.airflow
@pytest.mark.submit
def test_branch_example_takes_the_warn_path(dag_runner):
    run = dag_runner(EXAMPLES / "example_dq_branch.py", "example_dq_branch")
    assert task_states(run) == {"check_purchase_events": "success", "route_on_quality": "success",
                                "publish": "success", "notify_owners": "success", "quarantine": "skipped"}
    warned = xcom_value(run, "notify_owners")
    assert "amount_mostly_present" in warned


@pytest.mark.airflow
@pytest.mark.submit
def test_sensor_example_defers_then_validates(dag_runner):
    run = dag_runner(EXAMPLES / "example_dq_sensor.py", "example_dq_sensor")
    assert task_states(run) == {"wait_for_complete_extract": "success", "validate": "success"}
    # the deferrable path ran: spark-submit was launched detached (its log next to the plan), the trigger waited
    import os

    results = pathlib.Path(os.environ["AIRFLOW_HOME"]) / "airflow-dq" / "results" / "example_dq_sensor"
    assert list(results.rglob("spark-submit-1.log")), "no detached spark-submit for the deferrable sensor"
    sensed = xcom_value(run, "wait_for_complete_extract")
    assert sensed["outcome"] == "pass" and sensed["total"] == 2  # the two volume assertions of the spec


@pytest.mark.airflow
@pytest.mark.submit
def test_assets_example_validates_the_partition_and_triggers_the_consumer(dag_runner):
    import pendulum

    from tests.dq_airflow_queries import asset_events, clear_queue, queued_for, rendered_fields, unpause

    unpause("example_dq_on_validated_events")
    clear_queue("example_dq_on_validated_events")
    run = dag_runner(EXAMPLES / "example_dq_assets.py", "example_dq_assets",
                     logical_date=pendulum.datetime(2026, 11, 1, tz="UTC"))
    assert task_states(run) == {"validate_daily_events": "success"}
    summary = xcom_value(run, "validate_daily_events")
    assert summary["outcome"] == "pass" and summary["total"] == 2
    spec = rendered_fields(run, "validate_daily_events")["spec"]
    assert "name: events_on_20261101" in spec and "to_date(updated_at) = '2026-11-01'" in spec
    validated = "x-airflow-dq-validated:file://" + EVENTS
    assert [e["uri"] for e in asset_events(run)] == [validated]
    assert validated in queued_for("example_dq_on_validated_events")
    consumer = dag_runner(EXAMPLES / "example_dq_assets.py", "example_dq_on_validated_events")
    assert task_states(consumer) == {"build_report": "success"}


@pytest.mark.airflow
@pytest.mark.submit
def test_generated_cron_and_interval_dags_run(dag_runner):
    daily = dag_runner(EXAMPLES / "example_dq_spec_dags.py", "dq_products_daily")
    assert task_states(daily) == {"validate": "success"}
    assert xcom_value(daily, "validate")["total"] == 2
    interval = dag_runner(EXAMPLES / "example_dq_spec_dags.py", "dq_purchase_events_checks__every_6_hours")
    assert task_states(interval) == {"validate": "success"}
    summary = xcom_value(interval, "validate")
    assert summary["total"] == 1 and summary["outcome"] == "pass"
