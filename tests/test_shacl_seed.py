"""Seed 001 (SHACL → assertions), example by example: golden specs, keys, mapping table, config, limitations.

Goldens live in tests/fixtures/shacl/golden/<example>.yml; AIRFLOW_DQ_UPDATE_GOLDEN=1 rewrites them (review the diff).
"""

from __future__ import annotations

import os
import pathlib

import pytest
import yaml

from airflow_dq.shacl import ShaclConfig, convert_file
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text

FIX = pathlib.Path(__file__).resolve().parent / "fixtures" / "shacl"
SEED, GOLDEN = FIX / "seed", FIX / "golden"
ON = {"create_assertions": True}
ACCOUNTS = "urn:li:dataset:(urn:li:dataPlatform:postgres,accounts,PROD)"
TRADES = "urn:li:dataset:(urn:li:dataPlatform:logical,example.com/TradeDataset,PROD)"


def convert(example: str, config=ON):
    return convert_file(SEED / f"{example}.ttl", config=config)


def suffixes(conversion) -> list[str]:
    return [a["name"] for a in conversion.assertions]


@pytest.mark.parametrize("example", sorted(p.stem for p in SEED.glob("*.ttl")))
def test_golden(example):
    conversion = convert(example)
    golden = GOLDEN / f"{example}.yml"
    if os.environ.get("AIRFLOW_DQ_UPDATE_GOLDEN"):
        golden.write_text(conversion.to_yaml().replace(str(SEED) + "/", ""))
    expected = yaml.safe_load(golden.read_text())
    assert conversion.document == expected
    if conversion.assertions:  # every converted document goes through the normal spec loader, and round-trips
        loaded = conversion.load()
        assert [a.name for a in loaded] == suffixes(conversion)
        from_yaml = load_spec_text(conversion.to_yaml(), file="written.yml")
        strip = lambda a: {k: v for k, v in a.to_dict().items() if k != "location"}  # noqa: E731
        assert [strip(a) for a in from_yaml] == [strip(a) for a in loaded]


def test_linking_pattern_1_inline_properties_on_the_dataset():
    c = convert("inline")
    assert suffixes(c) == [f"{TRADES}_tradeId_not_null", f"{TRADES}_tradeId_min_length", f"{TRADES}_tradeId_max_length"]
    assert {a["meta"]["shacl"]["link"] for a in c.assertions} == {"inline"}


def test_linking_pattern_2_conforms_to_a_node_shape():
    c = convert("conforms_to")
    assert suffixes(c) == [f"{TRADES}_tradeId_not_null"]
    shacl = c.assertions[0]["meta"]["shacl"]
    assert (shacl["link"], shacl["shape"]) == ("conformsTo", "ex:TradeSchema")


def test_linking_pattern_3_target_class_applies_to_every_dataset():
    c = convert("target_class")
    quotes = TRADES.replace("TradeDataset", "QuoteDataset")
    assert suffixes(c) == [f"{quotes}_tradeId_required", f"{TRADES}_tradeId_required"]
    alone = convert("target_class_alone")
    assert alone.assertions == []
    [skip] = alone.report.by_status("skipped")
    assert skip.constraint == "sh:targetClass dcat:Dataset" and "no dataset in the graph" in skip.reason


def test_keys_are_dataset_urn_field_and_constraint_type_like_the_seed_examples():
    # seed: urn:li:dataset:(postgres,accounts,PROD)_accountId_not_null, ..._customerName_min_length, ..._riskWeight_pattern
    assert f"{ACCOUNTS}_accountId_not_null" in suffixes(convert("required_field"))
    assert f"{ACCOUNTS}_customerName_min_length" in suffixes(convert("field_size"))
    assert f"{ACCOUNTS}_riskWeight_pattern" in suffixes(convert("value_checks"))


def test_mapping_table_required_single_value_is_not_null_field_metric():
    [a] = convert("required_field").assertions
    assert (a["type"], a["field"], a["metric"], a["condition"]) == ("field", "accountId", "null_count",
                                                                     {"type": "equal_to", "value": 0})
    assert a["meta"]["shacl"]["datahub"] == {"assertion_type": "FIELD_METRIC", "operator": "NOT_NULL",
                                             "parameters": {"minCount": 1, "maxCount": 1}}
    assert a["description"] == "Field accountId is required"


def test_mapping_table_cardinality_gives_greater_than_or_equal_and_between():
    required, between = convert("cardinality").assertions
    assert required["meta"]["shacl"]["datahub"] == {"assertion_type": "FIELD_METRIC",
                                                    "operator": "GREATER_THAN_OR_EQUAL", "parameters": {"minCount": 1}}
    assert between["meta"]["shacl"]["datahub"] == {"assertion_type": "FIELD_METRIC", "operator": "BETWEEN",
                                                   "parameters": {"minCount": 1, "maxCount": 3}}
    # On a column a row holds 0 or 1 value: both become "the value is present" (docs/shacl.md).
    assert required["metric"] == between["metric"] == "null_count"


def test_mapping_table_lengths_are_field_values_on_the_length():
    low, high = convert("field_size").assertions
    assert (low["field_transform"], low["condition"], low["exclude_nulls"]) == (
        "length", {"type": "greater_than_or_equal_to", "value": 3}, True)
    assert (high["field_transform"], high["condition"]) == ("length", {"type": "less_than_or_equal_to", "value": 100})
    assert [low["meta"]["shacl"]["datahub"]["operator"], high["meta"]["shacl"]["datahub"]["operator"]] == [
        "GREATER_THAN_OR_EQUAL", "LESS_THAN_OR_EQUAL"]


def test_mapping_table_value_checks_are_min_max_metrics_and_a_regex():
    low, high, pattern = convert("value_checks").assertions
    assert (low["metric"], low["condition"]) == ("min", {"type": "greater_than_or_equal_to", "value": 0.0})
    assert (high["metric"], high["condition"]) == ("max", {"type": "less_than_or_equal_to", "value": 100.0})
    assert pattern["condition"] == {"type": "matches_regex", "value": r"^\d{1,3}\.\d{2}$"}
    assert pattern["meta"]["shacl"]["datahub"] == {"assertion_type": "FIELD_VALUES", "operator": "MATCHES",
                                                   "parameters": {"pattern": r"^\d{1,3}\.\d{2}$"}}


def test_glossary_term_constraints_are_read_through_sh_node():
    c = convert("glossary_term")
    assert suffixes(c) == [f"{ACCOUNTS}_Account_ID_not_null", f"{ACCOUNTS}_Account_ID_max_length"]
    assert c.assertions[1]["condition"] == {"type": "less_than_or_equal_to", "value": 20}  # declared on the term
    assert c.assertions[0]["meta"]["shacl"]["field_from"] == "sh:node"


def test_field_name_priority_path_then_node_local_name_then_name():
    c = convert("field_name_priority")
    fields = {a["field"]: a["meta"]["shacl"]["field_from"] for a in c.assertions}
    assert fields == {"viaPath": "sh:path", "Customer_Name": "sh:node", "by_name": "sh:name"}
    [nameless] = c.report.by_status("skipped")
    assert "no field name" in nameless.reason


def test_limitations_are_skipped_with_their_reason():
    c = convert("limitations")
    assert c.assertions == []
    reasons = {e.constraint: e.reason for e in c.report.by_status("skipped")}
    assert "standalone NodeShape" in reasons["sh:NodeShape ex:Standalone"]
    assert "limitation 2" in reasons["sh:datatype xsd:date"]
    assert "limitation 3" in reasons["sh:minCount 0, sh:maxCount 1"]
    assert "limitation 4" in reasons["sh:lessThan ex:settlementDate"]
    assert "limitation 4" in reasons["sh:notEquals ex:sellCurrency"]
    assert len(reasons) == 5


def test_assertions_are_disabled_by_default_and_every_constraint_is_reported():
    c = convert("inline", config=None)
    assert c.assertions == []
    skipped = c.report.by_status("skipped")
    assert [e.constraint for e in skipped] == ["sh:minCount 1, sh:maxCount 1", "sh:minLength 10", "sh:maxLength 20"]
    assert all("create_assertions is off" in e.reason for e in skipped)
    with pytest.raises(SpecError, match="no assertions were converted"):
        c.load()


@pytest.mark.parametrize("types,expected", [
    (None, ["not_null", "min_length", "max_length"]),
    ({}, ["not_null", "min_length", "max_length"]),  # empty → all enabled
    ({"field_size": False}, ["not_null"]),  # others default to True
    ({"required_fields": False}, ["min_length", "max_length"]),
    ({"required_fields": False, "field_size": False, "value_checks": True}, []),
])
def test_assertion_type_sub_flags(types, expected):
    config = {"create_assertions": True} | ({} if types is None else {"assertion_types": types})
    c = convert("inline", config=config)
    assert [n.rsplit("tradeId_", 1)[1] for n in suffixes(c)] == expected
    off = [e for e in c.report.by_status("skipped") if "is off" in e.reason]
    assert len(off) == 3 - len(expected)


def test_value_checks_flag_covers_pattern_and_ranges():
    c = convert("value_checks", config={"create_assertions": True, "assertion_types": {"value_checks": False}})
    assert c.assertions == [] and len(c.report.by_status("skipped")) == 3


def test_config_is_validated_with_a_clear_message():
    with pytest.raises(SpecError, match=r"assertion_types\.feild_size: Extra inputs are not permitted"):
        ShaclConfig.from_context({"create_assertions": True, "assertion_types": {"feild_size": True}})
    with pytest.raises(SpecError, match="create_assertions"):
        ShaclConfig.from_context({"create_assertions": "maybe"})
    assert ShaclConfig().create_assertions is False
    assert ShaclConfig.enabled().assertion_types.model_dump() == {
        "required_fields": True, "field_size": True, "value_checks": True, "datatypes": False}


def test_platform_defaults_to_logical_and_environment_is_configurable():
    c = convert("inline", config={"create_assertions": True, "environment": "DEV", "default_platform": "hive"})
    assert c.assertions[0]["entity"] == "urn:li:dataset:(urn:li:dataPlatform:hive,example.com/TradeDataset,DEV)"
    assert convert("inline").assertions[0]["entity"] == TRADES
