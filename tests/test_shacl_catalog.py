"""SHACL conversion beyond the seed's examples: a realistic catalog, every RDF syntax, parse errors with lines,
merging/conflicts, severities, the beyond-DataHub constraints, and load_any (no Spark)."""

from __future__ import annotations

import textwrap

import pytest
from rdflib import Graph

from airflow_dq.shacl import ShaclShapes, convert_file
from airflow_dq.shacl.convert import convert_graph
from airflow_dq.shacl.mapping import to_java_regex
from airflow_dq.shacl.parser import parse_shapes_text
from airflow_dq.spec.build import load_any
from airflow_dq.spec.errors import SpecError
from tests.shacl_data import CATALOG, EXPECTED, key

ON = {"create_assertions": True}
PFX = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.com/> .
"""
DS = "urn:li:dataset:(urn:li:dataPlatform:logical,example.com/D,PROD)"


def ttl(body: str, config=ON):
    graph = parse_shapes_text(PFX + textwrap.dedent(body), "turtle", file="t.ttl")
    return convert_graph(graph, config, source="t.ttl")


def names(conversion) -> list[str]:
    return [a["name"][len(DS) + 1:] if a["name"].startswith(DS) else a["name"] for a in conversion.assertions]


def without_meta(conversion) -> list[dict]:
    return [{k: v for k, v in a.items() if k != "meta"} for a in conversion.assertions]


# -- the realistic catalog -----------------------------------------------------------------------------------------
def test_catalog_converts_every_linked_constraint_and_reports_the_rest():
    c = convert_file(CATALOG, config=ON)
    assert sorted(a["name"] for a in c.assertions) == sorted(key(ds, s) for ds, s in EXPECTED)
    assert {a["meta"]["shacl"]["link"] for a in c.assertions} == {"inline", "conformsTo", "targetClass", "standalone"}
    skipped = {(e.field, e.constraint.split(" ")[0]) for e in c.report.by_status("skipped")}
    assert skipped == {
        (None, "sh:NodeShape"),  # DraftRiskShape, linked to nothing
        (None, "sh:closed"),  # on TradeShape itself
        ("trade_id", "sh:datatype"), ("notional", "sh:datatype"), ("trade_date", "sh:datatype"),
        ("trade_date", "sh:lessThan"), ("counterparty", "sh:class"), ("desk", "sh:minCount"),
        ("country", "sh:languageIn"), ("trader", "sh:or"),
    }
    text = c.report.to_text()
    assert "25 assertions, 10 constraints skipped" in text
    assert "shapes:DraftRiskShape" in text and "standalone NodeShape" in text


@pytest.mark.parametrize("fmt,suffix", [("json-ld", ".jsonld"), ("xml", ".rdf"), ("nt", ".nt"), ("n3", ".n3")])
def test_every_rdf_syntax_gives_the_same_assertions(tmp_path, fmt, suffix):
    graph = Graph().parse(CATALOG, format="turtle")
    path = tmp_path / f"catalog{suffix}"
    graph.serialize(path, format=fmt, encoding="utf-8")
    assert without_meta(convert_file(path, config=ON)) == without_meta(convert_file(CATALOG, config=ON))


def test_catalog_and_shapes_in_two_files_are_read_as_one_graph(tmp_path):
    from rdflib.namespace import DCAT, RDF, SH

    graph = Graph().parse(CATALOG, format="turtle")
    described = set(graph.subjects(RDF.type, DCAT.DataService)) | set(graph.subjects(DCAT.accessService, None))
    catalog, shapes = Graph(), Graph()
    for s, p, o in graph:  # datasets and platforms in one file, everything about shapes in the other
        (catalog if s in described and p != SH.property and (s, RDF.type, SH.NodeShape) not in graph
         else shapes).add((s, p, o))
    catalog.serialize(tmp_path / "catalog.ttl", format="turtle")
    shapes.serialize(tmp_path / "shapes.jsonld", format="json-ld")
    both = convert_file([tmp_path / "catalog.ttl", tmp_path / "shapes.jsonld"], config=ON)
    assert without_meta(both) == without_meta(convert_file(CATALOG, config=ON))
    assert convert_file(tmp_path / "shapes.jsonld", config=ON).assertions != both.assertions


# -- parse errors name the file and the line -----------------------------------------------------------------------
@pytest.mark.parametrize("suffix,text,line", [
    (".ttl", PFX + "ex:D a dcat:Dataset ;\n  sh:property [ sh:path ex:x ;\n  sh:minCount 1 \nex:E a ex:F .\n", 10),
    (".jsonld", '{"@id": "http://ex/a",\n "http://ex/b": {"@id": "http://ex/c"},\n oops }', 3),
    (".rdf", "<?xml version='1.0'?>\n<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
             "<rdf:Description rdf:about='http://a'>\n<broken>\n</rdf:RDF>\n", 5),
    (".nt", "<http://a> <http://b> <http://c> .\n<http://a> <http://b> \"unterminated .\n", 2),
])
def test_invalid_rdf_is_a_clear_error_with_the_line(tmp_path, suffix, text, line):
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        convert_file(path, config=ON)
    assert info.value.file == str(path) and info.value.line == line, str(info.value)
    assert str(info.value).startswith(f"{path}:{line}: invalid RDF")


def test_unknown_suffix_missing_file_and_bad_format_name(tmp_path):
    with pytest.raises(SpecError, match="cannot tell the RDF format"):
        convert_file(tmp_path / "shapes.txt")
    with pytest.raises(SpecError, match="cannot read shapes"):
        convert_file(tmp_path / "missing.ttl")
    (tmp_path / "shapes.txt").write_text(PFX)
    with pytest.raises(SpecError, match="unknown RDF format 'yaml'"):
        convert_file(tmp_path / "shapes.txt", fmt="yaml")
    assert convert_file(tmp_path / "shapes.txt", fmt="turtle", config=ON).assertions == []


# -- constraint sources, merging and keys --------------------------------------------------------------------------
def test_inline_and_glossary_values_both_apply_the_strictest_is_checked():
    c = ttl("""
        ex:Term a skos:Concept, sh:PropertyShape ; sh:minLength 5 ; sh:maxLength 50 .
        ex:D a dcat:Dataset ; sh:property [ sh:node ex:Term ; sh:minLength 3 ; sh:maxLength 40 ] .
    """)
    assert [(n, a["condition"]["value"]) for n, a in zip(names(c), c.assertions)] == [
        ("Term_min_length", 5), ("Term_max_length", 40)]
    notes = [e.reason for e in c.report.by_status("note")]
    assert any("the strictest, 5, is checked" in r for r in notes) and any("the strictest, 40" in r for r in notes)


def test_the_same_check_through_two_links_is_converted_once():
    c = ttl("""
        ex:D a dcat:Dataset ; dcterms:conformsTo ex:S ; sh:property [ sh:path ex:id ; sh:minCount 1 ; sh:maxCount 1 ] .
        ex:S a sh:NodeShape ; sh:property [ sh:path ex:id ; sh:minCount 1 ; sh:maxCount 1 ] .
        ex:T a sh:NodeShape ; sh:targetClass dcat:Dataset ; sh:property [ sh:path ex:id ; sh:minCount 1 ; sh:maxCount 3 ] .
    """)
    assert names(c) == ["id_not_null", "id_required", "id_cardinality"]
    assert any("same check as" in e.reason for e in c.report.by_status("note"))


def test_different_checks_under_one_key_get_numbered():
    c = ttl("""
        ex:D a dcat:Dataset ; dcterms:conformsTo ex:S ; sh:property [ sh:path ex:code ; sh:pattern "^[A-Z]+$" ] .
        ex:S a sh:NodeShape ; sh:property [ sh:path ex:code ; sh:pattern "^[A-Z]{3}$" ] .
    """)
    assert names(c) == ["code_pattern", "code_pattern_2"]
    assert len(c.load()) == 2


def test_severity_mapping_and_custom_severity():
    c = ttl("""
        ex:D a dcat:Dataset ; sh:property
            [ sh:path ex:a ; sh:minCount 1 ; sh:maxCount 1 ; sh:severity sh:Violation ] ,
            [ sh:path ex:b ; sh:minCount 1 ; sh:maxCount 1 ; sh:severity sh:Warning ] ,
            [ sh:path ex:c ; sh:minCount 1 ; sh:maxCount 1 ; sh:severity sh:Info ] ,
            [ sh:path ex:d ; sh:minCount 1 ; sh:maxCount 1 ; sh:severity ex:Blocker ] ,
            [ sh:path ex:e ; sh:minCount 1 ; sh:maxCount 1 ] ,
            [ sh:path ex:f ; sh:node ex:WarnTerm ] .
        ex:WarnTerm a sh:PropertyShape ; sh:severity sh:Warning ; sh:maxLength 9 .
    """)
    assert [(a["field"], a["severity"]) for a in c.assertions] == [
        ("a", "error"), ("b", "warn"), ("c", "warn"), ("d", "error"), ("e", "error"), ("f", "warn")]
    assert [e.constraint for e in c.report.by_status("note")] == ["sh:severity ex:Blocker"]
    assert [a.severity for a in c.load()] == ["error", "warn", "warn", "error", "error", "warn"]


# -- beyond DataHub ------------------------------------------------------------------------------------------------
def test_in_exclusive_bounds_and_has_value():
    c = ttl("""
        ex:D a dcat:Dataset ; sh:property
            [ sh:path ex:ccy ; sh:in ( "USD" "EUR" ex:Other 3 ) ] ,
            [ sh:path ex:px ; sh:minExclusive 0 ; sh:maxExclusive 1.5 ] ,
            [ sh:path ex:status ; sh:hasValue "OPEN" ] .
    """)
    got = {n: (a.get("metric"), a["condition"], a.get("exclude_nulls")) for n, a in zip(names(c), c.assertions)}
    assert got == {
        "ccy_in": (None, {"type": "in", "value": ["USD", "EUR", "http://example.com/Other", 3]}, True),
        "px_min_exclusive": ("min", {"type": "greater_than", "value": 0}, None),
        "px_max_exclusive": ("max", {"type": "less_than", "value": 1.5}, None),
        "status_has_value": (None, {"type": "equal_to", "value": "OPEN"}, False),
    }


def test_datatypes_become_schema_assertions_when_enabled():
    body = """
        ex:D a dcat:Dataset ; sh:property
            [ sh:path ex:id ; sh:datatype xsd:long ] , [ sh:path ex:at ; sh:datatype xsd:dateTime ] ,
            [ sh:path ex:label ; sh:datatype <http://www.w3.org/1999/02/22-rdf-syntax-ns#langString> ] .
    """
    assert ttl(body).assertions == []
    c = ttl(body, config={"create_assertions": True, "assertion_types": {"datatypes": True}})
    assert [(n, a["type"], a["condition"]) for n, a in zip(names(c), c.assertions)] == [
        ("at_datatype", "schema", {"type": "contains", "columns": [{"name": "at", "type": "timestamp"}]}),
        ("id_datatype", "schema", {"type": "contains", "columns": [{"name": "id", "type": "number"}]}),
    ]
    [skip] = c.report.by_status("skipped")
    assert skip.constraint == "sh:datatype rdf:langString" and "no schema type" in skip.reason
    assert {a.kind for a in c.load()} == {"schema"}


def test_cardinality_corner_cases():
    c = ttl("""
        ex:D a dcat:Dataset ; sh:property
            [ sh:path ex:gone ; sh:maxCount 0 ] ,
            [ sh:path ex:many ; sh:minCount 2 ; sh:maxCount 4 ] ,
            [ sh:path ex:opt ; sh:maxCount 1 ] ,
            [ sh:path ex:never ; sh:minCount 1 ; sh:maxCount 0 ] ,
            [ sh:path ex:junk ; sh:minCount "lots" ] ,
            [ sh:path ex:upside ; sh:minCount 3 ; sh:maxCount 2 ] .
    """)
    assert names(c) == ["gone_absent", "many_required", "many_cardinality"]
    assert c.assertions[0]["condition"] == {"type": "is_null"} and c.assertions[0]["exclude_nulls"] is False
    reasons = {e.constraint: e.reason for e in c.report.entries if e.status != "converted"}
    assert "holds at most one value per row" in reasons["sh:minCount 2, sh:maxCount 4"]
    assert "always holds for a column" in reasons["sh:maxCount 1"]
    assert "can never hold" in reasons["sh:minCount 1, sh:maxCount 0"]
    assert "not a non-negative integer" in reasons['sh:minCount "lots"']
    assert "minCount 3 with maxCount 2 can never hold" in reasons["sh:minCount 3, sh:maxCount 2"]
    assert "" not in reasons  # an unusable value is reported once, with its own text


def test_values_that_cannot_become_checks_are_reported():
    c = ttl("""
        ex:D a dcat:Dataset ; sh:property
            [ sh:path ex:day ; sh:minInclusive "2024-01-01"^^xsd:date ] ,
            [ sh:path ex:code ; sh:pattern "([a-z" ] ,
            [ sh:path ex:kind ; sh:pattern "x" ; sh:flags "u" ] ,
            [ sh:path ex:off ; sh:minCount 1 ; sh:deactivated true ] ,
            [ sh:path ex:weird ; sh:fooConstraint 3 ] .
    """)
    assert c.assertions == []
    reasons = {e.constraint: e.reason for e in c.report.by_status("skipped")}
    assert "not a number" in reasons['sh:minInclusive "2024-01-01"^^xsd:date']
    assert "invalid regular expression" in reasons['sh:pattern "([a-z"']
    assert "sh:flags 'u' not supported" in reasons['sh:pattern "x", sh:flags "u"']
    assert reasons["sh:path ex:off"] == "sh:deactivated true"
    assert reasons["sh:fooConstraint 3"] == "not a constraint this converter knows"


def test_datasets_without_a_usable_iri_and_platforms():
    c = ttl("""
        [] a dcat:Dataset ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:maxCount 1 ] .
        <http://example.com/a,b> a dcat:Dataset ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:maxCount 1 ] .
        ex:P a dcat:Dataset ; dcat:accessService ex:Snowflake ; sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:maxCount 1 ] .
        ex:Q a dcat:Dataset ; dcat:accessService [ dcterms:title "urn:li:dataPlatform:Hive" ] ;
            sh:property [ sh:path ex:a ; sh:minCount 1 ; sh:maxCount 1 ] .
    """)
    assert [a["entity"] for a in c.assertions] == [
        "urn:li:dataset:(urn:li:dataPlatform:snowflake,example.com/P,PROD)",
        "urn:li:dataset:(urn:li:dataPlatform:hive,example.com/Q,PROD)"]
    reasons = [e.reason for e in c.report.by_status("skipped")]
    assert any("without an IRI" in r for r in reasons) and any("comma" in r for r in reasons)


@pytest.mark.parametrize("pattern,flags,regex", [
    (r"^\d+$", "", r"^\d+$"),  # anchored: already a whole-value match
    ("abc", "", "(?s:.*)(?:abc)(?s:.*)"),  # sh:pattern searches; the engine matches whole values
    ("^a|b$", "", "(?s:.*)(?:^a|b$)(?s:.*)"),
    ("abc", "i", "(?s:.*)(?:(?i:abc))(?s:.*)"),
    ("a.b", "q", r"(?s:.*)(?:a\.b)(?s:.*)"),
])
def test_patterns_keep_shacl_search_semantics(pattern, flags, regex):
    assert to_java_regex(pattern, flags) == (regex, None)


# -- load_any: shapes in place of, or next to, YAML ------------------------------------------------------------------
def test_load_any_takes_shapes_files_and_mixed_lists(tmp_path):
    spec = tmp_path / "extra.yml"
    spec.write_text("version: 1\nassertions:\n  - entity: " + key("trades", "x")[:-2] +
                    "\n    name: trades_not_empty\n    type: volume\n    condition: {type: greater_than, value: 0}\n")
    shapes = load_any(str(CATALOG))
    assert len(shapes) == len(EXPECTED) and all(a.location == str(CATALOG) for a in shapes)
    mixed = load_any([str(CATALOG), str(spec)])
    assert [a.name for a in mixed][-1] == "trades_not_empty" and len(mixed) == len(EXPECTED) + 1
    only_sizes = load_any(ShaclShapes(CATALOG, config={"create_assertions": True, "assertion_types": {
        "required_fields": False, "value_checks": False}}))
    assert {a.params.get("field_transform") for a in only_sizes} == {"length"}


def test_load_any_refuses_duplicates_empty_conversions_and_bad_config(tmp_path):
    with pytest.raises(SpecError, match="duplicate assertion name/id"):
        load_any([str(CATALOG), str(CATALOG)])
    with pytest.raises(SpecError, match="no assertions were converted") as info:
        load_any(ShaclShapes(CATALOG, config={"create_assertions": False}))
    assert "create_assertions is off" in str(info.value)
    with pytest.raises(SpecError, match="invalid SHACL conversion config: assertion_types.size"):
        load_any(ShaclShapes(CATALOG, config={"create_assertions": True, "assertion_types": {"size": False}}))
