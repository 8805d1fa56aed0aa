"""Property shapes → columns: field-name resolution and where a field's constraints are read from.

Field names, in seed 001's priority order: the inline ``sh:path`` (its local name), else the local name of the
``sh:node`` reference, else ``sh:name``. Constraints are read from the inline property shape AND from every shape it
references with ``sh:node`` (glossary terms dual-typed ``skos:Concept, sh:PropertyShape``); inline values come first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

from rdflib import BNode, Graph, Literal, URIRef

from airflow_dq.shacl.vocab import SH, first, local_name, show


@dataclass(frozen=True)
class Found:
    """One constraint value and the shape it was declared on."""

    value: object  # an rdflib term
    source: URIRef | BNode


@dataclass
class FieldShape:
    prop: URIRef | BNode
    name: str | None
    named_by: str | None  # "sh:path" | "sh:node" | "sh:name"
    sources: list  # [prop, *sh:node references]

    def values(self, graph: Graph, predicate) -> list[Found]:
        out: list[Found] = []
        for source in self.sources:
            for value in sorted(graph.objects(source, predicate), key=str):
                out.append(Found(value, source))
        return out


def resolve_field(graph: Graph, prop) -> FieldShape:
    refs = [n for n in sorted(graph.objects(prop, SH.node), key=str)]
    sources = [prop] + [r for r in refs if r != prop]
    path = first(graph, prop, SH.path)
    if isinstance(path, URIRef):
        return FieldShape(prop, local_name(path), "sh:path", sources)
    if isinstance(path, Literal) and str(path).strip():
        return FieldShape(prop, str(path).strip(), "sh:path", sources)
    for ref in refs:
        if isinstance(ref, URIRef):
            return FieldShape(prop, local_name(ref), "sh:node", sources)
    for source in sources:
        name = first(graph, source, SH.name)
        if isinstance(name, Literal) and str(name).strip():
            return FieldShape(prop, str(name).strip(), "sh:name", sources)
    return FieldShape(prop, None, None, sources)


def describe_path(graph: Graph, prop) -> str:
    path = first(graph, prop, SH.path)
    return f"sh:path {show(graph, path)}" if path is not None else "property shape without sh:path"


class BadValue(ValueError):
    pass


def as_count(term) -> int:
    """A non-negative integer literal (minCount, maxCount, minLength, maxLength)."""
    value = term.toPython() if isinstance(term, Literal) else None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadValue(f"{term!s} is not a non-negative integer")
    return value


def as_number(term) -> int | float:
    """A numeric literal (minInclusive & co.): ints stay ints, decimals and doubles become floats."""
    value = term.toPython() if isinstance(term, Literal) else None
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        kind = "an IRI" if isinstance(term, URIRef) else f"a {type(value).__name__} literal"
        raise BadValue(f"{term!s} is {kind}, not a number: the spec compares column metrics with numbers")
    return value if isinstance(value, int) else float(value)


def as_scalar(term):
    """An RDF term as a value a table column can hold (sh:in members, sh:hasValue)."""
    if isinstance(term, URIRef):
        return str(term)
    if isinstance(term, BNode):
        raise BadValue("a blank node is not a value a column can hold")
    value = term.toPython()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (date, datetime, time)):
        return value.isoformat()
    if isinstance(value, (bool, int, float, str)):
        return value
    return str(term)
