"""Custom SQL assertions: a query returning one value, compared with a metric condition.

The query runs on its own (one Spark query per assertion) and can read every dataset of the run under the view
names from ``views.view_names`` (docs/semantics.md) plus any catalog table. Only queries are accepted: a statement that is a command
(DROP, INSERT, SET, ...) is refused before Spark runs it.
"""

from __future__ import annotations

import re

from airflow_dq.core.assertions import Assertion
from airflow_dq.core.conditions import NotComparable, evaluate_metric
from airflow_dq.engine.context import Dataset, Outcome
from airflow_dq.engine.errors import NotEvaluable

_QUERY_START = re.compile(r"^\s*(\(\s*)*(SELECT|WITH|VALUES|FROM|TABLE)\b", re.IGNORECASE)
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)


def _spark_message(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.split("\n\n")[0][:1500] if text else type(exc).__name__


def _parse(ds: Dataset, statement: str) -> None:
    """Parse with Spark's own SQL parser (nothing runs); refuse anything that is not a query."""
    try:
        ds.spark._jsparkSession.sessionState().sqlParser().parsePlan(statement)
    except Exception as exc:
        raise NotEvaluable(f"the SQL statement does not parse: {_spark_message(exc)}") from None
    if not _QUERY_START.match(_COMMENTS.sub(" ", statement)):
        raise NotEvaluable("the SQL statement must be a query (SELECT, WITH, VALUES, FROM or TABLE), "
                           "not a command")


def prepare(a: Assertion, ds: Dataset) -> Outcome:
    statement = (a.params.get("statement") or "").strip().rstrip(";").strip()
    if not statement:
        raise NotEvaluable("the SQL assertion has no statement")
    _parse(ds, statement)
    expected = a.condition.describe()
    try:
        frame = ds.spark.sql(statement)
        columns = frame.columns
        if len(columns) != 1:
            raise NotEvaluable(f"the SQL statement must return a single value, but it returns {len(columns)} "
                               f"columns ({', '.join(columns)})")
        rows = frame.limit(2).collect()
    except NotEvaluable:
        raise
    except Exception as exc:
        raise NotEvaluable(f"Spark could not run the SQL statement: {_spark_message(exc)}") from None
    if not rows:
        raise NotEvaluable("the SQL statement returned no row; it must return exactly one row with one value")
    if len(rows) > 1:
        raise NotEvaluable("the SQL statement returned several rows; it must return exactly one row with one value")
    value = rows[0][0]
    details = {"statement": statement, "column": columns[0], "value_type": frame.schema.fields[0].dataType.simpleString()}
    try:
        ok = evaluate_metric(a.condition, value)
    except NotComparable as exc:
        return Outcome("error", actual=value, expected=expected, message=f"SQL result: {exc}", details=details)
    return Outcome("pass" if ok else "fail", actual=value, expected=expected, details=details)

