"""Spec options for diagnostics of field-values assertions: ``dimensions``, ``top_n`` and ``samples``.

They compile into the assertion's ``params`` (``dimensions``, ``top_n``, ``samples``), read by the engine's
dimensions/samples modules. See docs/diagnostics.md.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Mask = Literal["redact", "hash", "partial"]


class SamplesSpec(BaseModel):
    """``samples: {limit: 10, columns: [..], mask: {col: redact|hash|partial}}``; ``mask: [col, ..]`` redacts the
    listed columns; ``samples: false`` turns samples off (``true`` = the defaults)."""

    model_config = ConfigDict(extra="forbid")
    limit: int = Field(default=10, ge=0, le=1000)
    columns: list[str] | None = Field(default=None, min_length=1)
    mask: dict[str, Mask] | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthands(cls, data: Any) -> Any:
        if data is True:
            return {}
        if data is False:
            return {"limit": 0}
        if isinstance(data, dict) and isinstance(data.get("mask"), list):
            return {**data, "mask": {c: "redact" for c in data["mask"]}}
        return data


def check_diagnostics(model) -> None:
    """Raise ValueError for diagnostics options that do not fit the assertion."""
    dims, top_n, samples = model.dimensions, model.top_n, model.samples
    if model.metric and (dims or top_n is not None or (samples is not None and samples.limit)):
        raise ValueError("dimensions, top_n and samples apply to field values assertions, not to field metrics")
    if dims is not None:
        if not dims or any(not isinstance(d, str) or not d.strip() for d in dims):
            raise ValueError("dimensions must be a non-empty list of column names")
        duplicates = sorted({d for d in dims if dims.count(d) > 1})
        if duplicates:
            raise ValueError(f"dimensions lists {', '.join(map(repr, duplicates))} more than once")
    if top_n is not None and not dims:
        raise ValueError("top_n needs dimensions (the columns to group the failing rows by)")


def diagnostics_params(model) -> dict:
    params: dict = {}
    if model.dimensions:
        params["dimensions"] = list(model.dimensions)
    if model.top_n is not None:
        params["top_n"] = model.top_n
    if model.samples is not None and model.samples.limit == 0:
        params["samples"] = False
    elif model.samples is not None:
        params["samples"] = {"limit": model.samples.limit, "columns": model.samples.columns,
                             "mask": dict(model.samples.mask or {})}
    return params
