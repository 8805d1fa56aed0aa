"""Pydantic models of the assertion spec (seed 002), one per ``type``, discriminated on ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from airflow_dq.core.conditions import METRIC_CONDITIONS, ROW_CONDITIONS

Severity = Literal["error", "warn"]
FIELD_METRICS = (
    "null_count", "null_percentage", "unique_count", "unique_percentage", "empty_count", "empty_percentage",
    "min", "max", "mean", "median", "stddev", "negative_count", "negative_percentage", "zero_count",
    "zero_percentage",
)
SCHEMA_TYPES = ("string", "number", "boolean", "date", "timestamp", "struct", "array", "map", "union", "bytes", "enum")


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
        return self


class FreshnessAssertion(_Common):
    type: Literal["freshness"]
    lookback_interval: str
    last_modified_field: str | None = None
    source_type: Literal["LAST_MODIFIED_FIELD", "FILE_MODIFICATION_TIME"] = Field(
        default="LAST_MODIFIED_FIELD", alias="sourceType")

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
