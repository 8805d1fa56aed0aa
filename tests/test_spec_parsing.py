"""Spec parsing and planning: pure units, no Spark, no Airflow."""

from __future__ import annotations

import textwrap

import pytest

from airflow_dq.core.plan import Plan, PlanError
from airflow_dq.spec.build import build_plan, load_any
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec, load_spec_text
from airflow_dq.spec.sources import parse_cli_source, parse_source_value, resolve_sources

URN = "urn:li:dataset:(urn:li:dataPlatform:snowflake,test_db.public.purchase_events,PROD)"


def spec(body: str) -> str:
    return "version: 1\nassertions:\n" + textwrap.indent(textwrap.dedent(body).lstrip("\n"), "  ")


def test_volume_field_values_and_metrics_compile_to_core_assertions():
    text = spec(f"""
    - entity: {URN}
      type: volume
      metric: row_count
      condition: {{type: between, min: 1000, max: 10000}}
      filters: "event_type = 'purchase'"
    - entity: {URN}
      type: field
      field: amount
      condition: {{type: between, min: 0, max: 10}}
      exclude_nulls: True
      failure_threshold: {{type: percentage, value: 5}}
      severity: warn
    - entity: {URN}
      type: field
      field: id
      metric: unique_percentage
      condition: {{type: equal_to, value: 100}}
      filters: {{type: sql, sql: "id > 0"}}
      schedule: {{type: interval, interval: '6 hours'}}
    """)
    vol, values, metric = load_spec_text(text, file="s.yml")
    assert (vol.kind, vol.filter, vol.condition.min, vol.condition.max) == ("volume", "event_type = 'purchase'", 1000, 10000)
    assert (values.kind, values.field, values.exclude_nulls, values.severity) == ("field_values", "amount", True, "warn")
    assert (values.failure_threshold.type, values.failure_threshold.value) == ("percentage", 5)
    assert (metric.kind, metric.metric, metric.filter, metric.severity) == ("field_metric", "unique_percentage", "id > 0", "error")
    assert metric.schedule == {"type": "interval", "interval": "6 hours"}
    assert vol.location == "s.yml:3" and values.location == "s.yml:8"


def test_errors_name_file_line_and_field_path(tmp_path):
    path = tmp_path / "bad.yml"
    path.write_text(spec(f"""
    - entity: {URN}
      type: field
      field: amount
      condition:
        type: between
        min: 0
    - entity: {URN}
      type: volume
      condition: {{type: greater_than, value: 5}}
      colour: blue
    """))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    text = str(info.value)
    assert f"{path}:6: assertions[0].condition: condition 'between' needs both 'min' and 'max'" in text
    assert f"{path}:12: assertions[1].colour: unknown field 'colour'" in text


def test_invalid_yaml_reports_the_line(tmp_path):
    path = tmp_path / "broken.yml"
    path.write_text("version: 1\nassertions:\n  - entity: x\n    type: [volume\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert str(info.value).startswith(f"{path}:") and "invalid YAML" in str(info.value)
    assert info.value.line is not None and info.value.line >= 4


def test_unknown_type_and_wrong_condition_are_refused_with_their_place():
    text = spec("""
    - entity: t
      type: cardinality
    - entity: t
      type: field
      field: a
      metric: avg
      condition: {type: equal_to, value: 1}
    - entity: t
      type: field
      field: a
      condition: {type: matches_regex}
    """)
    with pytest.raises(SpecError) as info:
        load_spec_text(text, file="x.yml")
    msg = str(info.value)
    assert "x.yml:4: assertions[0].type: unknown assertion type" in msg
    assert "x.yml:8: assertions[1].metric: Value error" not in msg  # no pydantic prefixes leak
    assert "x.yml:8: assertions[1].metric: unknown field metric 'avg'" in msg
    assert "x.yml:13: assertions[2].condition: condition 'matches_regex' needs a 'value'" in msg


def test_severity_defaults_document_level_and_names():
    text = "version: 1\nseverity: warn\nassertions:\n" + textwrap.indent(textwrap.dedent("""\
    - entity: t
      type: volume
      condition: {type: greater_than, value: 0}
    - entity: t
      name: Strict Count
      severity: error
      type: volume
      condition: {type: greater_than, value: 0}
    """), "  ")
    a, b = load_spec_text(text)
    assert a.severity == "warn" and b.severity == "error"
    assert b.id == "strict_count" and b.display_name == "Strict Count"
    assert a.name is None and a.id.startswith("volume_t_greater_than_")


def test_derived_ids_are_stable_and_distinct():
    body = spec("""
    - entity: t
      type: volume
      condition: {type: greater_than, value: 0}
      description: first wording
    - entity: t
      type: volume
      condition: {type: greater_than, value: 1}
    """)
    a1, b1 = load_spec_text(body)
    a2, _ = load_spec_text(body.replace("first wording", "second wording"))
    assert a1.id == a2.id  # descriptions do not change identity
    assert a1.id != b1.id


def test_duplicate_names_are_an_error():
    text = spec("""
    - {entity: t, name: n, type: volume, condition: {type: greater_than, value: 0}}
    - {entity: t, name: n, type: volume, condition: {type: greater_than, value: 1}}
    """)
    with pytest.raises(SpecError, match="duplicate assertion name/id 'n'"):
        load_spec_text(text)


def test_version_and_empty_documents_are_refused():
    with pytest.raises(SpecError, match="version"):
        load_spec_text("version: 2\nassertions: [{entity: t, type: volume, condition: {type: equal_to, value: 1}}]")
    with pytest.raises(SpecError, match="mapping"):
        load_spec_text("- just a list")
    with pytest.raises(SpecError, match="assertions"):
        load_spec_text("version: 1\nassertions: []")


def test_sources_resolve_by_urn_dataset_name_or_short_name():
    assertions = load_spec_text(spec(f"""
    - {{entity: "{URN}", type: volume, condition: {{type: greater_than, value: 0}}}}
    - {{entity: other, type: volume, condition: {{type: greater_than, value: 0}}}}
    """))
    for key in (URN, "test_db.public.purchase_events", "purchase_events"):
        sources = resolve_sources(assertions, {key: "/data/pe.csv", "other": "table:db.other"})
        assert [(s.kind, s.path, s.format, s.table) for s in sources] == [
            ("path", "/data/pe.csv", "csv", None), ("table", None, None, "db.other")]


def test_unknown_entity_is_a_clear_error_before_any_spark_job():
    assertions = load_spec_text(spec("""
    - {entity: missing_one, type: volume, condition: {type: greater_than, value: 0}}
    """), file="m.yml")
    with pytest.raises(SpecError) as info:
        build_plan(assertions, {"something_else": "/x.parquet"})
    assert "no source given for entity: missing_one (used at m.yml:3)" in str(info.value)


def test_source_value_forms():
    assert parse_source_value("e", "s3a://bucket/data:parquet").path == "s3a://bucket/data"
    assert parse_source_value("e", "/data/x.json").format == "json"
    assert parse_source_value("e", "/data/dir").format == "parquet"
    s = parse_source_value("e", {"path": "/d.csv", "options": {"sep": ";"}})
    assert (s.format, s.options) == ("csv", {"sep": ";"})
    with pytest.raises(SpecError, match="unknown format"):
        parse_source_value("e", {"path": "/d", "format": "xls"})
    assert parse_cli_source(f"{URN}=/d.csv:csv") == (URN, "/d.csv:csv")
    with pytest.raises(SpecError, match="ENTITY=PATH"):
        parse_cli_source("no-equals-sign")


def test_plan_round_trips_as_versioned_json():
    assertions = load_any({"version": 1, "assertions": [
        {"entity": "t", "type": "field", "field": "a", "condition": {"type": "in", "value": [1, 2]},
         "failure_threshold": {"type": "count", "value": 3}}]})
    plan = build_plan(assertions, {"t": "/t.parquet"}, run_id="r1")
    again = Plan.from_json(plan.to_json())
    assert again.to_dict() == plan.to_dict()
    assert again.assertions[0].failure_threshold.allows(3, 10) and not again.assertions[0].failure_threshold.allows(4, 10)
    with pytest.raises(PlanError, match="version"):
        Plan.from_dict({**plan.to_dict(), "version": 99})


def test_engine_options_are_validated_before_spark():
    from airflow_dq.spec.engine_options import parse_engine_options

    assert parse_engine_options(["distinct=approximate", "footer_stats=false", "distinct_rsd=0.02"]) == {
        "distinct": "approximate", "footer_stats": False, "distinct_rsd": 0.02}
    assert parse_engine_options({"lean_planning": True}) == {"lean_planning": True}
    with pytest.raises(SpecError, match="unknown engine option 'fast'"):
        parse_engine_options({"fast": True})
    with pytest.raises(SpecError, match="distinct='roughly': use exact or approximate"):
        parse_engine_options(["distinct=roughly"])
    with pytest.raises(SpecError, match="expected KEY=VALUE"):
        parse_engine_options(["distinct"])
