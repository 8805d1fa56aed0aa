"""Templated specs: a ``.yml``/``.yaml`` spec path is read and rendered with Jinja at run time, keeping its path.

Airflow's own ``template_ext`` handling would swap the path for the file's content at parse time (losing the
file name that spec errors must name) and only finds files on the DAG's template search path. Here a spec path is
resolved against the DAG folder and ``template_searchpath`` (absolute paths work anywhere), read, rendered as a
template with the task context, then parsed with ``file=<the path>`` so errors still say ``file:line: field``.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Mapping

from airflow.sdk.exceptions import AirflowFailException

from airflow_dq.core.assertions import Assertion
from airflow_dq.spec.build import load_any
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from airflow_dq.spec.sources import urn_parts

SPEC_EXT = (".yml", ".yaml")


class SpecFileError(AirflowFailException):
    """The spec file cannot be read: retrying will not create it."""


def is_spec_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike)) and "\n" not in os.fspath(value) and \
        os.fspath(value).strip().lower().endswith(SPEC_EXT)


def resolve_spec_path(path: str, searchpath: list[str]) -> str:
    if os.path.isabs(path):
        return path
    for base in searchpath:
        candidate = os.path.join(base, path)
        if os.path.exists(candidate):
            return os.path.abspath(candidate)
    return os.path.abspath(path)


class SpecTemplateMixin:
    """For operators with a templated ``spec`` field; sets ``spec_file`` to the spec's path when it had one."""

    spec: Any
    spec_file: str | None = None

    def _template_searchpath(self) -> list[str]:
        dag = getattr(self, "dag", None) if getattr(self, "has_dag", lambda: False)() else None
        if dag is None:
            return []
        return [str(dag.folder), *[str(p) for p in (dag.template_searchpath or [])]]

    def resolve_template_files(self) -> None:
        # Keep the spec path as it is (see the module docstring); other fields get Airflow's treatment.
        spec, self.spec = self.spec, None
        try:
            super().resolve_template_files()  # type: ignore[misc]
        finally:
            self.spec = spec

    def _read_spec_file(self, spec: Any) -> tuple[str, str]:
        """(resolved path, text) of a spec path; the text ends with a newline so it never looks like a path."""
        path = resolve_spec_path(os.fspath(spec).strip(), self._template_searchpath())
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise SpecFileError(str(SpecError(f"cannot read spec: {exc.strerror or exc}", file=path))) from None
        return path, text if text.endswith("\n") else text + "\n"

    def render_template_fields(self, context, jinja_env=None) -> None:
        if is_spec_path(self.spec):
            # rendered below like any other templated string
            self.spec_file, self.spec = self._read_spec_file(self.spec)
        elif isinstance(self.spec, (list, tuple)) and any(is_spec_path(item) for item in self.spec):
            # A list mixing specs (e.g. shapes files and YAML files): each YAML file is read, rendered and parsed
            # here under its own path, so Airflow never treats it as a template file name and errors name it.
            if jinja_env is None:
                jinja_env = self.get_template_env()  # type: ignore[attr-defined]
            parts = []
            for item in self.spec:
                if not is_spec_path(item):
                    parts.append(item)
                    continue
                path, text = self._read_spec_file(item)
                rendered = self.render_template(text, context, jinja_env)  # type: ignore[attr-defined]
                try:
                    parts.append(load_spec_text(rendered, file=path))
                except SpecError as exc:
                    raise SpecFileError(f"invalid data-quality spec:\n{exc}") from None
            self.spec = parts
        super().render_template_fields(context, jinja_env)  # type: ignore[misc]

    def load_assertions(self) -> list[Assertion]:
        spec = self.spec
        if self.spec_file and isinstance(spec, str) and not is_spec_path(spec):
            return load_spec_text(spec, file=self.spec_file)
        return load_any(spec, getattr(self, "log", None))


def _matches(entity: str, key: str) -> bool:
    if key == entity:
        return True
    parts = urn_parts(entity)
    return bool(parts) and key in (parts["name"], parts["name"].split(".")[-1])


def apply_filters(assertions: list[Assertion], filters: Mapping[str, str] | None) -> list[Assertion]:
    """AND a per-entity SQL filter (e.g. a ``{{ ds }}`` partition) into every assertion of that entity.

    Keys are matched like source keys: the entity URN, its dataset name, or the name's last part."""
    if not filters:
        return assertions
    if not isinstance(filters, Mapping):
        raise SpecError(f"filters must map an entity to a SQL condition, got {type(filters).__name__}")
    used: set[str] = set()
    out = []
    for a in assertions:
        extra = [(k, str(v).strip()) for k, v in filters.items() if _matches(a.entity, k) and str(v).strip()]
        if not extra:
            out.append(a)
            continue
        used.update(k for k, _ in extra)
        parts = ([f"({a.filter})"] if a.filter else []) + [f"({sql})" for _, sql in extra]
        out.append(dataclasses.replace(a, filter=" AND ".join(parts)))
    unknown = [k for k in filters if k not in used]
    if unknown:
        entities = ", ".join(dict.fromkeys(a.entity for a in assertions))
        raise SpecError(f"filters given for unknown entity {', '.join(map(repr, unknown))}; the spec's entities "
                        f"are: {entities}")
    return out


def select_assertions(assertions: list[Assertion], select: list[str] | None) -> list[Assertion]:
    """The assertions named (by name or id) in ``select``, in spec order; None selects all."""
    if select is None:
        return assertions
    wanted = [select] if isinstance(select, str) else list(select)
    chosen = [a for a in assertions if a.id in wanted or a.display_name in wanted]
    unknown = set(wanted) - {a.id for a in chosen} - {a.display_name for a in chosen}
    if unknown or not chosen:
        known = ", ".join(a.display_name for a in assertions)
        raise SpecError(f"select names unknown assertion(s) {sorted(unknown)}; the spec has: {known}")
    return chosen
