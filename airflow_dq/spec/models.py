"""Pydantic models of the assertion spec (seed 002), one per ``type``, discriminated on ``type``."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from airflow_dq.core.conditions import METRIC_CONDITIONS, ROW_CONDITIONS
from airflow_dq.spec.diagnostics import SamplesSpec, check_diagnostics

Severity = Literal["error", "warn"]
FIELD_METRICS = (
    "null_count", "null_percentage", "unique_count", "unique_percentage", "empty_count", "empty_percentage",
    "min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
    "zero_percentage",
)
SCHEMA_TYPES = ("string", "number", "boolean", "date", "timestamp", "struct", "array", "map", "union", "bytes", "enum")
# Type names seen in schema assertions (the seed writes INTEGER and DECIMAL) → the 11 high-level types.
# Matching is case-insensitive and ignores parameters: DECIMAL(10,2) and VARCHAR(20) are decimal and varchar.
SCHEMA_TYPE_ALIASES = {
    **{t: t for t in SCHEMA_TYPES},
    **dict.fromkeys(("varchar", "char", "text", "nvarchar", "nchar", "character", "character varying"), "string"),
    **dict.fromkeys(("integer", "int", "bigint", "smallint", "tinyint", "long", "short", "byte", "float", "double",
                     "real", "decimal", "numeric", "dec", "double precision", "int64", "int32", "float64"), "number"),
    "bool": "boolean",
    **dict.fromkeys(("datetime", "timestamp_ntz", "timestamp_ltz", "timestamp_tz", "timestamptz"), "timestamp"),
    **dict.fromkeys(("record", "object", "row"), "struct"),
    "list": "array",
    **dict.fromkeys(("binary", "varbinary", "blob", "bytea"), "bytes"),
}


def normalize_schema_type(name: str) -> str:
    """``INTEGER`` → ``number``, ``VARCHAR(20)`` → ``string``; ValueError naming the accepted types otherwise."""
    key = re.sub(r"\s*[(<].*$", "", str(name).strip().lower()).strip()
    if key not in SCHEMA_TYPE_ALIASES:
        raise ValueError(f"unknown schema type {name!r}; use one of: {', '.join(SCHEMA_TYPES)} "
                         "(or a common SQL name such as integer, decimal, varchar, binary)")
    return SCHEMA_TYPE_ALIASES[key]


_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
_HUMAN = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(second|minute|hour|day|week)s?\s*$", re.IGNORECASE)
_ISO = re.compile(r"^P(?:(?P<w>\d+(?:\.\d+)?)W)?(?:(?P<d>\d+(?:\.\d+)?)D)?"
                  r"(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?$",
                  re.IGNORECASE)


def parse_duration(text: Any) -> timedelta:
    """'6 hours', '30 minutes', '1 day', '2 weeks' or an ISO-8601 duration without months/years ('PT6H', 'P1DT2H').

    Months and years are refused: their length depends on the calendar, so a lookback would be ambiguous.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{text!r} is not a duration; write e.g. '6 hours', '30 minutes', '1 day' or 'PT6H'")
    m = _HUMAN.match(text)
    if m:
        seconds = float(m.group(1)) * _UNITS[m.group(2).lower()]
    else:
        iso = _ISO.match(text.strip())
        if not iso or text.strip().upper() in ("P", "PT") or text.strip().upper().endswith("T"):
            raise ValueError(f"{text!r} is not a duration; write e.g. '6 hours', '30 minutes', '1 day' or an "
                             "ISO-8601 duration such as 'PT6H' or 'P1DT12H' (months and years are not allowed)")
        parts = {k: float(v) for k, v in iso.groupdict().items() if v}
        seconds = (parts.get("w", 0) * 604800 + parts.get("d", 0) * 86400 + parts.get("h", 0) * 3600
                   + parts.get("m", 0) * 60 + parts.get("s", 0))
    if seconds <= 0:
        raise ValueError(f"duration {text!r} must be longer than zero")
    return timedelta(seconds=seconds)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ConditionModel(_Model):
    type: str
    value: Any = None
    min: Any = None
    max: Any = None

    def check(self, allowed: tuple[str, ...], kind: str) -> "ConditionModel":
        if self.type not in allowed:
            raise ValueError(f"condition type {self.type!r} is not valid for {kind}; use one of: {', '.join(allowed)}")
        if self.type in ("between", "length_between"):
            if self.min is None or self.max is None:
                raise ValueError(f"condition {self.type!r} needs both 'min' and 'max'")
            if _is_number(self.min) and _is_number(self.max) and self.min > self.max:
                raise ValueError(f"condition {self.type!r} has min {self.min} greater than max {self.max}")
        elif self.type in ("in", "not_in"):
            if not isinstance(self.value, list) or not self.value:
                raise ValueError(f"condition {self.type!r} needs 'value' as a non-empty list")
        elif self.type not in ("is_null", "is_not_null", "not_empty"):
            if self.value is None:
                raise ValueError(f"condition {self.type!r} needs a 'value'")
        if kind != "field values" and self.type != "between" and not _is_number(self.value):
            raise ValueError(f"condition {self.type!r} of {kind} needs a numeric 'value', got {self.value!r}")
        if kind != "field values" and self.type == "between" and not (_is_number(self.min) and _is_number(self.max)):
            raise ValueError("condition 'between' needs numeric 'min' and 'max'")
        return self


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class SqlFilter(_Model):
    type: Literal["sql"] = "sql"
    sql: str


class Schedule(_Model):
    type: Literal["interval", "cron", "on_table_change"]
    interval: str | None = None
    cron: str | None = None
    timezone: str | None = None

    @model_validator(mode="after")
    def _needs(self) -> "Schedule":
        if self.type == "interval" and not self.interval:
            raise ValueError("schedule type 'interval' needs 'interval' (e.g. '6 hours')")
        if self.type == "cron" and not self.cron:
            raise ValueError("schedule type 'cron' needs 'cron' (e.g. '0 * * * *')")
        if self.interval is not None:
            parse_duration(self.interval)
        if self.cron is not None:
            from croniter import croniter  # a dependency of Airflow

            if not croniter.is_valid(self.cron):
                raise ValueError(f"schedule cron {self.cron!r} is not a valid cron expression")
        if self.timezone is not None:
            from zoneinfo import ZoneInfo

            try:
                ZoneInfo(self.timezone)
            except Exception:
                raise ValueError(f"schedule timezone {self.timezone!r} is not a known IANA time zone") from None
        return self


class FailureThresholdModel(_Model):
    type: Literal["count", "percentage"]
    value: float = Field(ge=0)

    @model_validator(mode="after")
    def _pct(self) -> "FailureThresholdModel":
        if self.type == "percentage" and self.value > 100:
            raise ValueError("a percentage failure_threshold cannot exceed 100")
        return self


class _Common(_Model):
    entity: str = Field(min_length=1)
    name: str | None = None
    description: str | None = None
    severity: Severity | None = None
    filters: str | SqlFilter | None = None
    schedule: Schedule | None = None
    # Room for tools that add their own metadata without breaking validation.
    meta: dict[str, Any] | None = None

    @property
    def filter_sql(self) -> str | None:
        if self.filters is None:
            return None
        sql = self.filters if isinstance(self.filters, str) else self.filters.sql
        return sql.strip() or None


class VolumeAssertion(_Common):
    type: Literal["volume"]
    metric: Literal["row_count"] = "row_count"
    condition: ConditionModel

    @field_validator("condition")
    @classmethod
    def _cond(cls, c: ConditionModel) -> ConditionModel:
        return c.check(METRIC_CONDITIONS, "volume")


class FieldAssertion(_Common):
    type: Literal["field"]
    field: str = Field(min_length=1)
    metric: str | None = None
    field_transform: Literal["length"] | None = None
    condition: ConditionModel  # validated after metric/field_transform, which decide the allowed conditions
    exclude_nulls: bool = False
    failure_threshold: FailureThresholdModel | None = None
    # diagnostics (docs/diagnostics.md): group failing rows by these columns, keep the top N; failing-row samples
    dimensions: list[str] | None = None
    top_n: int | None = Field(default=None, ge=1, le=1000)
    samples: SamplesSpec | None = None

    @field_validator("metric")
    @classmethod
    def _metric(cls, v: str | None) -> str | None:
        if v is not None and v not in FIELD_METRICS:
            raise ValueError(f"unknown field metric {v!r}; use one of: {', '.join(FIELD_METRICS)}")
        return v

    @field_validator("condition")
    @classmethod
    def _cond(cls, c: ConditionModel, info: ValidationInfo) -> ConditionModel:
        if info.data.get("metric"):
            return c.check(METRIC_CONDITIONS, "field metrics")
        if info.data.get("field_transform") == "length":
            return c.check(METRIC_CONDITIONS, "field values")
        return c.check(ROW_CONDITIONS, "field values")

    @model_validator(mode="after")
    def _metric_only(self) -> "FieldAssertion":
        if self.metric and self.failure_threshold is not None:
            raise ValueError("failure_threshold applies to field values assertions, not to field metrics")
        if self.metric and self.field_transform:
            raise ValueError("field_transform applies to field values assertions, not to field metrics")
        check_diagnostics(self)
        if self.field_transform == "length":
            c = self.condition
            bounds = (c.min, c.max) if c.type == "between" else (c.value,)
            if not all(_is_number(b) and b >= 0 for b in bounds):
                raise ValueError(f"field_transform 'length' with condition {c.type!r} needs non-negative numbers, "
                                 f"got {', '.join(repr(b) for b in bounds)}")
        return self


class FreshnessAssertion(_Common):
    type: Literal["freshness"]
    lookback_interval: str
    last_modified_field: str | None = None
    source_type: Literal["LAST_MODIFIED_FIELD", "FILE_MODIFICATION_TIME"] = Field(
        default="LAST_MODIFIED_FIELD", alias="sourceType")

    @field_validator("lookback_interval")
    @classmethod
    def _lookback(cls, v: str) -> str:
        parse_duration(v)
        return v

    @model_validator(mode="after")
    def _field(self) -> "FreshnessAssertion":
        if self.source_type == "LAST_MODIFIED_FIELD" and not self.last_modified_field:
            raise ValueError("freshness with sourceType LAST_MODIFIED_FIELD needs 'last_modified_field'")
        return self


class SqlAssertion(_Common):
    type: Literal["sql"]
    statement: str = Field(min_length=1)
    condition: ConditionModel

    @field_validator("condition")
    @classmethod
    def _cond(cls, c: ConditionModel) -> ConditionModel:
        return c.check(METRIC_CONDITIONS, "sql")


class SchemaColumn(_Model):
    name: str = Field(min_length=1)
    type: str

    @field_validator("type")
    @classmethod
    def _type(cls, v: str) -> str:
        normalize_schema_type(v)
        return v.strip()


class SchemaCondition(_Model):
    type: Literal["exact_match", "contains"]
    columns: list[SchemaColumn] = Field(min_length=1)


class SchemaAssertion(_Common):
    type: Literal["schema"]
    condition: SchemaCondition


AnyAssertion = Annotated[
    Union[VolumeAssertion, FieldAssertion, FreshnessAssertion, SqlAssertion, SchemaAssertion],
    Field(discriminator="type"),
]


class SpecDocument(_Model):
    version: Literal[1]
    severity: Severity = "error"  # document-level default for assertions without their own
    assertions: list[AnyAssertion] = Field(min_length=1)
