"""Which shapes apply to which datasets: seed 001's three linking patterns, and what stays unlinked.

1. inline:      ``ex:D a dcat:Dataset ; sh:property [...]``
2. conformsTo:  ``ex:D a dcat:Dataset ; dcterms:conformsTo ex:S .  ex:S a sh:NodeShape ; sh:property [...]``
3. targetClass: ``ex:S a sh:NodeShape ; sh:targetClass dcat:Dataset`` (or any class some dataset is an instance of,
   through rdfs:subClassOf), and beyond the seed ``sh:targetNode ex:D``.
A NodeShape linked to no dataset is skipped (seed limitation 1) unless it names a platform itself
(``dcat:accessService``), in which case DataHub treats the shape as its own dataset, and so do we.
"""

from __future__ import annotations

from dataclasses import dataclass

from rdflib import BNode, Graph, Literal, URIRef

from airflow_dq.shacl.config import ShaclConfig
from airflow_dq.shacl.report import ConversionReport
from airflow_dq.shacl.vocab import DATASET_CLASSES, DCAT, DCTERMS, RDF, RDFS, SH, first, local_name, show

_PLATFORM_URN = "urn:li:dataPlatform:"


@dataclass(frozen=True)
class Link:
    dataset: URIRef  # the dataset node (or, for a standalone shape with a platform, the shape itself)
    urn: str
    shape: URIRef | BNode  # the node whose sh:property lists the property shapes
    pattern: str  # inline | conformsTo | targetClass | targetNode | standalone


def dataset_name(iri: URIRef) -> str:
    """The URN's name part, as DataHub builds it: the IRI without its scheme (``http://ex.org/a/b`` → ``ex.org/a/b``)."""
    text = str(iri)
    if "://" in text:
        return text.split("://", 1)[1]
    return text.split(":", 1)[1] if ":" in text else text


def platform_of(graph: Graph, node, default: str) -> str:
    """``dcat:accessService``'s ``dcterms:title`` (or the service IRI's local name), lower case; else the default."""
    for service in sorted(graph.objects(node, DCAT.accessService), key=str):
        title = first(graph, service, DCTERMS.title)
        if isinstance(title, Literal) and str(title).strip():
            name = str(title).strip()
        elif isinstance(service, URIRef):
            name = local_name(service)
        else:
            continue
        name = name[len(_PLATFORM_URN):] if name.startswith(_PLATFORM_URN) else name
        return name.lower()
    return default


def has_platform(graph: Graph, node) -> bool:
    return graph.value(node, DCAT.accessService) is not None


def dataset_urn(graph: Graph, node: URIRef, config: ShaclConfig) -> str:
    platform = platform_of(graph, node, config.default_platform)
    return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{dataset_name(node)},{config.environment})"


def instances_of(graph: Graph, cls) -> set:
    """Nodes typed ``cls`` or one of its subclasses (rdfs:subClassOf*), as SHACL class targets read them."""
    classes = set(graph.transitive_subjects(RDFS.subClassOf, cls))
    return {s for c in classes for s in graph.subjects(RDF.type, c)}


def datasets(graph: Graph) -> list:
    found = set()
    for cls in DATASET_CLASSES:
        found |= instances_of(graph, cls)
    return sorted(found, key=str)


def node_shapes(graph: Graph) -> list:
    shapes = set(graph.subjects(RDF.type, SH.NodeShape))
    for target in (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf):
        shapes |= set(graph.subjects(target, None))
    return sorted(shapes, key=str)


def _deactivated(graph: Graph, node) -> bool:
    value = graph.value(node, SH.deactivated)
    return isinstance(value, Literal) and value.toPython() is True


def find_links(graph: Graph, config: ShaclConfig, report: ConversionReport) -> list[Link]:
    links: dict[tuple, Link] = {}
    all_datasets = datasets(graph)
    named: dict = {}
    for ds in all_datasets:
        has_schema = graph.value(ds, SH.property) is not None or graph.value(ds, DCTERMS.conformsTo) is not None
        if not isinstance(ds, URIRef):
            if has_schema:
                report.skipped(f"dataset {show(graph, ds)}", "a dataset without an IRI has no URN: its shapes are "
                               "not converted (give the dataset an IRI)")
            continue
        if "," in dataset_name(ds):
            report.skipped(f"dataset {show(graph, ds)}", "its IRI contains a comma, which a dataset URN cannot hold")
            continue
        named[ds] = dataset_urn(graph, ds, config)

    def add(ds, shape, pattern: str) -> None:
        if ds in named and (ds, shape) not in links:
            links[(ds, shape)] = Link(ds, named[ds], shape, pattern)

    for ds in named:
        if graph.value(ds, SH.property) is not None:
            add(ds, ds, "inline")
        for target in sorted(graph.objects(ds, DCTERMS.conformsTo), key=str):
            if (target, RDF.type, SH.NodeShape) in graph or graph.value(target, SH.property) is not None:
                if _deactivated(graph, target):
                    report.skipped(f"sh:NodeShape {show(graph, target)}", "sh:deactivated true", dataset=named[ds])
                    continue
                add(ds, target, "conformsTo")
            else:
                report.note(f"dcterms:conformsTo {show(graph, target)}",
                            "not a sh:NodeShape in this graph: not read as the dataset's schema", dataset=named[ds])

    referenced = set(graph.objects(None, SH.node))
    used = {link.shape for link in links.values()}
    for shape in node_shapes(graph):
        if shape in named:
            continue  # a dataset carrying sh:property itself: the inline pattern
        if _deactivated(graph, shape):
            report.skipped(f"sh:NodeShape {show(graph, shape)}", "sh:deactivated true")
            continue
        matched, missed = False, []
        for cls in sorted(graph.objects(shape, SH.targetClass), key=str):
            hits = [ds for ds in all_datasets if ds in instances_of(graph, cls) and ds in named]
            for ds in hits:
                add(ds, shape, "targetClass")
            matched |= bool(hits)
            if not hits:
                missed.append((f"sh:targetClass {show(graph, cls)}", "no dataset in the graph is an instance of it"))
        for node in sorted(graph.objects(shape, SH.targetNode), key=str):
            if node in named:
                add(node, shape, "targetNode")
                matched = True
            else:
                missed.append((f"sh:targetNode {show(graph, node)}", "not a dataset of this graph"))
        for target in (SH.targetSubjectsOf, SH.targetObjectsOf):
            for value in sorted(graph.objects(shape, target), key=str):
                missed.append((f"{show(graph, target)} {show(graph, value)}", "selects RDF nodes by their triples, "
                               "which names no dataset"))
        count = len(list(graph.objects(shape, SH.property)))
        for constraint, why in missed:
            note = report.note if matched else report.skipped
            tail = "" if matched else f"; its {count} property shape(s) are not converted through this target"
            note(constraint, why + tail, shape=show(graph, shape))
        if matched or missed or shape in used or shape in referenced:
            continue
        if isinstance(shape, URIRef) and has_platform(graph, shape) and "," not in dataset_name(shape):
            named[shape] = dataset_urn(graph, shape, config)
            add(shape, shape, "standalone")
            continue
        report.skipped(f"sh:NodeShape {show(graph, shape)}",
                       f"standalone NodeShape: not linked to a dataset (no dcterms:conformsTo, sh:targetClass or "
                       f"platform), so there is no dataset URN; its {count} property shape(s) are not converted")
    return list(links.values())
