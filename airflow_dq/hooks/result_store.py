"""Where the result document of one task try lives, and reading it back on the Airflow side.

The Spark driver writes the document through Hadoop's FileSystem API (``s3a://``, ``gs://``, ``abfs://``,
``hdfs://``, ``file://``); this side reads it through Airflow's object storage (``ObjectStoragePath``, i.e.
fsspec). The two use different names for the same stores, so a ``result_uri`` is given in Hadoop form and mapped:

=================  ==================  =====================================
Hadoop (driver)    fsspec (Airflow)    fsspec package needed on the worker
=================  ==================  =====================================
file://            file://             (built in)
s3a:// s3n://      s3://               s3fs (apache-airflow-providers-amazon)
gs://              gs://               gcsfs (apache-airflow-providers-google)
abfs:// abfss://   abfs://             adlfs (apache-airflow-providers-microsoft-azure)
hdfs://            hdfs://             pyarrow with libhdfs
=================  ==================  =====================================

An Airflow connection for the reading side may be named in the URI's user part, Airflow's own convention:
``s3a://aws_default@bucket/dq`` reads with connection ``aws_default``; the driver gets ``s3a://bucket/dq``. For
Azure (whose user part is the container: ``abfss://container@account.dfs.core.windows.net/dq``) name it as
``?conn_id=azure_default`` instead (accepted for every scheme).

Every task try has its own location, ``<result_uri>/<dag_id>/<task_id>/<run_id>/try-<n>[/map-<i>]/result.json``,
and the document must name this try's run id: a missing, truncated or foreign document is refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from airflow_dq.core.results import ResultError, RunResult

FSSPEC_SCHEME = {"s3a": "s3", "s3n": "s3", "abfss": "abfs", "file": "file", "": "file"}
FSSPEC_PACKAGE = {"s3": "s3fs", "gs": "gcsfs", "gcs": "gcsfs", "abfs": "adlfs", "hdfs": "pyarrow (libhdfs)"}
RESULT_NAME = "result.json"


class ResultUnavailable(ResultError):
    """No trustworthy result document for this try: missing, unreadable, truncated, or another run's."""


class ResultLocationError(ValueError):
    """The result location cannot work (unknown scheme, no fsspec implementation on this worker)."""


AZURE_SCHEMES = ("abfs", "abfss", "wasb", "wasbs")  # their user part is the container, not a connection


def _split(uri: str):
    parts = urlsplit(uri)
    if not parts.scheme:
        return urlsplit("file://" + os.path.abspath(uri)), None
    query = dict(parse_qsl(parts.query))
    conn_id = query.pop("conn_id", None)
    netloc = parts.netloc
    if "@" in netloc and parts.scheme not in AZURE_SCHEMES:
        conn_id, netloc = netloc.rsplit("@", 1)
    return parts._replace(netloc=netloc, query=urlencode(query)), conn_id or None


@dataclass(frozen=True)
class ResultLocation:
    """One result document: ``spark_uri`` for the driver, ``reader_uri`` (+ ``conn_id``) for this side."""

    spark_uri: str
    reader_uri: str
    conn_id: str | None = None

    def path(self):
        from airflow.sdk import ObjectStoragePath

        try:
            return ObjectStoragePath(self.reader_uri, conn_id=self.conn_id)
        except ValueError as exc:
            raise ResultLocationError(_no_fs_message(self.reader_uri, exc)) from None

    @property
    def display(self) -> str:
        """The local path for file:// locations, else the driver-side URI."""
        parts = urlsplit(self.reader_uri)
        return parts.path if parts.scheme == "file" else self.spark_uri

    def __str__(self) -> str:
        return self.spark_uri


def _no_fs_message(uri: str, exc: Exception) -> str:
    scheme = urlsplit(uri).scheme
    package = FSSPEC_PACKAGE.get(scheme, f"an fsspec implementation of {scheme!r}")
    return (f"the Airflow worker cannot read result documents at {uri}: {exc}. Install {package} on the "
            f"workers (the Spark driver writes with Hadoop's filesystem, Airflow reads with fsspec)")


def result_location(result_uri: str, task_key: str, name: str = RESULT_NAME) -> ResultLocation:
    """The location of ``task_key``'s document (``dag/task/run/try-n``) under ``result_uri``."""
    parts, conn_id = _split(result_uri)
    base_path = parts.path.rstrip("/")
    path = "/".join(p for p in (base_path, task_key.strip("/"), name) if p)
    spark = urlunsplit(parts._replace(path=path, query="", fragment=""))
    if parts.scheme == "file":
        spark = "file://" + path  # file:///abs, the form Hadoop and fsspec both accept
    reader_scheme = FSSPEC_SCHEME.get(parts.scheme, parts.scheme)
    reader = urlunsplit(parts._replace(scheme=reader_scheme, path=path, query="", fragment=""))
    if reader_scheme == "file":
        reader = "file://" + path
    return ResultLocation(spark_uri=spark, reader_uri=reader, conn_id=conn_id)


def check_readable(location: ResultLocation) -> None:
    """Fail before submitting when this worker could not read the document back (no fsspec for the scheme)."""
    try:
        location.path().fs
    except ValueError as exc:
        raise ResultLocationError(_no_fs_message(location.reader_uri, exc)) from None


def clear(location: ResultLocation) -> None:
    """Remove a document already at this try's location, so only a fresh one can be read afterwards."""
    path = location.path()
    try:
        if path.exists():
            path.unlink()
    except FileNotFoundError:
        pass


def prepare_local_parent(location: ResultLocation) -> None:
    """Create the parent directory of a local (file://) location; Hadoop creates it too, this is for clarity."""
    if urlsplit(location.reader_uri).scheme == "file":
        os.makedirs(os.path.dirname(urlsplit(location.reader_uri).path), exist_ok=True)


def read_result(location: ResultLocation, expected_run_id: str) -> RunResult:
    """This try's result document, or ResultUnavailable saying why it is not trusted."""
    path = location.path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultUnavailable(f"no result document at {location.spark_uri}") from None
    except (OSError, ValueError) as exc:
        raise ResultUnavailable(f"cannot read the result document at {location.spark_uri}: {exc}") from None
    if not text.strip():
        raise ResultUnavailable(f"the result document at {location.spark_uri} is empty")
    try:
        return RunResult.from_json(text, expected_run_id=expected_run_id)
    except ResultError as exc:
        raise ResultUnavailable(f"refusing the result document at {location.spark_uri}: {exc}") from None


def parse_location(uri: str) -> ResultLocation:
    """A ResultLocation for a full document URI or local path."""
    base, _, name = uri.rstrip("/").rpartition("/")
    return result_location(base, "", name=name)
