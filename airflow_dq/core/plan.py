"""The plan: the versioned JSON document the Airflow side hands to the Spark job."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.sources import Source

PLAN_FORMAT = "airflow-dq/plan"
PLAN_VERSION = 1


class PlanError(ValueError):
    """The plan document is not one this engine can execute."""


@dataclass
class Plan:
    run_id: str
    reference_time: str  # ISO-8601 with offset; freshness is judged against it
    sources: list[Source]
    assertions: list[Assertion]
    options: dict = field(default_factory=dict)

    def source_for(self, entity: str) -> Source:
        for s in self.sources:
            if s.entity == entity:
                return s
        raise PlanError(f"no source for entity {entity!r}")

    def entities(self) -> list[str]:
        """Entities in first-seen order of the assertions."""
        seen: dict[str, None] = {}
        for a in self.assertions:
            seen.setdefault(a.entity)
        return list(seen)

    def to_dict(self) -> dict:
        return {
            "format": PLAN_FORMAT,
            "version": PLAN_VERSION,
            "run_id": self.run_id,
            "reference_time": self.reference_time,
            "sources": [s.to_dict() for s in self.sources],
            "assertions": [a.to_dict() for a in self.assertions],
            "options": dict(self.options),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, default=str)

    @classmethod
    def from_dict(cls, data: dict) -> "Plan":
        if data.get("format") != PLAN_FORMAT:
            raise PlanError(f"not an airflow-dq plan (format={data.get('format')!r})")
        if data.get("version") != PLAN_VERSION:
            raise PlanError(f"plan version {data.get('version')!r} is not supported (expected {PLAN_VERSION})")
        return cls(
            run_id=data["run_id"],
            reference_time=data["reference_time"],
            sources=[Source.from_dict(s) for s in data["sources"]],
            assertions=[Assertion.from_dict(a) for a in data["assertions"]],
            options=dict(data.get("options") or {}),
        )

    @classmethod
    def from_json(cls, text: str) -> "Plan":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PlanError(f"plan is not valid JSON: {exc}") from None
        return cls.from_dict(data)
