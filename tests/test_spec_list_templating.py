"""A spec given as a list may mix SHACL shapes and YAML *paths*; each YAML file is rendered and keeps its name."""

from __future__ import annotations

import pathlib

import pendulum
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHAPES = ROOT / "tests" / "fixtures" / "shacl"


def _operator(spec):
    from airflow.sdk import DAG

    from airflow_dq.operators.data_quality import DataQualityOperator

    with DAG(dag_id="list_spec", schedule=None, start_date=pendulum.datetime(2026, 11, 1, tz="UTC")):
        return DataQualityOperator(task_id="dq", spec=spec, sources={}, emit_assets=False)


def test_yaml_paths_inside_a_list_are_rendered_and_parsed_under_their_own_name(tmp_path):
    yml = tmp_path / "daily.yml"
    yml.write_text("version: 1\nassertions:\n  - entity: t\n    name: rows_{{ ds_nodash }}\n    type: volume\n"
                   "    condition: {type: greater_than, value: 0}\n")
    shapes = sorted(SHAPES.glob("*.ttl"))[0]
    op = _operator([str(shapes), str(yml)])
    op.render_template_fields({"ds_nodash": "20261101", "ds": "2026-11-01"})
    names = [a.name for a in op.load_assertions()]
    assert "rows_20261101" in names and len(names) > 1
    rows = next(a for a in op.load_assertions() if a.name == "rows_20261101")
    assert rows.location == f"{yml}:3"


def test_a_broken_yaml_path_in_a_list_names_its_file_and_line(tmp_path):
    from airflow_dq.operators.templating import SpecFileError

    yml = tmp_path / "broken.yml"
    yml.write_text("version: 1\nassertions:\n  - entity: t\n    type: volume\n    condition: {type: between, min: 1}\n")
    op = _operator([{"version": 1, "assertions": [
        {"entity": "t", "type": "volume", "condition": {"type": "equal_to", "value": 1}}]}, str(yml)])
    with pytest.raises(SpecFileError, match=f"{yml}:5: assertions\\[0\\].condition: condition 'between' needs both"):
        op.render_template_fields({})
