"""Small helpers shared by tests."""

from __future__ import annotations

from airflow_dq.core.plan import Plan
from airflow_dq.spec.build import build_plan
from airflow_dq.spec.loader import load_spec_text

FLIGHTS = "urn:li:dataset:(urn:li:dataPlatform:file,nyc.flights,PROD)"


def plan_from_yaml(text: str, sources: dict, run_id: str = "test-run", reference_time=None) -> Plan:
    return build_plan(load_spec_text(text, file="test.yml"), sources, run_id=run_id, reference_time=reference_time)


def run_yaml(spark, text: str, sources: dict, **kw):
    from airflow_dq.engine.runner import run_plan

    return run_plan(spark, plan_from_yaml(text, sources, **kw))


def by_name(result) -> dict:
    return {r.name: r for r in result.results}
