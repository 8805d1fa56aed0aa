"""Assertion kind → engine module. A new kind is one module with ``prepare(assertion, dataset)`` and one line here.

``prepare`` returns a ``Pending`` (aggregates for the fused scan plus a ``finish``) or an ``Outcome`` directly
(checks that need no scan of the data); it raises ``NotEvaluable`` when the assertion cannot be evaluated.
"""

from airflow_dq.engine import custom_sql, field_metrics, field_values, freshness, schema_match, volume

KINDS = {
    "volume": volume,
    "field_values": field_values,
    "field_metric": field_metrics,
    "freshness": freshness,
    "sql": custom_sql,
    "schema": schema_match,
}
