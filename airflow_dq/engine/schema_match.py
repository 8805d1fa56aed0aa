"""Schema assertions: the dataset's columns and high-level types against an expected list. Reads no data."""

from __future__ import annotations

from airflow_dq.core.assertions import Assertion
from airflow_dq.engine.context import Dataset, Outcome
from airflow_dq.engine.errors import NotEvaluable
from airflow_dq.engine.type_map import matches, spec_type


def prepare(a: Assertion, ds: Dataset) -> Outcome:
    match = a.params.get("match")
    expected = a.params.get("columns") or []
    if match not in ("exact_match", "contains") or not expected:
        raise NotEvaluable(f"schema assertion needs match exact_match|contains and columns, got {match!r}")
    # Column names compare case-insensitively, as Spark resolves them (spark.sql.caseSensitive=false).
    actual = {f.name.lower(): f for f in ds.schema.fields}
    wanted = {c["name"].lower(): c for c in expected}
    missing = [c["name"] for c in expected if c["name"].lower() not in actual]
    extra = [f.name for f in ds.schema.fields if f.name.lower() not in wanted]
    mistyped = []
    for c in expected:
        f = actual.get(c["name"].lower())
        if f is not None and not matches(c["type"], f.dataType):
            mistyped.append({"column": f.name, "expected": c.get("declared_type") or c["type"],
                             "expected_type": c["type"], "actual": spec_type(f.dataType),
                             "spark_type": f.dataType.simpleString()})
    problems = []
    if missing:
        problems.append("missing columns: " + ", ".join(missing))
    if match == "exact_match" and extra:
        problems.append("extra columns: " + ", ".join(extra))
    if mistyped:
        problems.append("mistyped columns: " + ", ".join(
            f"{m['column']} (expected {m['expected']}, found {m['actual']} [{m['spark_type']}])" for m in mistyped))
    details = {
        "match": match,
        "missing": missing,
        "extra": extra,
        "mistyped": mistyped,
        "actual_columns": [{"name": f.name, "type": spec_type(f.dataType), "spark_type": f.dataType.simpleString()}
                           for f in ds.schema.fields],
    }
    description = f"{match} of {len(expected)} columns"
    if problems:
        return Outcome("fail", actual=f"{len(problems)} problem(s)", expected=description,
                       message="; ".join(problems), details=details)
    return Outcome("pass", actual="schema matches", expected=description, details=details)
