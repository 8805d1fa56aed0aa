"""Conditions of the DataHub assertion spec and their evaluation against a computed value."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

# Conditions comparing one computed number (a metric, a row count, a SQL result) with the expected value.
METRIC_CONDITIONS = (
    "equal_to",
    "not_equal_to",
    "greater_than",
    "greater_than_or_equal_to",
    "less_than",
    "less_than_or_equal_to",
    "between",
)

# Row-level conditions of field-values assertions; each row passes or fails.
NUMERIC_ROW_CONDITIONS = ("greater_than", "greater_than_or_equal_to", "less_than", "less_than_or_equal_to", "between")
STRING_ROW_CONDITIONS = ("matches_regex", "not_empty", "length_greater_than", "length_less_than", "length_between")
ANY_ROW_CONDITIONS = ("in", "not_in", "is_null", "is_not_null", "equal_to", "not_equal_to")
ROW_CONDITIONS = ANY_ROW_CONDITIONS + NUMERIC_ROW_CONDITIONS + STRING_ROW_CONDITIONS

_SYMBOLS = {
    "equal_to": "==",
    "not_equal_to": "!=",
    "greater_than": ">",
    "greater_than_or_equal_to": ">=",
    "less_than": "<",
    "less_than_or_equal_to": "<=",
    "length_greater_than": "length >",
    "length_less_than": "length <",
}


@dataclass(frozen=True)
class Condition:
    type: str
    value: Any = None
    min: Any = None
    max: Any = None
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"type": self.type}
        for key in ("value", "min", "max"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.extra:
            out["extra"] = dict(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Condition":
        return cls(type=data["type"], value=data.get("value"), min=data.get("min"), max=data.get("max"),
                   extra=dict(data.get("extra") or {}))

    def describe(self) -> str:
        """Human/lineage form of the expectation, e.g. ``between 0 and 10`` or ``>= 1000``."""
        t = self.type
        if t in ("between", "length_between"):
            prefix = "length " if t == "length_between" else ""
            return f"{prefix}between {self.min} and {self.max}"
        if t in ("in", "not_in"):
            return f"{t.replace('_', ' ')} {list(self.value or [])}"
        if t in ("is_null", "is_not_null", "not_empty"):
            return t.replace("_", " ")
        if t == "matches_regex":
            return f"matches {self.value}"
        if t in _SYMBOLS:
            return f"{_SYMBOLS[t]} {self.value}"
        return t


class NotComparable(ValueError):
    """The computed value cannot be compared with the condition (e.g. NULL or NaN metric)."""


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        raise NotComparable(f"{what} {value!r} is not a number") from None


def evaluate_metric(condition: Condition, actual: Any) -> bool:
    """True when ``actual`` satisfies a metric condition. Raises NotComparable when it cannot be judged."""
    if actual is None:
        raise NotComparable("the computed value is NULL (no rows, or no non-null values)")
    a = _number(actual, "computed value")
    if isinstance(a, float) and math.isnan(a):
        raise NotComparable("the computed value is NaN")
    t = condition.type
    if t == "between":
        return _number(condition.min, "min") <= a <= _number(condition.max, "max")
    v = _number(condition.value, "expected value")
    if t == "equal_to":
        return a == v
    if t == "not_equal_to":
        return a != v
    if t == "greater_than":
        return a > v
    if t == "greater_than_or_equal_to":
        return a >= v
    if t == "less_than":
        return a < v
    if t == "less_than_or_equal_to":
        return a <= v
    raise NotComparable(f"condition {t!r} does not apply to a single value")
