"""Spec-driven DAGs: schedules, asset triggers, parse-time validation, per-file import errors."""

from __future__ import annotations

import pathlib
import textwrap
from datetime import timedelta

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "dags_example" / "example_dq_spec_dags.py"
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
DATA = str(ROOT / "dags_example" / "data" / "purchase_events.csv")

GOOD = f"""\
version: 1
assertions:
  - entity: {ENTITY}
    name: rows
    type: volume
    condition: {{type: greater_than, value: 0}}
    schedule: {{type: interval, interval: '30 minutes'}}
"""
BROKEN = f"""\
version: 1
assertions:
  - entity: {ENTITY}
    name: rows
    type: volume
    condition: {{type: between, min: 1}}
"""
DAG_FILE = """\
from airflow_dq.dag_factory import dags_from_specs
globals().update(dags_from_specs({folder!r}, {{"purchase_events": {data!r}}}))
"""


def _bag(tmp_path, specs: dict[str, str]):
    from airflow.dag_processing.dagbag import DagBag

    spec_dir = tmp_path / "specs"
    spec_dir.mkdir()
    for name, text in specs.items():
        (spec_dir / name).write_text(text)
    dags = tmp_path / "dags"
    dags.mkdir()
    (dags / "dq_generated.py").write_text(DAG_FILE.format(folder=str(spec_dir), data=DATA))
    return DagBag(dag_folder=str(dags), safe_mode=False), spec_dir


def test_one_dag_per_spec_file_and_a_broken_file_is_an_import_error_for_its_dag_only(tmp_path, airflow_db):
    bag, spec_dir = _bag(tmp_path, {"events_good.yml": GOOD, "events_broken.yml": BROKEN,
                                    "other_good.yaml": GOOD.replace("name: rows", "name: rows_other")})
    assert sorted(bag.dags) == ["dq_events_good", "dq_other_good"]
    assert bag.dags["dq_events_good"].timetable.delta == timedelta(minutes=30)  # interval schedule
    assert len(bag.import_errors) == 1
    message = next(iter(bag.import_errors.values()))
    # the loader's file:line: field: message, naming the spec file, not just the Python file
    assert f"{spec_dir / 'events_broken.yml'}:6: assertions[0].condition: condition 'between' needs both" in message
    assert "SpecImportError" in message


def test_an_entity_without_a_source_is_refused_at_parse_time(tmp_path, airflow_db):
    other = GOOD.replace("shop.purchase_events", "shop.unknown_table")
    bag, spec_dir = _bag(tmp_path, {"unknown.yml": other, "good.yml": GOOD})
    assert list(bag.dags) == ["dq_good"]
    message = next(iter(bag.import_errors.values()))
    assert "no source given for entity: urn:li:dataset:(urn:li:dataPlatform:spark,shop.unknown_table,PROD)" in message
    assert f"{spec_dir / 'unknown.yml'}:3" in message  # where the entity is used


def test_schedules_map_to_airflow_schedules():
    from airflow.sdk import Asset

    from tests.conftest import load_dag

    interval = load_dag(EXAMPLE, "dq_purchase_events_checks__every_6_hours")
    assert interval.timetable.delta == timedelta(hours=6)
    assert interval.get_task("validate").select == ["purchase_events_row_count"]

    on_change = load_dag(EXAMPLE, "dq_purchase_events_checks__on_table_change")
    assets = list(on_change.timetable.asset_condition.objects)
    assert assets == [Asset("file://" + DATA)]
    task = on_change.get_task("validate")
    assert task.select == ["id_not_null", "amount_mostly_present"]
    assert [a.uri for a in task.inlets] == ["file://" + DATA]  # the same Asset the check declares as its inlet

    cron = load_dag(EXAMPLE, "dq_products_daily")
    assert cron.timetable.expression == "0 6 * * *"
    assert str(cron.timetable.timezone) == "Europe/Paris"
    assert cron.get_task("validate").select is None  # one schedule in the file: the whole spec


@pytest.mark.airflow
@pytest.mark.submit
def test_a_producer_update_triggers_the_on_table_change_dag_which_runs_its_assertions(dag_runner):
    from tests.airflow_helpers import task_states, xcom_value
    from tests.dq_airflow_queries import clear_queue, queued_for, unpause

    unpause("dq_purchase_events_checks__on_table_change")
    clear_queue("dq_purchase_events_checks__on_table_change")
    producer = dag_runner(EXAMPLE, "example_dq_purchase_events_producer")
    assert task_states(producer) == {"load_purchase_events": "success"}
    assert "file://" + DATA in queued_for("dq_purchase_events_checks__on_table_change")

    run = dag_runner(EXAMPLE, "dq_purchase_events_checks__on_table_change")
    assert task_states(run) == {"validate": "success"}
    summary = xcom_value(run, "validate")
    assert summary["total"] == 2 and summary["outcome"] == "warn"  # only this schedule's assertions ran
    assert [f["name"] for f in summary["failed"]] == ["amount_mostly_present"]
