"""Validated spec models → core assertions."""

from __future__ import annotations

from airflow_dq.core.assertions import Assertion, FailureThreshold, derive_id, slug
from airflow_dq.core.conditions import Condition
from airflow_dq.spec import models as m
from airflow_dq.spec.diagnostics import diagnostics_params


def _condition(c: m.ConditionModel) -> Condition:
    return Condition(type=c.type, value=c.value, min=c.min, max=c.max)


def compile_assertion(model, raw: dict, default_severity: str, location: str | None) -> Assertion:
    common = dict(
        entity=model.entity,
        severity=model.severity or default_severity,
        name=model.name,
        description=model.description,
        filter=model.filter_sql,
        schedule=model.schedule.model_dump(exclude_none=True) if model.schedule else None,
        declared=dict(raw),
        location=location,
    )
    if isinstance(model, m.VolumeAssertion):
        kind, extra = "volume", dict(metric=model.metric, condition=_condition(model.condition))
    elif isinstance(model, m.FieldAssertion):
        kind = "field_metric" if model.metric else "field_values"
        extra = dict(field=model.field, metric=model.metric, condition=_condition(model.condition),
                     exclude_nulls=model.exclude_nulls)
        if model.failure_threshold:
            extra["failure_threshold"] = FailureThreshold(model.failure_threshold.type, model.failure_threshold.value)
        if model.field_transform:
            extra["params"] = {"field_transform": model.field_transform}
        extra["params"] = {**extra.get("params", {}), **diagnostics_params(model)}
    elif isinstance(model, m.FreshnessAssertion):
        kind = "freshness"
        extra = dict(field=model.last_modified_field,
                     params={"lookback_interval": model.lookback_interval, "source_type": model.source_type,
                             "lookback_seconds": m.parse_duration(model.lookback_interval).total_seconds()})
    elif isinstance(model, m.SqlAssertion):
        kind, extra = "sql", dict(condition=_condition(model.condition), params={"statement": model.statement})
    elif isinstance(model, m.SchemaAssertion):
        kind = "schema"
        extra = dict(params={"match": model.condition.type,
                             "columns": [{"name": c.name, "type": m.normalize_schema_type(c.type), "declared_type": c.type}
                                         for c in model.condition.columns]})
    else:  # pragma: no cover - the discriminated union admits nothing else
        raise TypeError(type(model))
    aid = slug(model.name) if model.name else derive_id(kind, model.entity, raw)
    return Assertion(id=aid, kind=kind, **common, **extra)
