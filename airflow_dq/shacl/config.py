"""Conversion settings, in the shape of seed 001's context: ``create_assertions`` and ``assertion_types``.

``create_assertions`` is False by default (nothing is converted until it is switched on). Once on, every
``assertion_types`` sub-flag the seed names defaults to True; an empty or missing ``assertion_types`` enables all.
Beyond the seed: ``datatypes`` (``sh:datatype`` → a schema assertion) is off by default, like in the seed.
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from airflow_dq.spec.errors import SpecError


class AssertionTypes(BaseModel):
    model_config = ConfigDict(extra="forbid")

    required_fields: bool = True  # sh:minCount / sh:maxCount
    field_size: bool = True  # sh:minLength / sh:maxLength
    value_checks: bool = True  # sh:pattern, sh:minInclusive/maxInclusive, and beyond: minExclusive, maxExclusive, in, hasValue
    datatypes: bool = False  # sh:datatype → schema assertion (the seed does not convert datatypes)


class ShaclConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    create_assertions: bool = False
    assertion_types: AssertionTypes = Field(default_factory=AssertionTypes)
    environment: str = Field(default="PROD", min_length=1)  # the URN's environment part
    default_platform: str = Field(default="logical", min_length=1)  # datasets without dcat:accessService

    @classmethod
    def from_context(cls, context: Mapping[str, Any] | None, where: str = "SHACL config") -> "ShaclConfig":
        """Validate a seed-style context dict; unknown keys and wrong types are a SpecError naming the key."""
        data = dict(context or {})
        if data.get("assertion_types") in (None, {}):
            data.pop("assertion_types", None)  # empty → all types enabled (seed 001, "Default Behavior")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors())
            raise SpecError(f"invalid SHACL conversion config: {problems}", file=where) from None

    @classmethod
    def enabled(cls, **overrides: Any) -> "ShaclConfig":
        """Conversion switched on with the seed's defaults (what the CLI and the operator use for a shapes file)."""
        return cls.from_context({"create_assertions": True, **overrides})

    def flag_for(self, group: str) -> bool:
        return self.create_assertions and bool(getattr(self.assertion_types, group))
