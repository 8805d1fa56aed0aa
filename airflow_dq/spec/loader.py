"""Load a YAML spec into core assertions, with errors that name the file, line and field."""

from __future__ import annotations

import os
import re
from typing import Any

import yaml
from pydantic import ValidationError

from airflow_dq.core.assertions import Assertion, derive_id, slug
from airflow_dq.spec.compile import compile_assertion
from airflow_dq.spec.errors import SpecError, SpecErrors
from airflow_dq.spec.models import SpecDocument
from airflow_dq.spec.positions import format_path, line_for, parse_with_lines

_TAGS = ("volume", "field", "freshness", "sql", "schema")


def load_spec(path: str | os.PathLike) -> list[Assertion]:
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise SpecError(f"cannot read spec: {exc.strerror or exc}", file=path) from None
    return load_spec_text(text, file=path)


# Escapes YAML allows in double-quoted scalars. The seed's e-mail example writes "...\\.[A-Z|a-z]{2,}", an invalid
# escape for YAML but exactly what a regex author means; such escapes are kept literally (see docs/semantics.md).
_YAML_ESCAPES = set('0abt\tnvfre "/\\N_LPxuU')
_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _keep_unknown_escapes(text: str) -> str:
    def fix(m: re.Match) -> str:
        return re.sub(r"\\(.)", lambda e: e.group(0) if e.group(1) in _YAML_ESCAPES else "\\\\" + e.group(1), m.group(0))
    return _DOUBLE_QUOTED.sub(fix, text)


def _parse_yaml(text: str):
    try:
        return parse_with_lines(text)
    except yaml.YAMLError as exc:
        if "unknown escape character" not in str(getattr(exc, "problem", "")):
            raise
        fixed = _keep_unknown_escapes(text)
        return parse_with_lines(fixed)


def load_spec_text(text: str, file: str = "<spec>") -> list[Assertion]:
    try:
        data, lines = _parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise SpecError(f"invalid YAML: {problem}", file=file, line=mark.line + 1 if mark else None) from None
    return load_spec_data(data, file=file, lines=lines)


def load_spec_data(data: Any, file: str = "<spec>", lines: dict | None = None) -> list[Assertion]:
    lines = lines or {}
    if not isinstance(data, dict):
        raise SpecError("a spec must be a mapping with 'version: 1' and 'assertions:'", file=file, line=1)
    try:
        doc = SpecDocument.model_validate(data)
    except ValidationError as exc:
        raise SpecErrors([_to_spec_error(err, data, file, lines) for err in exc.errors()]) from None

    assertions: list[Assertion] = []
    seen: dict[str, int] = {}
    problems: list[SpecError] = []
    for i, (model, raw) in enumerate(zip(doc.assertions, data["assertions"])):
        line = line_for(lines, ("assertions", i))
        location = f"{file}:{line}" if line else file
        a = compile_assertion(model, raw, default_severity=doc.severity, location=location)
        if a.id in seen:
            problems.append(SpecError(f"duplicate assertion name/id {a.id!r} (first declared at line {seen[a.id]})",
                                      file=file, line=line, field=f"assertions[{i}].name"))
            continue
        seen[a.id] = line or 0
        assertions.append(a)
    if problems:
        raise SpecErrors(problems)
    return assertions


def _to_spec_error(err: dict, data: dict, file: str, lines: dict) -> SpecError:
    loc = list(err["loc"])
    # A discriminated union puts its tag after the list index: ('assertions', 3, 'field', 'condition').
    if len(loc) >= 3 and loc[0] == "assertions" and isinstance(loc[1], int) and loc[2] in _TAGS:
        del loc[2]
    # Union members of plain fields (e.g. filters: str | SqlFilter) add their own names; drop those.
    clean = [p for p in loc if not (isinstance(p, str) and (p in ("str", "SqlFilter") or p.startswith("function-")))]
    path = tuple(clean)
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if err["type"] == "union_tag_invalid":
        msg = "unknown assertion type; use one of: volume, field, freshness, sql, schema"
        path = path + ("type",)
    elif err["type"] == "union_tag_not_found":
        msg = "missing 'type' (one of: volume, field, freshness, sql, schema)"
    elif err["type"] == "extra_forbidden":
        msg = f"unknown field {path[-1]!r}"
    return SpecError(msg, file=file, line=line_for(lines, path), field=format_path(path))


__all__ = ["load_spec", "load_spec_text", "load_spec_data", "derive_id", "slug"]
