"""Test DAGs for the gating policy, empty inputs, assets, UI report and templating (tests/test_severity_*.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG

from airflow_dq.operators.assets import validated_asset
from airflow_dq.operators.data_quality import DataQualityOperator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = str(ROOT / "dags_example" / "data" / "purchase_events.csv")
EMPTY = str(HERE / "data" / "empty_purchase_events.csv")
ENTITY = "urn:li:dataset:(urn:li:dataPlatform:spark,shop.purchase_events,PROD)"
START = pendulum.datetime(2026, 11, 1, tz="UTC")

ROWS_OK = {"name": "rows_ok", "type": "volume", "condition": {"type": "equal_to", "value": 1000}}
AMOUNT_NULLS = {"name": "amount_has_no_nulls", "type": "field", "field": "amount", "metric": "null_count",
                "condition": {"type": "equal_to", "value": 0}}
ID_NOT_NULL = {"name": "id_not_null", "type": "field", "field": "id", "condition": {"type": "is_not_null"}}


PURCHASES_ON_NOV_1 = 39  # purchase events on 2026-11-01 in the sample (the test recomputes it with pandas)


def spec(*items: dict) -> dict:
    return {"version": 1, "assertions": [{"entity": ENTITY, **i} for i in items]}


PASSING = spec(ROWS_OK, ID_NOT_NULL)
WARN_ONLY = spec(ROWS_OK, {**AMOUNT_NULLS, "severity": "warn"})
ERROR_FAILS = spec(ROWS_OK, {**AMOUNT_NULLS, "severity": "error"})
# passes on an empty table "by accident": 0 nulls among 0 rows
NULLS_ONLY = spec({**AMOUNT_NULLS, "severity": "error"})


def _dag(dag_id: str, **kwargs) -> DAG:
    return DAG(dag_id=dag_id, schedule=None, start_date=START, tags=["airflow-dq-tests"], **kwargs)


with _dag("severity_fail_on_warn") as fail_on_warn:
    DataQualityOperator(task_id="dq", spec=WARN_ONLY, sources={"purchase_events": DATA}, fail_on="warn")

with _dag("severity_fail_on_never") as fail_on_never:
    DataQualityOperator(task_id="dq", spec=ERROR_FAILS, sources={"purchase_events": DATA}, fail_on="never")

with _dag("severity_retry_on_failure") as retry_on_failure:
    DataQualityOperator(task_id="dq", spec=ERROR_FAILS, sources={"purchase_events": DATA}, retry_on_failure=True,
                        retries=1, retry_delay=timedelta(seconds=0))

with _dag("severity_empty_input") as empty_input:
    for policy in ("fail", "warn", "skip", "ignore"):
        DataQualityOperator(task_id=f"on_empty_{policy}", spec=NULLS_ONLY, sources={"purchase_events": EMPTY},
                            on_empty=policy)

# assets: the pass emits the validated asset event; warn emits it only with validated_on_warn=True
with _dag("severity_assets") as assets:
    DataQualityOperator(task_id="passes", spec=PASSING, sources={"purchase_events": DATA})
    DataQualityOperator(task_id="warns", spec=WARN_ONLY, sources={"purchase_events": DATA})
    DataQualityOperator(task_id="warns_validated", spec=WARN_ONLY, sources={"purchase_events": DATA},
                        validated_on_warn=True)

# a downstream DAG that runs on validated data only
with DAG(dag_id="severity_validated_consumer", schedule=[validated_asset(DATA)], start_date=START,
         tags=["airflow-dq-tests"]) as validated_consumer:
    from airflow.providers.standard.operators.empty import EmptyOperator

    EmptyOperator(task_id="use_validated_data")

# templating: a .yml spec rendered with the task context (absolute path outside the dags folder, and relative
# to this DAG's folder), templated sources and filters
with _dag("severity_templated", params={"expected_rows": 47, "event_type": "purchase"}) as templated:
    DataQualityOperator(task_id="absolute_spec", spec=str(HERE / "specs" / "templated_daily.yml"),
                        sources={"purchase_events": DATA})
    DataQualityOperator(task_id="relative_spec_and_filters", spec="specs/templated_daily.yml",
                        sources={"purchase_events": str(ROOT / "dags_example" / "{{ 'data' }}" / "purchase_events.csv")},
                        filters={"purchase_events": "event_type = '{{ params.event_type }}'"},
                        params={"expected_rows": PURCHASES_ON_NOV_1})

with _dag("severity_templated_broken", params={"min_rows": 10}) as templated_broken:
    DataQualityOperator(task_id="dq", spec=str(HERE / "specs" / "templated_broken.yml"),
                        sources={"purchase_events": DATA})
