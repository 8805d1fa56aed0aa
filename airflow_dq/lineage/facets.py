"""A Plan (+ its RunResult) → OpenLineage input datasets and run facets, with openlineage-python's classes.

Per validated entity, one ``InputDataset`` named after what Spark read (see :mod:`naming`), carrying

* ``facets.dataQualityAssertions`` and ``inputFacets.dataQualityAssertions`` (DataQualityAssertionsDatasetFacet),
* ``facets.dataQualityMetrics`` (DataQualityMetricsDatasetFacet) when the engine computed any,
* ``inputFacets.subset`` (InputSubsetInputDatasetFacet) when the validated rows are an exactly describable subset;
* ``facets.symlinks`` (SymlinksDatasetFacet): the entity URN as declared (platform, name), when it is a URN;

and one run facet ``test`` (TestRunFacet) listing every assertion. Used by the operator mixin and by the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from openlineage.client.event_v2 import InputDataset
from openlineage.client.generated.data_quality_assertions_dataset import DataQualityAssertionsDatasetFacet
from openlineage.client.generated.symlinks_dataset import Identifier, SymlinksDatasetFacet
from openlineage.client.generated.test_run import TestRunFacet

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.plan import Plan
from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.lineage.assertions import dataset_assertion, execution_entry
from airflow_dq.lineage.metrics import metrics_facet
from airflow_dq.lineage.naming import DatasetName, dataset_name, urn_name, urn_platform
from airflow_dq.lineage.subset import dataset_subset, partition_condition, validated_scope

ASSERTIONS_KEY = "dataQualityAssertions"
METRICS_KEY = "dataQualityMetrics"
SUBSET_KEY = "subset"
SYMLINKS_KEY = "symlinks"
TEST_KEY = "test"


@dataclass
class Lineage:
    inputs: list[InputDataset]
    run_facets: dict[str, Any]


def metrics_scope(assertions: list[Assertion]) -> tuple[bool, str | None]:
    """(known, filter): the rows the metrics facet describes — the same rows the subset facet names: all rows, or
    the one filter left after absorption (see subset.validated_scope). Unknown for a union of several filters
    or an unrepresentable one (then there is no metrics facet)."""
    known, kept = validated_scope([a.filter for a in assertions])
    if not known or len(kept) > 1:
        return False, None
    return True, (kept[0][0] if kept else None)


def declared_identity(entity: str, dsn: DatasetName) -> SymlinksDatasetFacet | None:
    """The entity URN the user declared, as a symlink of the physical dataset (platform → namespace)."""
    platform, name = urn_platform(entity), urn_name(entity)
    if not platform or not name or (platform, name) == (dsn.namespace, dsn.name):
        return None
    return SymlinksDatasetFacet(identifiers=[Identifier(namespace=platform, name=name, type="TABLE")])


def _stats_for(result: RunResult | None, entity: str) -> dict | None:
    if result is None:
        return None
    return next((d for d in result.datasets if d.get("entity") == entity), None)


def build_lineage(plan: Plan, result: RunResult | None = None, *, spark_conf: Mapping[str, Any] | None = None,
                  tests: bool = True) -> Lineage:
    """Inputs and run facets for ``plan``. Without ``result`` (before the run, or when Spark failed) the datasets
    carry names and subsets only, and — when ``tests`` — every assertion is a ``skip`` test."""
    by_id: dict[str, AssertionResult] = {r.assertion_id: r for r in (result.results if result else [])}
    inputs: list[InputDataset] = []
    executions = []
    names: dict[str, DatasetName] = {}
    for entity in plan.entities():
        assertions = [a for a in plan.assertions if a.entity == entity]
        dsn = dataset_name(plan.source_for(entity), spark_conf)
        names[entity] = dsn
        facets: dict[str, Any] = {}
        input_facets: dict[str, Any] = {}
        symlink = declared_identity(entity, dsn)
        if symlink is not None:
            facets[SYMLINKS_KEY] = symlink
        partition = partition_condition(dsn.partition) if dsn.partition else None
        subset = dataset_subset([a.filter for a in assertions], partition)
        if subset is not None:
            input_facets[SUBSET_KEY] = subset
        pairs = [(a, by_id[a.id]) for a in assertions if a.id in by_id]
        if pairs:
            dq = DataQualityAssertionsDatasetFacet(assertions=[dataset_assertion(a, r) for a, r in pairs])
            facets[ASSERTIONS_KEY] = dq
            input_facets[ASSERTIONS_KEY] = dq
            known, scope = metrics_scope(assertions)
            metrics = metrics_facet(_stats_for(result, entity), pairs, scope, result.finished_at) if known else None
            if metrics is not None:
                facets[METRICS_KEY] = metrics
        inputs.append(InputDataset(namespace=dsn.namespace, name=dsn.name, facets=facets or None,
                                   inputFacets=input_facets or None))
    if tests and plan.assertions:
        for a in plan.assertions:
            dsn = names[a.entity]
            executions.append(execution_entry(a, by_id.get(a.id), (dsn.namespace, dsn.name)))
    run_facets = {TEST_KEY: TestRunFacet(tests=executions)} if executions else {}
    return Lineage(inputs=inputs, run_facets=run_facets)
