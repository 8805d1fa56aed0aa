"""Shapes-file suffixes and RDF format names (no rdflib import: the spec loader asks this for every spec)."""

from __future__ import annotations

import os

from airflow_dq.spec.errors import SpecError

# File suffix → rdflib format name.
SUFFIX_FORMATS = {
    ".ttl": "turtle", ".turtle": "turtle", ".n3": "n3", ".nt": "nt", ".ntriples": "nt",
    ".jsonld": "json-ld", ".json-ld": "json-ld", ".rdf": "xml", ".owl": "xml",
}
SHAPES_SUFFIXES = tuple(SUFFIX_FORMATS)
FORMAT_ALIASES = {
    "turtle": "turtle", "ttl": "turtle", "n3": "n3", "nt": "nt", "ntriples": "nt", "n-triples": "nt",
    "json-ld": "json-ld", "jsonld": "json-ld", "xml": "xml", "rdf/xml": "xml", "rdfxml": "xml", "owl": "xml",
}


def is_shapes_path(value) -> bool:
    if not isinstance(value, (str, os.PathLike)):
        return False
    text = os.fspath(value)
    return "\n" not in text and os.path.splitext(text.strip())[1].lower() in SUFFIX_FORMATS


def resolve_format(path: str, fmt: str | None) -> str:
    if fmt:
        key = fmt.strip().lower()
        if key not in FORMAT_ALIASES:
            raise SpecError(f"unknown RDF format {fmt!r}; use one of: turtle, json-ld, xml, nt, n3", file=path)
        return FORMAT_ALIASES[key]
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIX_FORMATS:
        raise SpecError(f"cannot tell the RDF format from the suffix {suffix or '(none)'!r}; pass a format "
                        f"(turtle, json-ld, xml, nt, n3) or use one of {', '.join(SHAPES_SUFFIXES)}", file=path)
    return SUFFIX_FORMATS[suffix]
