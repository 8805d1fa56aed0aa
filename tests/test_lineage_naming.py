"""OpenLineage dataset naming of validated sources (files, object stores, HDFS, catalog tables, partitions)."""

from __future__ import annotations

import os

import pytest

from airflow_dq.core.sources import Source
from airflow_dq.lineage.naming import dataset_name, path_name, split_partitions, table_name

HIVE_URN = "urn:li:dataset:(urn:li:dataPlatform:hive,shop.products,PROD)"


@pytest.mark.parametrize("path, namespace, name, partition", [
    ("/data/events.csv", "file", "/data/events.csv", {}),
    ("file:///data/events/", "file", "/data/events", {}),
    ("file:///data/events/dt=2026-11-01/", "file", "/data/events", {"dt": "2026-11-01"}),
    ("s3://lake/raw/events/", "s3://lake", "raw/events", {}),
    ("s3a://lake/raw/events/dt=2026-11-01/hour=07", "s3://lake", "raw/events", {"dt": "2026-11-01", "hour": "07"}),
    ("gs://bucket/path/to/t", "gs://bucket", "path/to/t", {}),
    ("hdfs://namenode:8020/warehouse/t", "hdfs://namenode:8020", "/warehouse/t", {}),
    ("abfss://box@acct.dfs.core.windows.net/lake/t", "abfss://box@acct.dfs.core.windows.net", "lake/t", {}),
    ("file://otherhost/srv/t", "file://otherhost", "/srv/t", {}),
])
def test_paths_follow_the_openlineage_naming_conventions(path, namespace, name, partition):
    dsn = path_name(path)
    assert (dsn.namespace, dsn.name, dsn.partition) == (namespace, name, partition)


def test_relative_local_paths_become_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert path_name("data/x.parquet").name == os.path.join(str(tmp_path), "data", "x.parquet")


def test_partition_values_are_url_decoded_and_only_trailing_dirs_count():
    assert split_partitions("/t/dt=2026-11-01/city=New%20York") == ("/t", {"dt": "2026-11-01", "city": "New York"})
    assert split_partitions("/t/dt=1/data") == ("/t/dt=1/data", {})


def test_catalog_tables():
    # a Hive metastore in the Spark conf → hive://host:port + db.table
    conf = {"spark.hadoop.hive.metastore.uris": "thrift://metastore:9083,thrift://backup:9083"}
    assert table_name("shop.products", "products", conf).__dict__ == {
        "namespace": "hive://metastore:9083", "name": "shop.products", "partition": {}}
    assert table_name("products", "products", conf).name == "default.products"
    assert table_name("spark_catalog.shop.products", "products", conf).name == "shop.products"
    # no metastore: the platform of the entity URN the user declared
    assert (table_name("shop.products", HIVE_URN).namespace, table_name("shop.products", HIVE_URN).name) == \
        ("hive", "shop.products")
    # neither: Spark's session catalog
    assert table_name("shop.products", "products").namespace == "spark_catalog"


def test_dataset_name_of_a_source():
    assert dataset_name(Source(entity=HIVE_URN, kind="table", table="shop.products")).namespace == "hive"
    assert dataset_name(Source(entity=HIVE_URN, kind="path", path="s3a://b/k", format="parquet")).namespace == "s3://b"


def test_declared_urn_becomes_a_symlink_unless_it_is_the_dataset_itself():
    from airflow_dq.lineage.facets import declared_identity
    from airflow_dq.lineage.naming import DatasetName

    link = declared_identity(HIVE_URN, path_name("/lake/products.parquet"))
    assert [(i.namespace, i.name, i.type) for i in link.identifiers] == [("hive", "shop.products", "TABLE")]
    assert declared_identity(HIVE_URN, DatasetName("hive", "shop.products")) is None
    assert declared_identity("products", path_name("/lake/products.parquet")) is None
