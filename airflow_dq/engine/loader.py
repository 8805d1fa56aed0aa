"""Source → DataFrame."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession

from airflow_dq.core.sources import Source
from airflow_dq.engine.context import first_line
from airflow_dq.engine.errors import NotEvaluable

# CSV: Spark's default ``nullValue`` is the empty string, which turns a quoted empty string ("") into NULL as well as
# an empty field. With a marker no file holds (U+0000), an empty field is still NULL but "" stays the empty string,
# as in Parquet, ORC and JSON (docs/semantics.md, "Sources"). A source's own options override these.
_DEFAULT_OPTIONS = {"csv": {"header": "true", "inferSchema": "true", "nullValue": "\u0000"}}


def load(spark: SparkSession, source: Source) -> DataFrame:
    try:
        if source.kind == "table":
            return spark.table(source.table)
        options = {**_DEFAULT_OPTIONS.get(source.format or "", {}), **source.options}
        return spark.read.format(source.format or "parquet").options(**options).load(source.path)
    except Exception as exc:
        raise NotEvaluable(f"cannot read {source.describe()} for {source.entity}: {first_line(exc)}") from None
