"""Freshness assertions: was the dataset updated within ``lookback_interval`` before the run's reference time?

``LAST_MODIFIED_FIELD`` reads the newest value of a timestamp/date column in the fused scan;
``FILE_MODIFICATION_TIME`` (path sources) reads the newest modification time of the source's files from the
filesystem, without scanning data. The result says which was used (``details.source_type``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pyspark.sql import functions as F
from pyspark.sql import types as T

from airflow_dq.core.assertions import Assertion
from airflow_dq.engine.aggregates import on_column
from airflow_dq.engine.columns import find_field, quoted
from airflow_dq.engine.context import Dataset, Outcome, Pending, first_line
from airflow_dq.engine.errors import NotEvaluable

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _latest_expr(field: T.StructField, col):
    """Newest value as a number Spark computes without time-zone conversion on the Python side."""
    dt = field.dataType
    if isinstance(dt, T.TimestampType):  # an instant
        return "micros", F.unix_micros(F.max(col))
    if isinstance(dt, T.TimestampNTZType):  # a wall-clock time without zone: read as UTC
        return "wall_clock", F.max(col)  # PySpark returns it as a naive datetime of the stored wall-clock time
    if isinstance(dt, T.DateType):  # a day: its start (00:00 UTC)
        return "days", F.unix_date(F.max(col))
    raise NotEvaluable(f"freshness needs a timestamp or date column; {field.name!r} is {dt.simpleString()}")


def _judge(a: Assertion, ds: Dataset, latest: datetime | None, source_type: str, extra: dict) -> Outcome:
    lookback = timedelta(seconds=float(a.params["lookback_seconds"]))
    reference = ds.reference_time
    window_start = reference - lookback
    details = {"source_type": source_type, "reference_time": reference.isoformat(),
               "window_start": window_start.isoformat(), "lookback_interval": a.params.get("lookback_interval"),
               "latest": latest.isoformat() if latest else None, **extra}
    expected = f"updated after {window_start.isoformat()} (lookback {a.params.get('lookback_interval')})"
    if latest is None:
        return Outcome("fail", actual=None, expected=expected, details=details,
                       message="no update found: " + ("no rows with a non-null " + str(a.field)
                                                      if source_type == "LAST_MODIFIED_FIELD" else "no files"))
    age = reference - latest
    details["age_seconds"] = age.total_seconds()
    if latest > reference:
        details["note"] = "the latest update is after the reference time"
    ok = latest >= window_start
    msg = None if ok else f"last update {latest.isoformat()} is {age} before the reference time"
    return Outcome("pass" if ok else "fail", actual=latest.isoformat(), expected=expected, message=msg,
                   details=details)


def _file_times(ds: Dataset) -> tuple[datetime | None, int]:
    try:
        files = ds.df.inputFiles()
    except Exception as exc:
        raise NotEvaluable(f"cannot list the files of {ds.source.describe()}: {first_line(exc)}") from None
    if not files:
        return None, 0
    jvm = ds.spark.sparkContext._jvm
    conf = ds.spark.sparkContext._jsc.hadoopConfiguration()
    newest = 0
    for name in files:
        path = jvm.org.apache.hadoop.fs.Path(name)
        newest = max(newest, path.getFileSystem(conf).getFileStatus(path).getModificationTime())
    return EPOCH + timedelta(milliseconds=newest), len(files)


def prepare(a: Assertion, ds: Dataset) -> Pending | Outcome:
    source_type = a.params.get("source_type") or "LAST_MODIFIED_FIELD"
    if source_type == "FILE_MODIFICATION_TIME":
        if a.filter:
            raise NotEvaluable("filters do not apply to sourceType FILE_MODIFICATION_TIME")
        latest, count = _file_times(ds)
        return _judge(a, ds, latest, source_type, {"files": count})
    if source_type != "LAST_MODIFIED_FIELD":
        raise NotEvaluable(f"freshness sourceType {source_type!r} is not supported")
    field = find_field(ds.schema, a.field)
    col = F.col(quoted(field.name))
    unit, expr = _latest_expr(field, F.when(ds.scope(a.filter), col))
    agg = on_column(ds, f"latest_{unit}", field.name, a.filter, lambda: expr)

    def finish(values: dict) -> Outcome:
        raw = values["latest"]
        if raw is None:
            latest = None
        elif unit == "wall_clock":
            latest = raw.replace(tzinfo=timezone.utc)
        elif unit == "micros":
            latest = EPOCH + timedelta(microseconds=raw)
        else:
            latest = EPOCH + timedelta(days=raw)
        extra = {"field": field.name, "field_type": field.dataType.simpleString()}
        if ds.source.kind == "path":  # for information only: the verdict above comes from the field
            try:
                newest_file, _ = _file_times(ds)
                extra["files_modified"] = newest_file.isoformat() if newest_file else None
            except Exception as exc:  # listing is best effort here
                extra["files_modified"] = f"unavailable: {first_line(exc)}"
        return _judge(a, ds, latest, source_type, extra)

    return Pending({"latest": agg}, finish)
