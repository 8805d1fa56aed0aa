"""Read a shapes graph with rdflib (Turtle, JSON-LD, RDF/XML, N-Triples, N3); bad input names file and line."""

from __future__ import annotations

import json
import os
import xml.sax

from rdflib import Graph
from rdflib.exceptions import ParserError
from rdflib.plugins.parsers.notation3 import BadSyntax

from airflow_dq.shacl.formats import resolve_format
from airflow_dq.spec.errors import SpecError


def parse_shapes_text(text: str, fmt: str, file: str = "<shapes>", into: Graph | None = None) -> Graph:
    graph = Graph() if into is None else into
    try:
        graph.parse(data=text, format=fmt)
    except BadSyntax as exc:  # Turtle / N3: `lines` counts the newlines before the error
        raise SpecError(f"invalid RDF ({fmt}): {exc._why}", file=file, line=exc.lines + 1) from None
    except json.JSONDecodeError as exc:
        raise SpecError(f"invalid RDF (json-ld): {exc.msg}", file=file, line=exc.lineno) from None
    except xml.sax.SAXParseException as exc:
        raise SpecError(f"invalid RDF (xml): {exc.getMessage()}", file=file, line=exc.getLineNumber()) from None
    except ParserError as exc:  # N-Triples: "Invalid line: <rest of the line>"
        raise SpecError(f"invalid RDF ({fmt}): {exc.msg}", file=file, line=_line_of(text, str(exc.msg))) from None
    except Exception as exc:  # other plugin errors (e.g. a JSON-LD context that is not a mapping)
        raise SpecError(f"invalid RDF ({fmt}): {type(exc).__name__}: {exc}", file=file) from None
    return graph


def parse_shapes(path: str | os.PathLike, fmt: str | None = None, into: Graph | None = None) -> Graph:
    path = os.fspath(path)
    fmt = resolve_format(path, fmt)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise SpecError(f"cannot read shapes: {exc.strerror or exc}", file=path) from None
    return parse_shapes_text(text, fmt, file=path, into=into)


def _line_of(text: str, message: str) -> int | None:
    rest = message.split(":", 1)[1].strip() if ":" in message else ""
    rest = rest.strip('"').strip()
    if not rest:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if rest in line:
            return number
    return None
