"""Spec-driven DAGs: one DAG per spec file (or per schedule within it), built from each assertion's ``schedule``.

In a DAG file in your dags folder::

    from airflow_dq.dag_factory import dags_from_specs

    globals().update(dags_from_specs("/opt/dq/specs", sources={"shop.purchase_events": "s3a://lake/events/"}))

* ``schedule: {type: interval, interval: '6 hours'}`` → ``schedule=timedelta(hours=6)``;
* ``schedule: {type: cron, cron: '0 6 * * *', timezone: Europe/Paris}`` → a ``CronTriggerTimetable``;
* ``schedule: {type: on_table_change}`` → an asset-triggered DAG on the entity's Asset (the same URI the
  operator declares as its inlet, see :mod:`airflow_dq.operators.assets`): it runs when a producer task with that
  asset as an outlet succeeds;
* assertions without a schedule use ``default_schedule`` (None: manual runs only).

A file whose assertions share one schedule gives one DAG ``<prefix><file stem>``; a file with several schedules
gives one DAG per schedule, ``<prefix><stem>__<schedule>``, each running only its assertions (``select``).
Every file is validated when the DAG file is parsed. A broken spec file yields an import error carrying the
loader's ``file:line: field: message`` for its DAG only; the DAGs of the other files load normally.
"""

from __future__ import annotations

import logging
import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Mapping

from airflow.sdk import DAG

from airflow_dq.core.assertions import Assertion
from airflow_dq.operators.assets import source_asset
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec
from airflow_dq.spec.models import parse_duration
from airflow_dq.spec.sources import resolve_sources

log = logging.getLogger(__name__)
SPEC_GLOBS = ("*.yml", "*.yaml")
DEFAULT_START = datetime(2024, 1, 1)


class SpecImportError(ValueError):
    """A spec file of the factory is invalid; raised when Airflow validates (bags) that file's DAG."""


class BrokenSpecDAG(DAG):
    """Stands in for the DAG of an invalid spec file: Airflow records an import error when it validates it."""

    def validate(self):
        raise SpecImportError(self.doc_md or "invalid data-quality spec")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_").lower()


def schedule_key(schedule: dict | None) -> tuple:
    if not schedule:
        return ("default",)
    return (schedule["type"], schedule.get("interval") or schedule.get("cron") or "", schedule.get("timezone") or "")


def schedule_suffix(key: tuple) -> str:
    kind, value, tz = (key + ("", ""))[:3]
    if kind == "default":
        return "unscheduled"
    if kind == "on_table_change":
        return "on_table_change"
    if kind == "interval":
        return "every_" + _slug(value)
    return "cron_" + _slug(value.replace("*", "x")) + (f"_{_slug(tz)}" if tz else "")


def airflow_schedule(key: tuple, assertions: list[Assertion], sources: Mapping[str, Any], default_schedule: Any):
    kind = key[0]
    if kind == "default":
        return default_schedule
    if kind == "interval":
        return parse_duration(key[1])
    if kind == "cron":
        if key[2]:
            from airflow.sdk import CronTriggerTimetable

            return CronTriggerTimetable(key[1], timezone=key[2])
        return key[1]
    # on_table_change: the assets of the entities these assertions check
    assets = []
    checked = {a.entity for a in assertions}
    for src in (s for s in resolve_sources(assertions, sources) if s.entity in checked):
        asset = source_asset(src)
        if asset is None:
            raise SpecError(f"on_table_change needs a static source for {src.entity}, got {src.describe()}")
        if asset not in assets:
            assets.append(asset)
    return assets


def sources_for(assertions: list[Assertion], sources: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``sources`` these assertions use (so each DAG's inlets are its own entities only)."""
    from airflow_dq.spec.sources import _candidates

    keys = {next(k for k in _candidates(a.entity) if k in sources) for a in assertions}
    return {k: v for k, v in sources.items() if k in keys}


def _broken(dag_id: str, path: Path, error: Exception, dag_kwargs: dict) -> DAG:
    message = f"invalid data-quality spec {path}:\n{error}"
    log.error("%s", message)
    kwargs = {k: v for k, v in dag_kwargs.items() if k in ("start_date", "tags")}
    return BrokenSpecDAG(dag_id=dag_id, schedule=None, doc_md=message, **kwargs)


def dags_from_spec(path: str | os.PathLike, sources: Mapping[str, Any], *, dag_id_prefix: str = "dq_",
                   default_schedule: Any = None, operator_kwargs: dict | None = None,
                   dag_kwargs: dict | None = None) -> dict[str, DAG]:
    """The DAGs of one spec file (see the module docstring)."""
    from airflow_dq.operators.data_quality import DataQualityOperator

    path = Path(path).resolve()
    base_id = dag_id_prefix + _slug(path.stem)
    dag_kwargs = {"start_date": DEFAULT_START, "catchup": False, "tags": ["airflow-dq"], **(dag_kwargs or {})}
    try:
        assertions = load_spec(path)
        resolve_sources(assertions, sources)  # every entity must have a source: checked now, not at run time
        groups: dict[tuple, list[Assertion]] = {}
        for a in assertions:
            groups.setdefault(schedule_key(a.schedule), []).append(a)
        schedules = {key: airflow_schedule(key, group, sources, default_schedule) for key, group in groups.items()}
    except (SpecError, ValueError) as exc:
        return {base_id: _broken(base_id, path, exc, dag_kwargs)}

    dags: dict[str, DAG] = {}
    for key, group in groups.items():
        dag_id = base_id if len(groups) == 1 else f"{base_id}__{schedule_suffix(key)}"
        names = [a.display_name for a in group]
        doc = f"Data-quality checks from `{path}` ({len(group)} assertion(s): {', '.join(names)})."
        with DAG(dag_id=dag_id, schedule=schedules[key], doc_md=doc, **dag_kwargs) as dag:
            DataQualityOperator(task_id="validate", spec=str(path), sources=sources_for(group, sources),
                                select=None if len(groups) == 1 else [a.id for a in group],
                                **(operator_kwargs or {}))
        dags[dag_id] = dag
    return dags


def dags_from_specs(folder: str | os.PathLike, sources: Mapping[str, Any], **kwargs: Any) -> dict[str, DAG]:
    """The DAGs of every ``*.yml``/``*.yaml`` spec file in ``folder`` (recursively), keyed by dag_id.

    Use ``globals().update(dags_from_specs(...))`` in a DAG file so Airflow finds them."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"spec folder {folder} does not exist")
    dags: dict[str, DAG] = {}
    files = sorted({p for pattern in SPEC_GLOBS for p in folder.rglob(pattern)})
    for path in files:
        for dag_id, dag in dags_from_spec(path, sources, **kwargs).items():
            if dag_id in dags:
                dag = _broken(dag_id, path, SpecError(f"DAG id {dag_id!r} is also produced by another spec file; "
                                                      "rename one of the files"), kwargs.get("dag_kwargs") or {})
            dags[dag_id] = dag
    return dags
