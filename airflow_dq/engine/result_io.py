"""Reading the plan and writing the result document through Spark's own Hadoop FileSystem API.

Whatever filesystem the cluster is configured for works the same way: file://, hdfs://, s3a://, gs://, abfs://.
The result is written atomically: to a hidden temporary name in the same directory, then renamed into place,
so a reader sees either no document or a whole one (on object stores the final PUT is itself atomic).
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlparse

from pyspark.sql import SparkSession


def as_uri(location: str) -> str:
    """A bare path means the local filesystem (never the cluster's default FS): ``/x`` → ``file:///x``."""
    if urlparse(location).scheme:
        return location
    return "file://" + os.path.abspath(location)


def is_local(location: str) -> bool:
    return urlparse(location).scheme in ("", "file")


def _fs(spark: SparkSession, uri: str):
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    fs = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    if fs.getUri().getScheme() == "file":
        # the local FS is a checksum FS: no .crc side files next to the documents
        fs.setWriteChecksum(False)
        fs.setVerifyChecksum(False)
    return jvm, fs, path


def write_text(spark: SparkSession, location: str, text: str) -> str:
    """Write ``text`` at ``location`` (a Hadoop URI or a local path) atomically; return the URI written."""
    uri = as_uri(location)
    jvm, fs, final = _fs(spark, uri)
    parent = final.getParent()
    if parent is not None and not fs.exists(parent):
        fs.mkdirs(parent)
    tmp = jvm.org.apache.hadoop.fs.Path(parent, f"._{final.getName()}.{uuid.uuid4().hex}.tmp")
    stream = fs.create(tmp, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()
    try:
        if fs.exists(final):
            fs.delete(final, False)
        if not fs.rename(tmp, final):
            raise OSError(f"could not move the result into place at {uri}")
    except BaseException:
        fs.delete(tmp, False)
        raise
    return uri


def read_text(spark: SparkSession, location: str) -> str:
    """The whole file at ``location`` (a Hadoop URI or a local path) as UTF-8 text."""
    uri = as_uri(location)
    _, fs, path = _fs(spark, uri)
    if not fs.exists(path):
        raise FileNotFoundError(f"no file at {uri}")
    stream = fs.open(path)
    try:
        return spark.sparkContext._jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8")
    finally:
        stream.close()
