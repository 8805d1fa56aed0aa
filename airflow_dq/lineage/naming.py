"""OpenLineage dataset namespace and name of a validated source, per the OpenLineage naming conventions.

Uses openlineage-python's own naming helpers (``openlineage.client.naming.dataset``):

* local path or ``file:///p``   → ``file`` + absolute path
* ``s3://b/k`` (s3a, s3n)       → ``s3://b`` + ``k``
* ``gs://b/k``                  → ``gs://b`` + ``k``
* ``hdfs://host:port/p``        → ``hdfs://host:port`` + ``/p``
* ``abfss://c@acct.dfs.core.windows.net/p`` → ``abfss://c@acct.dfs.core.windows.net`` + ``p`` (wasbs likewise)
* other URIs                    → ``scheme://authority`` + path
* a catalog table               → ``hive://host:port`` + ``db.table`` when the Spark conf names a Hive metastore
  (``spark.hadoop.hive.metastore.uris``); else the entity URN's platform (``urn:li:dataPlatform:hive`` → ``hive``)
  when the entity is a URN; else ``spark_catalog`` (Spark's session catalog) + the table name as given.

Hive-style partition directories at the end of a path (``.../events/dt=2026-11-01/``) are split off: the dataset is
the table root and the partition values are returned for a PartitionSubsetCondition.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import unquote, urlparse

from openlineage.client.naming import dataset as naming

from airflow_dq.core.sources import Source

_URN = re.compile(r"^urn:li:dataset:\(urn:li:dataPlatform:(?P<platform>[^,]+),(?P<name>[^,]+),(?P<env>[^)]*)\)$")
_PARTITION = re.compile(r"^(?P<key>[^=/*?\[\]{}]+)=(?P<value>[^=/*?\[\]{}]*)$")
_METASTORE_KEYS = ("spark.hadoop.hive.metastore.uris", "spark.hive.metastore.uris", "hive.metastore.uris")


@dataclass(frozen=True)
class DatasetName:
    namespace: str
    name: str
    partition: dict = field(default_factory=dict)  # Hive-style partition values read, if the path named some


def urn_platform(entity: str) -> str | None:
    m = _URN.match(entity)
    return m.group("platform") if m else None


def urn_name(entity: str) -> str | None:
    m = _URN.match(entity)
    return m.group("name") if m else None


def split_partitions(path: str) -> tuple[str, dict]:
    """``/t/dt=1/h=2/`` → (``/t``, {"dt": "1", "h": "2"}); without trailing partition dirs: the path as is."""
    trimmed = path.rstrip("/") or path
    parts = trimmed.split("/")
    dims: list[tuple[str, str]] = []
    while len(parts) > 1:
        m = _PARTITION.match(parts[-1])
        if not m or not parts[-2]:
            break
        dims.insert(0, (unquote(m.group("key")), unquote(m.group("value"))))
        parts.pop()
    if not dims:
        return trimmed, {}
    root = "/".join(parts)
    return (root or "/"), dict(dims)


def _ns_name(helper_cls, *args) -> tuple[str, str] | None:
    try:
        helper = helper_cls(*args)
    except (ValueError, TypeError):
        return None
    return helper.get_namespace(), helper.get_name()


def path_name(path: str) -> DatasetName:
    text = path.strip()
    parsed = urlparse(text)
    scheme = parsed.scheme.lower()
    if len(scheme) == 1:  # a Windows drive letter, not a scheme
        scheme = ""
    if scheme in ("", "file", "local"):
        raw = unquote(parsed.path) if scheme else text
        if scheme == "file" and parsed.netloc not in ("", "localhost"):
            root, dims = split_partitions(raw)
            ns, name = naming.RemoteFileSystem(parsed.netloc, root).get_namespace(), root
            return DatasetName(ns, name, dims)
        local = os.path.normpath(os.path.abspath(os.path.expanduser(raw)))
        root, dims = split_partitions(local)
        ns, name = _ns_name(naming.LocalFileSystem, root) or ("file", root)
        return DatasetName(ns, name, dims)
    root, dims = split_partitions(parsed.path)
    key = root.lstrip("/")
    host = parsed.netloc
    result = None
    if scheme in ("s3", "s3a", "s3n"):
        result = _ns_name(naming.S3, host, key)
    elif scheme in ("gs", "gcs"):
        result = _ns_name(naming.GCS, host, key)
    elif scheme == "hdfs" and parsed.hostname and parsed.port:
        result = _ns_name(naming.HDFS, parsed.hostname, str(parsed.port), root)
    elif scheme in ("abfs", "abfss", "wasb", "wasbs") and "@" in host:
        container, _, account_host = host.partition("@")
        service = account_host.split(".")[0]
        helper = naming.ABFSS if scheme.startswith("abfs") else naming.WASBS
        result = _ns_name(helper, container, service, key)
        if result and not scheme.endswith("s"):  # keep the scheme the user gave (abfs / wasb)
            result = (result[0].replace(scheme + "s://", scheme + "://", 1), result[1])
    if result is None:
        result = (f"{scheme}://{host}" if host else scheme, root or "/")
    return DatasetName(result[0], result[1], dims)


def metastore_authority(spark_conf: Mapping[str, Any] | None) -> tuple[str, str] | None:
    for key in _METASTORE_KEYS:
        value = (spark_conf or {}).get(key)
        if value:
            first = urlparse(str(value).split(",")[0].strip())
            if first.hostname:
                return first.hostname, str(first.port or 9083)
    return None


def table_name(table: str, entity: str, spark_conf: Mapping[str, Any] | None = None) -> DatasetName:
    parts = [p.strip("`") for p in table.strip().split(".")]
    if len(parts) == 3 and parts[0].lower() == "spark_catalog":
        parts = parts[1:]
    metastore = metastore_authority(spark_conf)
    if metastore and len(parts) <= 2:
        database, tbl = (parts if len(parts) == 2 else ["default", parts[0]])
        hive = naming.Hive(metastore[0], metastore[1], database, tbl)
        return DatasetName(hive.get_namespace(), hive.get_name())
    platform = urn_platform(entity)
    return DatasetName(platform or "spark_catalog", ".".join(parts))


def dataset_name(source: Source, spark_conf: Mapping[str, Any] | None = None) -> DatasetName:
    """Namespace and name of what Spark read for ``source``."""
    if source.kind == "table":
        return table_name(source.table or source.entity, source.entity, spark_conf)
    return path_name(source.path or source.entity)
