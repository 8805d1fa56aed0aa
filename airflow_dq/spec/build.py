"""Everything the Airflow side and the CLI need to turn a spec + sources into a plan."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timezone
from typing import Any, Mapping

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.plan import Plan
from airflow_dq.shacl.formats import is_shapes_path
from airflow_dq.shacl.source import ShaclShapes
from airflow_dq.spec.errors import SpecError, SpecErrors
from airflow_dq.spec.loader import load_spec, load_spec_data, load_spec_text
from airflow_dq.spec.sources import resolve_sources


def load_any(spec: Any, logger: Any = None) -> list[Assertion]:
    """A spec given as a file path, YAML text, a parsed dict, or a list of core Assertions.

    Also a SHACL shapes file (.ttl/.jsonld/.rdf/.owl/.nt/.n3, or ``airflow_dq.shacl.ShaclShapes`` with a config),
    converted through the same loader, and a list mixing any of these (assertion ids must stay unique).
    ``logger`` (e.g. a task's ``self.log``) receives the SHACL conversion report."""
    if isinstance(spec, list) and all(isinstance(a, Assertion) for a in spec):
        return spec
    if isinstance(spec, (list, tuple)):
        return _merge([load_any(part, logger) for part in spec])
    if is_shapes_path(spec) or isinstance(spec, ShaclShapes):
        from airflow_dq.shacl.convert import load_shapes  # rdflib only when shapes are used

        return load_shapes(spec, logger)
    if isinstance(spec, Mapping):
        return load_spec_data(dict(spec), file="<spec dict>")
    if isinstance(spec, (str, os.PathLike)):
        text = os.fspath(spec)
        if "\n" not in text and text.strip().lower().endswith((".yml", ".yaml")):
            return load_spec(text)
        return load_spec_text(text, file="<inline spec>")
    raise SpecError(f"spec must be a YAML file path, YAML text, a mapping, a SHACL shapes file or a list of these, "
                    f"got {type(spec).__name__}")


def _merge(parts: list[list[Assertion]]) -> list[Assertion]:
    seen: dict[str, Assertion] = {}
    problems: list[SpecError] = []
    for a in (a for part in parts for a in part):
        if a.id in seen:
            problems.append(SpecError(f"duplicate assertion name/id {a.id!r} across the specs (first declared at "
                                      f"{seen[a.id].location or '?'})", file=a.location))
        else:
            seen[a.id] = a
    if problems:
        raise SpecErrors(problems)
    return list(seen.values())


def build_plan(assertions: list[Assertion], sources: Mapping[str, Any], *, run_id: str | None = None,
               reference_time: datetime | None = None, options: dict | None = None) -> Plan:
    ref = reference_time or datetime.now(timezone.utc)
    if ref.tzinfo is None:
        ref = ref.replace(tzinfo=timezone.utc)
    return Plan(run_id=run_id or uuid.uuid4().hex, reference_time=ref.isoformat(),
                sources=resolve_sources(assertions, sources), assertions=list(assertions),
                options=dict(options or {}))
