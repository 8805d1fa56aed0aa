"""Writing the result document where the Airflow side will look for it, atomically."""

from __future__ import annotations

import os
import tempfile
from urllib.parse import urlparse

from pyspark.sql import SparkSession


def write_text(spark: SparkSession | None, location: str, text: str) -> None:
    """Write ``text`` to a local path / file:// URI (temp file + rename) or any Hadoop filesystem URI."""
    parsed = urlparse(location)
    if parsed.scheme in ("", "file"):
        path = parsed.path if parsed.scheme == "file" else location
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
        return
    _write_hadoop(spark, location, text)


def _write_hadoop(spark: SparkSession, location: str, text: str) -> None:
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    final = jvm.org.apache.hadoop.fs.Path(location)
    fs = final.getFileSystem(conf)
    tmp = jvm.org.apache.hadoop.fs.Path(final.getParent(), "._tmp_" + final.getName())
    stream = fs.create(tmp, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()
    if fs.exists(final):
        fs.delete(final, False)
    if not fs.rename(tmp, final):
        raise OSError(f"could not move the result into place at {location}")
