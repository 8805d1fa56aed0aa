"""Resolve assertion entities to Spark sources from a user mapping (operator argument or CLI flags)."""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.sources import PATH_FORMATS, Source
from airflow_dq.spec.errors import SpecError

_URN = re.compile(r"^urn:li:dataset:\(urn:li:dataPlatform:(?P<platform>[^,]+),(?P<name>[^,]+),(?P<env>[^)]*)\)$")


def urn_parts(entity: str) -> dict | None:
    m = _URN.match(entity)
    return m.groupdict() if m else None


def _candidates(entity: str) -> list[str]:
    """Keys under which a user may have mapped an entity: the URN itself, its dataset name, the last name part."""
    out = [entity]
    parts = urn_parts(entity)
    if parts:
        out.append(parts["name"])
        out.append(parts["name"].split(".")[-1])
    return out


def infer_format(path: str) -> str:
    ext = os.path.splitext(path.rstrip("/"))[1].lower().lstrip(".")
    if ext in ("jsonl", "ndjson"):
        return "json"
    return ext if ext in PATH_FORMATS else "parquet"


def parse_source_value(entity: str, value: Any) -> Source:
    """A mapping value: ``"path[:format]"``, ``"table:db.tbl"``, or a dict with path/format/options or table."""
    if isinstance(value, Source):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise SpecError(f"the source for {entity!r} is empty")
        if text.startswith("table:"):
            return Source(entity=entity, kind="table", table=text[len("table:"):])
        head, sep, tail = text.rpartition(":")
        if sep and tail.lower() in PATH_FORMATS and head:
            return Source(entity=entity, kind="path", path=head, format=tail.lower())
        return Source(entity=entity, kind="path", path=text, format=infer_format(text))
    if isinstance(value, Mapping):
        unknown = set(value) - {"path", "format", "table", "options"}
        if unknown:
            raise SpecError(f"the source for {entity!r} has unknown keys {sorted(unknown)}; "
                            "use path/format/options or table")
        if value.get("table"):
            return Source(entity=entity, kind="table", table=str(value["table"]), options=dict(value.get("options") or {}))
        if value.get("path"):
            fmt = str(value.get("format") or infer_format(str(value["path"]))).lower()
            if fmt not in PATH_FORMATS:
                raise SpecError(f"the source for {entity!r} has unknown format {fmt!r}; use one of {PATH_FORMATS}")
            return Source(entity=entity, kind="path", path=str(value["path"]), format=fmt,
                          options={str(k): str(v) for k, v in (value.get("options") or {}).items()})
        raise SpecError(f"the source for {entity!r} needs 'path' or 'table'")
    raise SpecError(f"the source for {entity!r} must be a string or a mapping, got {type(value).__name__}")


def resolve_sources(assertions: list[Assertion], mapping: Mapping[str, Any]) -> list[Source]:
    """One Source per entity the assertions use; unknown entities are one error listing all of them."""
    sources: list[Source] = []
    missing: list[str] = []
    for entity in dict.fromkeys(a.entity for a in assertions):
        key = next((k for k in _candidates(entity) if k in mapping), None)
        if key is None:
            missing.append(entity)
            continue
        sources.append(parse_source_value(entity, mapping[key]))
    # Entries no assertion names are kept too: custom SQL may read them (they become temp views on Spark).
    used = {k for e in dict.fromkeys(a.entity for a in assertions) for k in _candidates(e)}
    for key, value in mapping.items():
        if key not in used:
            sources.append(parse_source_value(key, value))
    if missing:
        where = {a.entity: a.location for a in assertions}
        listed = "; ".join(f"{e} (used at {where.get(e) or '?'})" for e in missing)
        known = ", ".join(mapping) or "none"
        raise SpecError(f"no source given for entity: {listed}. Known sources: {known}")
    return sources


def parse_cli_source(text: str) -> tuple[str, str]:
    """``ENTITY=PATH[:FORMAT]`` → (entity, value)."""
    entity, sep, value = text.partition("=")
    if not sep or not entity.strip() or not value.strip():
        raise SpecError(f"--source {text!r}: expected ENTITY=PATH[:FORMAT] or ENTITY=table:NAME")
    return entity.strip(), value.strip()
