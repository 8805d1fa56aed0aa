"""Source → DataFrame."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession

from airflow_dq.core.sources import Source
from airflow_dq.engine.context import first_line
from airflow_dq.engine.errors import NotEvaluable

_DEFAULT_OPTIONS = {"csv": {"header": "true", "inferSchema": "true"}}


def load(spark: SparkSession, source: Source) -> DataFrame:
    try:
        if source.kind == "table":
            return spark.table(source.table)
        options = {**_DEFAULT_OPTIONS.get(source.format or "", {}), **source.options}
        return spark.read.format(source.format or "parquet").options(**options).load(source.path)
    except Exception as exc:
        raise NotEvaluable(f"cannot read {source.describe()} for {source.entity}: {first_line(exc)}") from None
