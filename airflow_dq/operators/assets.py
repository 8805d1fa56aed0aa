"""Airflow Assets for validated data: the source as an inlet, a "validated" twin as the outlet.

URIs are derived from the source mapping the operator gets (``"path[:format]"``, ``"table:db.tbl"`` or a dict):

* a local path ``/data/events.csv`` → ``file:///data/events.csv``; a URI (``s3://b/k``) stays as it is;
* a catalog table ``db.tbl`` → ``x-spark-table:///db.tbl``;
* the validated twin of any of those → ``x-airflow-dq-validated:<source uri>``.

A templated path (``/data/events/ds={{ ds }}``) maps to its static prefix (``/data/events``): the asset is the
dataset, each run validates one partition of it. Schedule downstream DAGs on :func:`validated_asset`.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from airflow.sdk import Asset

from airflow_dq.core.sources import Source
from airflow_dq.spec.sources import parse_source_value

VALIDATED_SCHEME = "x-airflow-dq-validated"
TABLE_SCHEME = "x-spark-table"


def _static_prefix(text: str) -> str:
    if "{{" not in text and "{%" not in text:
        return text
    cut = min(i for i in (text.find("{{"), text.find("{%")) if i >= 0)
    head = text[:cut]
    return head[: head.rfind("/")] if "/" in head else head


def source_uri(value: Any) -> str | None:
    """The asset URI of a source mapping value (None when nothing static is left, e.g. ``"{{ var }}"``)."""
    if isinstance(value, Source):
        src = value
    else:
        if isinstance(value, str):
            value = _static_prefix(value)
        elif isinstance(value, Mapping):
            value = {k: (_static_prefix(v) if isinstance(v, str) and k in ("path", "table") else v)
                     for k, v in value.items()}
        try:
            src = parse_source_value("source", value)
        except ValueError:
            return None
    if src.kind == "table":
        return f"{TABLE_SCHEME}:///{src.table}" if src.table else None
    path = src.path or ""
    if not path:
        return None
    if "://" in path:
        return path.rstrip("/")
    if path.startswith("file:"):
        return path
    return "file://" + os.path.abspath(path).rstrip("/")


def source_asset(value: Any) -> Asset | None:
    uri = source_uri(value)
    return Asset(uri) if uri else None


def validated_asset(value: Any) -> Asset | None:
    """The asset a DataQualityOperator updates when ``value`` (a source mapping value or URI) passed its checks."""
    uri = value if isinstance(value, str) and "://" in value and not value.startswith("/") else source_uri(value)
    return Asset(f"{VALIDATED_SCHEME}:{uri}") if uri else None


def assets_for_sources(sources: Mapping[str, Any] | None) -> tuple[list[Asset], list[Asset]]:
    """(inlets, validated outlets) for every source the operator was given, in order, without duplicates."""
    inlets: dict[str, Asset] = {}
    outlets: dict[str, Asset] = {}
    if not isinstance(sources, Mapping):
        return [], []
    for value in sources.values():
        uri = source_uri(value)
        if uri and uri not in inlets:
            inlets[uri] = Asset(uri)
            outlets[uri] = Asset(f"{VALIDATED_SCHEME}:{uri}")
    return list(inlets.values()), list(outlets.values())
