"""Every dataset of a run as a temporary view, so custom SQL can reference it (and join across datasets).

Names, for ``urn:li:dataset:(urn:li:dataPlatform:snowflake,test_db.public.purchase_events,PROD)``:
``test_db_public_purchase_events`` (the dataset name, every character that is not a letter, digit or ``_``
replaced by ``_``) and ``purchase_events`` (its last part). An entity that is not a URN is named the same way
from its own text. A last part shared by two datasets of the run is not registered (it would be ambiguous);
the full names always are. Temporary views shadow catalog tables of the same name.
"""

from __future__ import annotations

import re

from pyspark.sql import DataFrame

_URN = re.compile(r"^urn:li:dataset:\(urn:li:dataPlatform:[^,]+,(?P<name>[^,]+),[^)]*\)$")


def _ident(text: str) -> str | None:
    name = re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_")
    if not name:
        return None
    return "_" + name if name[0].isdigit() else name


def view_names(entity: str) -> list[str]:
    """[full name, last part] of an entity (duplicates removed)."""
    m = _URN.match(entity)
    name = m.group("name") if m else entity
    full = _ident(name)
    short = _ident(re.split(r"[./\\]", name.rstrip("/\\"))[-1])
    return [n for n in dict.fromkeys([full, short]) if n]


def register_all(frames: dict[str, DataFrame]) -> dict[str, list[str]]:
    """Register each entity's DataFrame under its view names; returns entity -> names registered."""
    candidates = {entity: view_names(entity) for entity in frames}
    owners: dict[str, set[str]] = {}
    for entity, names in candidates.items():
        for n in names:
            owners.setdefault(n.lower(), set()).add(entity)
    registered: dict[str, list[str]] = {}
    for entity, df in frames.items():
        names = candidates[entity]
        keep = [n for i, n in enumerate(names) if i == 0 or len(owners[n.lower()]) == 1]
        for n in keep:
            df.createOrReplaceTempView(n)
        registered[entity] = keep
    return registered
