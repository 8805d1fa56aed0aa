"""YAML assertion spec (DataHub Open Data Quality Assertions) → core plan."""

from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec, load_spec_text

__all__ = ["SpecError", "load_spec", "load_spec_text"]
