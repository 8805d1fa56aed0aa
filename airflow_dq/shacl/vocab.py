"""RDF vocabularies the SHACL converter reads, and small helpers to name RDF terms."""

from __future__ import annotations

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCAT, DCTERMS, RDF, RDFS, SH, SKOS, VOID, XSD

__all__ = ["DCAT", "DCTERMS", "RDF", "RDFS", "SH", "SKOS", "VOID", "XSD", "DATASET_CLASSES",
           "local_name", "show", "first"]

# Classes whose instances are datasets (DataHub reads dcat:Dataset and void:Dataset).
DATASET_CLASSES = (DCAT.Dataset, VOID.Dataset)
# Literals shown by their lexical form alone (numbers, booleans), as Turtle writes them.
_PLAIN = {XSD.integer, XSD.decimal, XSD.double, XSD.boolean}


def local_name(iri: URIRef) -> str:
    """``http://ex.org/terms#Account_ID`` → ``Account_ID`` (the part after the last ``#`` or ``/``)."""
    text = str(iri)
    return text.rstrip("/").split("/")[-1].split("#")[-1]


def show(graph: Graph, node) -> str:
    """A short, readable name for a node in messages: a prefixed name, ``<iri>``, a literal, or ``[]``."""
    if isinstance(node, BNode):
        return "[]"
    if isinstance(node, URIRef):
        try:
            return graph.namespace_manager.normalizeUri(node)
        except Exception:  # pragma: no cover - rdflib refuses some IRIs as qnames
            return f"<{node}>"
    if isinstance(node, Literal):
        if node.datatype in _PLAIN:
            return str(node)
        if node.datatype in (None, XSD.string):
            return '"' + str(node).replace('"', '\\"') + '"' + (f"@{node.language}" if node.language else "")
        return f'"{node}"^^{show(graph, node.datatype)}'
    return str(node)


def first(graph: Graph, subject, predicate):
    """The first object of (subject, predicate), or None (sorted so repeated runs pick the same one)."""
    values = sorted(graph.objects(subject, predicate), key=lambda n: (not isinstance(n, Literal), str(n)))
    return values[0] if values else None
