"""SHACL constraints of one property shape → spec assertion bodies (seed 001's table, and beyond it).

A table row is a focus node and a column is the property: a row holds 0 values (NULL) or 1 value of the column.
So ``minCount >= 1`` means "never NULL"; ``maxCount >= 1`` always holds; ``maxCount 0`` means "always NULL".
Value constraints (length, pattern, ranges, ``sh:in``) apply to values only, as in SHACL: NULLs do not violate them
(``exclude_nulls: true``); ``sh:hasValue`` does (a row without the value violates it).
"""

from __future__ import annotations

import re
from typing import Callable

from rdflib import Graph, Literal, URIRef
from rdflib.collection import Collection

from airflow_dq.shacl.config import ShaclConfig
from airflow_dq.shacl.fields import BadValue, FieldShape, Found, as_count, as_number, as_scalar
from airflow_dq.shacl.report import ConversionReport
from airflow_dq.shacl.vocab import RDF, SH, XSD, show

# constraint → the assertion_types flag that governs it
GROUPS = {
    SH.minCount: "required_fields", SH.maxCount: "required_fields",
    SH.minLength: "field_size", SH.maxLength: "field_size",
    SH.pattern: "value_checks", SH.minInclusive: "value_checks", SH.maxInclusive: "value_checks",
    SH.minExclusive: "value_checks", SH.maxExclusive: "value_checks", SH["in"]: "value_checks",
    SH.hasValue: "value_checks", SH.datatype: "datatypes",
}
CROSS_FIELD = "cross-field constraint (compares two properties of the same row): not converted (seed 001, limitation 4)"
UNSUPPORTED = {
    SH.lessThan: CROSS_FIELD, SH.lessThanOrEquals: CROSS_FIELD, SH.equals: CROSS_FIELD, SH.disjoint: CROSS_FIELD,
    URIRef(str(SH) + "notEquals"): CROSS_FIELD,  # not standard SHACL; DataHub names it
    SH["class"]: "the rdf:type of a value node cannot be checked on a table column",
    SH.nodeKind: "IRI / blank node / literal kinds do not exist in a table column",
    SH.languageIn: "language tags do not exist in a table column",
    SH.uniqueLang: "language tags do not exist in a table column",
    SH.qualifiedValueShape: "qualified value shapes are not converted",
    SH.qualifiedMinCount: "qualified value shapes are not converted",
    SH.qualifiedMaxCount: "qualified value shapes are not converted",
    SH["and"]: "logical combinations of shapes (sh:and/or/not/xone) are not converted",
    SH["or"]: "logical combinations of shapes (sh:and/or/not/xone) are not converted",
    SH["not"]: "logical combinations of shapes (sh:and/or/not/xone) are not converted",
    SH.xone: "logical combinations of shapes (sh:and/or/not/xone) are not converted",
    SH.sparql: "SPARQL-based constraints are not converted",
    SH.closed: "closed shapes are not converted (a schema exact_match assertion says the same)",
    SH.property: "nested property shapes describe values that are nodes, which have no column",
}
# Shape predicates that are not constraints (read elsewhere or documentation only).
NOT_CONSTRAINTS = {SH.path, SH.name, SH.description, SH.order, SH.group, SH.message, SH.severity, SH.deactivated,
                   SH.defaultValue, SH.flags, SH.node, SH.ignoredProperties, SH.targetClass, SH.targetNode,
                   SH.targetSubjectsOf, SH.targetObjectsOf}
# XSD datatype → the spec's schema types (seed 002).
XSD_TYPES = {
    **{XSD[t]: "string" for t in ("string", "normalizedString", "token", "language", "anyURI", "Name", "NCName")},
    **{XSD[t]: "number" for t in ("integer", "int", "long", "short", "byte", "decimal", "float", "double",
                                   "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
                                   "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte")},
    XSD.boolean: "boolean", XSD.date: "date", XSD.dateTime: "timestamp", XSD.dateTimeStamp: "timestamp",
    XSD.base64Binary: "bytes", XSD.hexBinary: "bytes",
}
_JAVA_FLAGS = set("imsx")

# emit(suffix, body, constraint_text, datahub, description)
Emit = Callable[[str, dict, str, dict, str], None]


def metric(name: str, cond: dict) -> dict:
    return {"type": "field", "metric": name, "condition": cond}


def never_null() -> dict:
    """A row holds 0 or 1 value of a column: "at least one value" is "no NULLs" (docs/shacl.md)."""
    return metric("null_count", {"type": "equal_to", "value": 0})


def values(cond: dict, exclude_nulls: bool = True) -> dict:
    return {"type": "field", "condition": cond, "exclude_nulls": exclude_nulls}


class PropertyMapper:
    """Converts the constraints of one property shape; every constraint ends in ``emit`` or in the report."""

    def __init__(self, graph: Graph, fs: FieldShape, config: ShaclConfig, report: ConversionReport,
                 emit: Emit, where: dict):
        self.g, self.fs, self.config, self.report, self.emit, self.where = graph, fs, config, report, emit, where
        self.field = fs.name

    # -- helpers -----------------------------------------------------------------------------------------------
    def text(self, pred, found: list[Found] | Found) -> str:
        items = found if isinstance(found, list) else [found]
        return ", ".join(f"{show(self.g, pred)} {self._value_text(f.value)}" + (
            f" (on {show(self.g, f.source)})" if f.source != self.fs.prop else "") for f in items)

    def _value_text(self, value) -> str:
        if isinstance(value, Literal) or isinstance(value, URIRef):
            return show(self.g, value)
        return "(" + " ".join(show(self.g, v) for v in Collection(self.g, value)) + ")"

    def skip(self, pred, found, reason: str) -> None:
        self.report.skipped(self.text(pred, found), reason, **self.where)

    def enabled(self, pred, found: list[Found], text: str | None = None) -> bool:
        group = GROUPS[pred]
        if self.config.flag_for(group):
            return True
        text = text or self.text(pred, found)
        if not self.config.create_assertions:
            reason = "create_assertions is off (the default): nothing is converted"
        elif group == "datatypes":
            reason = ("sh:datatype is schema information, not converted by default (seed 001, limitation 2); "
                      "set assertion_types.datatypes to get a schema assertion")
        else:
            reason = f"assertion_types.{group} is off"
        self.report.skipped(text, reason, **self.where)
        return False

    def strictest(self, pred, found: list[Found], parse, pick) -> tuple[object, list[Found]] | None:
        """Parse every value; the strictest one (pick=max for lower bounds, min for upper bounds) applies."""
        good: list[tuple[object, Found]] = []
        for f in found:
            try:
                good.append((parse(f.value), f))
            except BadValue as exc:
                self.skip(pred, f, str(exc))
        if not good:
            return None
        best = pick(v for v, _ in good)
        if len({v for v, _ in good}) > 1:
            self.report.note(self.text(pred, [f for _, f in good]), f"all of these apply (inline and sh:node "
                             f"shapes); the strictest, {best}, is checked", **self.where)
        return best, [f for v, f in good if v == best][:1]

    # -- the rules ---------------------------------------------------------------------------------------------
    def run(self) -> None:
        seen = set()
        for source in self.fs.sources:
            for pred in self.g.predicates(source, None):
                if pred in seen:
                    continue
                seen.add(pred)
                found = self.fs.values(self.g, pred)
                if pred in GROUPS or pred in NOT_CONSTRAINTS or pred == RDF.type:
                    continue
                if pred in UNSUPPORTED:
                    self.skip(pred, found, UNSUPPORTED[pred])
                elif str(pred).startswith(str(SH)):
                    self.skip(pred, found, "not a constraint this converter knows")
        self.cardinality()
        self.lengths()
        self.bounds()
        self.patterns()
        self.enumerations()
        self.datatypes()

    def cardinality(self) -> None:
        mins, maxs = self.fs.values(self.g, SH.minCount), self.fs.values(self.g, SH.maxCount)
        every = ", ".join(t for t in (mins and self.text(SH.minCount, mins), maxs and self.text(SH.maxCount, maxs)) if t)
        if not (mins or maxs) or not self.enabled(SH.minCount, mins + maxs, every):
            return
        lo = self.strictest(SH.minCount, mins, as_count, max) if mins else None
        hi = self.strictest(SH.maxCount, maxs, as_count, min) if maxs else None
        n, lo_src = lo if lo else (None, [])
        m, hi_src = hi if hi else (None, [])
        text = ", ".join(self.text(p, f) for p, f in ((SH.minCount, lo_src), (SH.maxCount, hi_src)) if f)
        if not text:
            return  # every value was unusable, and reported as such by strictest()
        f = self.field
        if n and m is not None and n > m:
            self.report.skipped(text, f"minCount {n} with maxCount {m} can never hold: fix the shape", **self.where)
            return
        if m == 0:
            self.emit("absent", values({"type": "is_null"}, exclude_nulls=False), text,
                      {"assertion_type": "FIELD_VALUES", "operator": "NULL", "parameters": {"maxCount": 0}},
                      f"Field {f} must have no value (sh:maxCount 0)")
            return
        if not n:
            why = "minCount 0: the field is optional (seed 001, limitation 3)" if n == 0 else "no sh:minCount"
            tail = f"; maxCount {m} always holds for a column (one value per row)" if m else ""
            self.report.skipped(text, why + tail + ": nothing to check", **self.where)
            return
        if n > 1:
            self.report.note(text, f"minCount {n}: a table column holds at most one value per row, so the check "
                             "is that the value is present", **self.where)
        if m == 1:
            self.emit("not_null", never_null(), text, {"assertion_type": "FIELD_METRIC", "operator": "NOT_NULL",
                      "parameters": {"minCount": n, "maxCount": m}}, f"Field {f} is required")
            return
        self.emit("required", never_null(), text, {"assertion_type": "FIELD_METRIC", "operator": "GREATER_THAN_OR_EQUAL",
                  "parameters": {"minCount": n}}, f"Field {f} requires at least {n} value(s)")
        if m is not None:
            self.emit("cardinality", never_null(), text, {"assertion_type": "FIELD_METRIC", "operator": "BETWEEN",
                      "parameters": {"minCount": n, "maxCount": m}},
                      f"Field {f} allows {n} to {m} values (a column holds one value per row: it must be present)")

    def lengths(self) -> None:
        for pred, suffix, pick in ((SH.minLength, "min_length", max), (SH.maxLength, "max_length", min)):
            found = self.fs.values(self.g, pred)
            if not found or not self.enabled(pred, found):
                continue
            best = self.strictest(pred, found, as_count, pick)
            if best is None:
                continue
            n, src = best
            if pred == SH.minLength:
                if n == 0:
                    self.skip(pred, src, "minLength 0 always holds: nothing to check")
                    continue
                cond, op, desc = "greater_than_or_equal_to", "GREATER_THAN_OR_EQUAL", "minimum"
            else:
                cond, op, desc = "less_than_or_equal_to", "LESS_THAN_OR_EQUAL", "maximum"
            body = {"type": "field", "field_transform": "length", "condition": {"type": cond, "value": n},
                    "exclude_nulls": True}
            param = "minLength" if pred == SH.minLength else "maxLength"
            self.emit(suffix, body, self.text(pred, src), {"assertion_type": "FIELD_VALUES", "operator": op,
                      "parameters": {param: n}}, f"Field {self.field} {desc} length: {n}")

    def patterns(self) -> None:
        found = self.fs.values(self.g, SH.pattern)
        if not found or not self.enabled(SH.pattern, found):
            return
        for i, f in enumerate(dict((str(x.value), x) for x in found).values()):
            flags = self.g.value(f.source, SH.flags)
            regex, problem = to_java_regex(str(f.value), str(flags) if flags is not None else "")
            text = self.text(SH.pattern, f) + (f", sh:flags {show(self.g, flags)}" if flags is not None else "")
            if problem:
                self.report.skipped(text, problem, **self.where)
                continue
            self.emit("pattern" if i == 0 else f"pattern_{i + 1}", values({"type": "matches_regex", "value": regex}),
                      text, {"assertion_type": "FIELD_VALUES", "operator": "MATCHES",
                             "parameters": {"pattern": str(f.value)}},
                      f"Field {self.field} must match pattern: {f.value}")

    def bounds(self) -> None:
        rules = ((SH.minInclusive, "min_value", "min", "greater_than_or_equal_to", "GREATER_THAN_OR_EQUAL", max, "minValue", "minimum value"),
                 (SH.maxInclusive, "max_value", "max", "less_than_or_equal_to", "LESS_THAN_OR_EQUAL", min, "maxValue", "maximum value"),
                 (SH.minExclusive, "min_exclusive", "min", "greater_than", "GREATER_THAN", max, "minExclusive", "values greater than"),
                 (SH.maxExclusive, "max_exclusive", "max", "less_than", "LESS_THAN", min, "maxExclusive", "values less than"))
        for pred, suffix, stat, cond, op, pick, param, words in rules:
            found = self.fs.values(self.g, pred)
            if not found or not self.enabled(pred, found):
                continue
            best = self.strictest(pred, found, as_number, pick)
            if best is None:
                continue
            v, src = best
            self.emit(suffix, metric(stat, {"type": cond, "value": v}), self.text(pred, src),
                      {"assertion_type": "FIELD_METRIC", "operator": op, "parameters": {param: v}},
                      f"Field {self.field} {words}: {v}")

    def enumerations(self) -> None:
        found = self.fs.values(self.g, SH["in"])
        if found and self.enabled(SH["in"], found):
            allowed = None
            for f in found:
                try:
                    members = [as_scalar(v) for v in Collection(self.g, f.value)]
                except BadValue as exc:
                    self.skip(SH["in"], f, str(exc))
                    continue
                allowed = members if allowed is None else [v for v in allowed if v in members]
            if allowed is not None:
                if len(found) > 1:
                    self.report.note(self.text(SH["in"], found), "several sh:in lists apply: their intersection "
                                     "is checked", **self.where)
                if not allowed:
                    self.skip(SH["in"], found, "the allowed values are empty: no value can ever conform; fix the shape")
                else:
                    self.emit("in", values({"type": "in", "value": allowed}), self.text(SH["in"], found),
                              {"assertion_type": "FIELD_VALUES", "operator": "IN", "parameters": {"in": allowed}},
                              f"Field {self.field} must be one of {allowed}")
        found = self.fs.values(self.g, SH.hasValue)
        if found and self.enabled(SH.hasValue, found):
            for i, f in enumerate(found):
                try:
                    v = as_scalar(f.value)
                except BadValue as exc:
                    self.skip(SH.hasValue, f, str(exc))
                    continue
                self.emit("has_value" if i == 0 else f"has_value_{i + 1}",
                          values({"type": "equal_to", "value": v}, exclude_nulls=False), self.text(SH.hasValue, f),
                          {"assertion_type": "FIELD_VALUES", "operator": "EQUAL_TO", "parameters": {"hasValue": v}},
                          f"Field {self.field} must have the value {v}")

    def datatypes(self) -> None:
        found = self.fs.values(self.g, SH.datatype)
        if not found or not self.enabled(SH.datatype, found):
            return
        for i, f in enumerate(found):
            kind = XSD_TYPES.get(f.value)
            if kind is None:
                self.skip(SH.datatype, f, "no schema type of the spec corresponds to this datatype")
                continue
            body = {"type": "schema", "condition": {"type": "contains", "columns": [{"name": self.field, "type": kind}]}}
            self.emit("datatype" if i == 0 else f"datatype_{i + 1}", body, self.text(SH.datatype, f),
                      {"assertion_type": "SCHEMA", "operator": "CONTAINS", "parameters": {"datatype": str(f.value)}},
                      f"Field {self.field} has type {kind} ({show(self.g, f.value)})")


def to_java_regex(pattern: str, flags: str) -> tuple[str, str | None]:
    """sh:pattern is a search (XPath ``fn:matches``), the engine matches whole values: wrap unless anchored."""
    unknown = set(flags) - _JAVA_FLAGS - {"q"}
    if unknown:
        return "", f"sh:flags {''.join(sorted(unknown))!r} not supported (use i, m, s, x, q)"
    if "q" in flags:
        pattern = re.escape(pattern)
    try:
        re.compile(pattern)
    except re.error as exc:
        return "", f"invalid regular expression: {exc}"
    inline = "".join(sorted(set(flags) & _JAVA_FLAGS))
    anchored = pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$") and "|" not in pattern
    core = f"(?{inline}:{pattern})" if inline else pattern
    return (core if anchored else f"(?s:.*)(?:{core})(?s:.*)"), None
