"""Test DAGs: DataQualityOperator with SHACL shapes as the spec (run by tests/test_shacl_operator.py).

The data is written by the test into $AIRFLOW_HOME/data/shacl_trading (tests/shacl_data.py) before dag.test().
"""

from __future__ import annotations

import os
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.data_quality import DataQualityOperator
from airflow_dq.shacl import ShaclShapes

SHAPES = Path(__file__).resolve().parent.parent / "fixtures" / "shacl"
DATA = Path(os.environ.get("AIRFLOW_HOME", "/tmp")) / "data" / "shacl_trading"
START = pendulum.datetime(2026, 11, 1, tz="UTC")
TRADES = "urn:li:dataset:(urn:li:dataPlatform:spark,bank.example/trading/trades,PROD)"
SOURCES = {name: str(DATA / f"{name}.parquet") for name in ("trades", "counterparties", "positions")}
SOURCES = {f"bank.example/trading/{name}": path for name, path in SOURCES.items()}
SOURCES["bank.example/shapes/audit_events"] = str(DATA / "audit_events.parquet")

with DAG(dag_id="dq_shacl_catalog", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as shapes_and_yaml:
    # a shapes file in addition to a YAML spec (here a parsed mapping)
    DataQualityOperator(task_id="dq", sources=SOURCES, spec=[
        str(SHAPES / "trading_catalog.ttl"),
        {"version": 1, "assertions": [{"entity": TRADES, "name": "trades_rows", "type": "volume",
                                       "condition": {"type": "equal_to", "value": 8}}]},
    ])

with DAG(dag_id="dq_shacl_contract_warn", schedule=None, start_date=START, tags=["airflow-dq-tests"]) as contract:
    # a JSON-LD contract in place of a YAML spec, with the seed's config
    DataQualityOperator(task_id="dq", sources=SOURCES, spec=ShaclShapes(
        str(SHAPES / "counterparty_contract.jsonld"),
        config={"create_assertions": True, "assertion_types": {"required_fields": True, "value_checks": True}}))
