"""SQL filters → OpenLineage subset conditions: exact translations, and no condition when it cannot be exact."""

from __future__ import annotations

import json

import pytest
from openlineage.client.serde import Serde

from airflow_dq.lineage.subset import (
    NotRepresentable,
    dataset_subset,
    filter_condition,
    parse_filter,
    partition_condition,
    validated_scope,
)


def as_json(obj) -> dict:
    return json.loads(Serde.to_json(obj))


def cmp(field: str, comparison: str, value: str) -> dict:
    return {"type": "compare", "comparison": comparison, "left": {"type": "field", "field": field},
            "right": {"type": "literal", "value": value}}


def binary(op: str, left: dict, right: dict) -> dict:
    return {"type": "binary", "operator": op, "left": left, "right": right}


@pytest.mark.parametrize("sql, expected", [
    ("a = 7", cmp("a", "EQUAL", "7")),
    ("a == 7", cmp("a", "EQUAL", "7")),
    ("b > 'x'", cmp("b", "GREATER_THAN", "x")),
    ("b >= -1.5", cmp("b", "GREATER_EQUAL_THAN", "-1.5")),
    ("c < 3", cmp("c", "LESS_THAN", "3")),
    ("c <= 3", cmp("c", "LESS_EQUAL_THAN", "3")),
    ("name = 'it''s'", cmp("name", "EQUAL", "it's")),
    ('kind = "double quoted"', cmp("kind", "EQUAL", "double quoted")),  # a string literal in Spark SQL
    ("`odd col` = 1", cmp("odd col", "EQUAL", "1")),
    ("s.inner = 1", cmp("s.inner", "EQUAL", "1")),
    ("dt = DATE '2026-11-01'", cmp("dt", "EQUAL", "2026-11-01")),
    ("flag = TRUE", cmp("flag", "EQUAL", "true")),
    ("((a = 7))", cmp("a", "EQUAL", "7")),
])
def test_single_comparisons(sql, expected):
    assert as_json(parse_filter(sql)) == expected


def test_and_or_precedence_and_parentheses():
    a, b, c = cmp("a", "EQUAL", "7"), cmp("b", "GREATER_THAN", "x"), cmp("c", "LESS_THAN", "3")
    assert as_json(parse_filter("a = 7 AND b > 'x'")) == binary("AND", a, b)
    assert as_json(parse_filter("a = 7 or b > 'x' and c < 3")) == binary("OR", a, binary("AND", b, c))
    assert as_json(parse_filter("(a = 7 OR b > 'x') AND c < 3")) == binary("AND", binary("OR", a, b), c)
    assert as_json(parse_filter("a = 7 AND b > 'x' AND c < 3")) == binary("AND", binary("AND", a, b), c)


def test_field_to_field_and_literal_on_the_left():
    assert as_json(parse_filter("a = b")) == {"type": "compare", "comparison": "EQUAL",
                                              "left": {"type": "field", "field": "a"},
                                              "right": {"type": "field", "field": "b"}}
    assert as_json(parse_filter("7 < a")) == {"type": "compare", "comparison": "LESS_THAN",
                                              "left": {"type": "literal", "value": "7"},
                                              "right": {"type": "field", "field": "a"}}


@pytest.mark.parametrize("sql", [
    "a != 1", "a <> 1", "a <=> 1", "NOT a = 1", "a IN (1, 2)", "a BETWEEN 1 AND 2", "a IS NULL", "a IS NOT NULL",
    "a LIKE 'x%'", "lower(a) = 'x'", "a + 1 = 2", "a = 1 AND b", "a = 1 OR", "(a = 1", "a = 1)", "1 = 1",
    "a = NULL", "a = 1; DROP TABLE t", "a = 1L", "a = b.c()", "",
])
def test_filters_that_cannot_be_represented_exactly_give_no_condition(sql):
    assert filter_condition(sql) is None
    with pytest.raises(NotRepresentable):
        parse_filter(sql)


def test_dataset_subset_is_the_union_of_assertion_scopes():
    # any unfiltered assertion → the whole dataset was validated: no subset facet
    assert dataset_subset(["a = 1", None]) is None
    # the same filter everywhere → that filter
    facet = as_json(dataset_subset(["a = 1", " a = 1 "]))
    assert facet["inputCondition"] == cmp("a", "EQUAL", "1")
    assert facet["_schemaURL"].endswith("BaseSubsetDatasetFacet.json#/$defs/InputSubsetInputDatasetFacet")
    # distinct filters → their union
    assert as_json(dataset_subset(["a = 1", "b = 2"]))["inputCondition"] == \
        binary("OR", cmp("a", "EQUAL", "1"), cmp("b", "EQUAL", "2"))
    # one unrepresentable filter → no facet at all (never a wrong one)
    assert dataset_subset(["a = 1", "a IN (1, 2)"]) is None


def test_narrower_filters_are_absorbed_by_a_broader_one():
    # e.g. an operator-level filter ANDed into every assertion, one assertion adding its own condition
    known, kept = validated_scope(["(ds = '2026-11-01') AND (kind = 'x')", "(ds = '2026-11-01')"])
    assert known and [sql for sql, _ in kept] == ["(ds = '2026-11-01')"]
    facet = as_json(dataset_subset(["(ds = '2026-11-01') AND (kind = 'x')", "(ds = '2026-11-01')"]))
    assert facet["inputCondition"] == cmp("ds", "EQUAL", "2026-11-01")
    assert validated_scope(["a = 1", None]) == (True, [])
    assert validated_scope(["a != 1"]) == (False, [])


def test_partition_and_filter_are_combined_with_and():
    part = partition_condition({"dt": "2026-11-01"})
    assert as_json(dataset_subset([None, None], part))["inputCondition"] == {
        "type": "partition", "partitions": [{"dimensions": {"dt": "2026-11-01"}}]}
    assert as_json(dataset_subset(["a = 1"], part))["inputCondition"] == binary(
        "AND", {"type": "partition", "partitions": [{"dimensions": {"dt": "2026-11-01"}}]}, cmp("a", "EQUAL", "1"))
    # the partition alone would claim more rows than an unrepresentable filter validated
    assert dataset_subset(["a != 1"], part) is None
