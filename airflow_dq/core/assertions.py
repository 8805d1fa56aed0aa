"""The assertion model: what the spec compiles to and what the engine executes."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from airflow_dq.core.conditions import Condition

SEVERITIES = ("error", "warn")

# Kinds the engine knows. The spec's `type` (freshness, volume, field, sql, schema) maps onto these;
# `field` splits into field_values (row-level condition) and field_metric (aggregate + condition).
KINDS = ("volume", "field_values", "field_metric", "freshness", "sql", "schema")


@dataclass(frozen=True)
class FailureThreshold:
    """How many failing rows a field-values assertion tolerates: ``count`` rows or ``percentage`` of rows."""

    type: str = "count"
    value: float = 0

    def to_dict(self) -> dict:
        return {"type": self.type, "value": self.value}

    @classmethod
    def from_dict(cls, data: dict | None) -> "FailureThreshold":
        if not data:
            return cls()
        return cls(type=data["type"], value=data["value"])

    def allows(self, failing: int, total: int) -> bool:
        if self.type == "percentage":
            if total == 0:
                return True
            return failing * 100.0 / total <= float(self.value)
        return failing <= self.value

    def describe(self) -> str:
        if self.type == "percentage":
            return f"failing rows <= {self.value}%"
        return f"failing rows <= {self.value:g}" if isinstance(self.value, float) else f"failing rows <= {self.value}"


@dataclass(frozen=True)
class Assertion:
    id: str
    kind: str
    entity: str
    severity: str = "error"
    name: str | None = None
    description: str | None = None
    field: str | None = None
    metric: str | None = None
    condition: Condition | None = None
    filter: str | None = None
    exclude_nulls: bool = False
    failure_threshold: FailureThreshold = dc_field(default_factory=FailureThreshold)
    params: dict = dc_field(default_factory=dict)
    schedule: dict | None = None
    declared: dict = dc_field(default_factory=dict)
    location: str | None = None

    @property
    def display_name(self) -> str:
        return self.name or self.id

    @property
    def spec_type(self) -> str:
        """The ``type`` as written in the spec."""
        return "field" if self.kind in ("field_values", "field_metric") else self.kind

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "entity": self.entity,
            "severity": self.severity,
            "name": self.name,
            "description": self.description,
            "field": self.field,
            "metric": self.metric,
            "condition": self.condition.to_dict() if self.condition else None,
            "filter": self.filter,
            "exclude_nulls": self.exclude_nulls,
            "failure_threshold": self.failure_threshold.to_dict(),
            "params": dict(self.params),
            "schedule": self.schedule,
            "declared": self.declared,
            "location": self.location,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Assertion":
        cond = data.get("condition")
        return cls(
            id=data["id"],
            kind=data["kind"],
            entity=data["entity"],
            severity=data.get("severity", "error"),
            name=data.get("name"),
            description=data.get("description"),
            field=data.get("field"),
            metric=data.get("metric"),
            condition=Condition.from_dict(cond) if cond else None,
            filter=data.get("filter"),
            exclude_nulls=bool(data.get("exclude_nulls", False)),
            failure_threshold=FailureThreshold.from_dict(data.get("failure_threshold")),
            params=dict(data.get("params") or {}),
            schedule=data.get("schedule"),
            declared=dict(data.get("declared") or {}),
            location=data.get("location"),
        )


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()


def entity_short_name(entity: str) -> str:
    """``urn:li:dataset:(urn:li:dataPlatform:snowflake,db.public.events,PROD)`` → ``events``."""
    m = re.match(r"^urn:li:dataset:\(urn:li:dataPlatform:[^,]+,([^,]+),[^)]*\)$", entity)
    name = m.group(1) if m else entity
    return re.split(r"[./\\]", name.rstrip("/"))[-1] or name


def derive_id(kind: str, entity: str, declared: dict) -> str:
    """A stable id for an assertion without a ``name``: readable prefix plus a digest of what was declared.

    The digest ignores presentation-only keys so renaming a description does not change the id.
    """
    body = {k: v for k, v in declared.items() if k not in ("description", "severity", "schedule")}
    digest = hashlib.sha1(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:8]
    parts = [kind, entity_short_name(entity)]
    for key in ("field", "metric"):
        if declared.get(key):
            parts.append(str(declared[key]))
    cond = declared.get("condition")
    if isinstance(cond, dict) and cond.get("type") and kind != "field_metric":
        parts.append(str(cond["type"]))
    return slug("_".join(parts)) + "_" + digest
