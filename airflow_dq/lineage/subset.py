"""SQL filters and partitions → OpenLineage subset conditions (InputSubsetInputDatasetFacet).

Only what the facet can say *exactly* is translated: comparisons (``=``, ``==``, ``>``, ``>=``, ``<``, ``<=``)
between a column and a literal (or two columns), combined with ``AND`` / ``OR`` and parentheses. Anything else
(``!=``, ``NOT``, ``IN``, ``BETWEEN``, ``IS NULL``, ``LIKE``, functions, arithmetic, ...) makes the whole filter
unrepresentable, and :func:`filter_condition` returns ``None`` — a missing subset facet is honest, a wrong one is not.

Lexing is sqlparse's (string literals with doubled quotes, backtick identifiers, numbers, keywords); the grammar on
top is ``expr := conj (OR conj)*``, ``conj := atom (AND atom)*``, ``atom := '(' expr ')' | operand op operand``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

import attr
import sqlparse
from openlineage.client.generated.base_subset_dataset import (
    BinarySubsetCondition,
    CompareSubsetCondition,
    FieldBaseCompareExpression,
    InputSubsetInputDatasetFacet,
    LiteralCompareExpression,
    Partition,
    PartitionSubsetCondition,
)
from sqlparse import tokens as T

COMPARISONS = {
    "=": "EQUAL",
    "==": "EQUAL",
    ">": "GREATER_THAN",
    ">=": "GREATER_EQUAL_THAN",
    "<": "LESS_THAN",
    "<=": "LESS_EQUAL_THAN",
}
# Keywords that can never be a column reference in an operand position.
_NOT_A_FIELD = {"NULL", "NOT", "AND", "OR", "IS", "IN", "BETWEEN", "LIKE", "ILIKE", "RLIKE", "REGEXP", "EXISTS",
                "CASE", "WHEN", "THEN", "ELSE", "END", "SELECT", "FROM", "WHERE", "INTERVAL", "ANY", "ALL", "SOME"}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TYPED_LITERALS = {"DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ"}


class NotRepresentable(ValueError):
    """The filter uses something a subset condition cannot express exactly."""


def _unquote(text: str, quote: str) -> str:
    return text[1:-1].replace(quote * 2, quote)


class _Parser:
    def __init__(self, sql: str):
        statements = [s for s in sqlparse.parse(sql) if str(s).strip()]
        if len(statements) != 1:
            raise NotRepresentable("not a single expression")
        self.tokens = [t for t in statements[0].flatten() if not t.is_whitespace and t.ttype not in T.Comment]
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        tok = self.peek()
        if tok is None:
            raise NotRepresentable("unexpected end of the filter")
        self.pos += 1
        return tok

    def keyword(self, word: str) -> bool:
        tok = self.peek()
        if tok is not None and tok.ttype in T.Keyword and tok.value.upper() == word:
            self.pos += 1
            return True
        return False

    def parse(self):
        cond = self.expr()
        if self.peek() is not None:
            raise NotRepresentable(f"unexpected {self.peek().value!r}")
        return cond

    def expr(self):
        cond = self.conj()
        while self.keyword("OR"):
            cond = BinarySubsetCondition(left=cond, right=self.conj(), operator="OR")
        return cond

    def conj(self):
        cond = self.atom()
        while self.keyword("AND"):
            cond = BinarySubsetCondition(left=cond, right=self.atom(), operator="AND")
        return cond

    def atom(self):
        tok = self.peek()
        if tok is not None and tok.ttype in T.Punctuation and tok.value == "(":
            self.take()
            cond = self.expr()
            close = self.take()
            if not (close.ttype in T.Punctuation and close.value == ")"):
                raise NotRepresentable(f"expected ')' but found {close.value!r}")
            return cond
        left = self.operand()
        op = self.take()
        if op.ttype not in T.Operator.Comparison or op.value not in COMPARISONS:
            raise NotRepresentable(f"operator {op.value!r} has no subset equivalent")
        right = self.operand()
        if isinstance(left, LiteralCompareExpression) and isinstance(right, LiteralCompareExpression):
            raise NotRepresentable("a comparison of two literals")
        return CompareSubsetCondition(left=left, right=right, comparison=COMPARISONS[op.value])

    def operand(self):
        tok = self.take()
        tt, value = tok.ttype, tok.value
        if tt in T.Literal.String.Single:
            return LiteralCompareExpression(value=_unquote(value, "'"))
        if tt in T.Literal.String.Symbol and value.startswith('"'):  # a string literal in Spark SQL
            return LiteralCompareExpression(value=_unquote(value, '"'))
        if tt in T.Literal.Number:
            return LiteralCompareExpression(value=value)
        if tt in T.Name.Builtin and value.upper() in _TYPED_LITERALS:
            nxt = self.peek()
            if nxt is not None and nxt.ttype in T.Literal.String.Single:
                self.take()
                return LiteralCompareExpression(value=_unquote(nxt.value, "'"))
        if tt in T.Keyword and value.upper() in ("TRUE", "FALSE"):
            return LiteralCompareExpression(value=value.lower())
        if tt in T.Name or tt in T.Keyword:
            if value.upper() in _NOT_A_FIELD:
                raise NotRepresentable(f"{value!r} is not a column")
            parts = [self._name(tok)]
            while self._dot():
                parts.append(self._name(self.take()))
            nxt = self.peek()
            if nxt is not None and nxt.ttype in T.Punctuation and nxt.value == "(":
                raise NotRepresentable(f"function call {value}(...)")
            return FieldBaseCompareExpression(field=".".join(parts))
        raise NotRepresentable(f"{value!r} is not a column or a literal")

    def _dot(self) -> bool:
        tok = self.peek()
        if tok is not None and tok.ttype in T.Punctuation and tok.value == ".":
            self.pos += 1
            return True
        return False

    @staticmethod
    def _name(tok) -> str:
        if not (tok.ttype in T.Name or tok.ttype in T.Keyword):
            raise NotRepresentable(f"{tok.value!r} is not a column name")
        value = tok.value
        if value.startswith("`") and value.endswith("`") and len(value) >= 2:
            return _unquote(value, "`")
        if value.upper() in _NOT_A_FIELD or not _IDENTIFIER.match(value):  # e.g. 1L, 2.5BD: typed literals
            raise NotRepresentable(f"{value!r} is not a column")
        return value


def parse_filter(sql: str):
    """The subset condition equivalent to a SQL boolean filter. Raises NotRepresentable."""
    if not sql or not sql.strip():
        raise NotRepresentable("empty filter")
    return _Parser(sql).parse()


def filter_condition(sql: str | None):
    """Like :func:`parse_filter`, but ``None`` for a filter that cannot be represented exactly."""
    if not sql:
        return None
    try:
        return parse_filter(sql)
    except NotRepresentable:
        return None


def partition_condition(dimensions: Mapping[str, Any], identifier: str | None = None) -> PartitionSubsetCondition:
    return PartitionSubsetCondition(partitions=[Partition(dimensions=dict(dimensions), identifier=identifier)])


def combine(conditions: list, operator: str):
    """Left-nested Binary conditions joining ``conditions`` with ``operator``; None for an empty list."""
    result = None
    for cond in conditions:
        result = cond if result is None else BinarySubsetCondition(left=result, right=cond, operator=operator)
    return result


def _conjuncts(cond) -> list:
    if isinstance(cond, BinarySubsetCondition) and cond.operator == "AND":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _key(cond) -> str:
    return json.dumps(attr.asdict(cond), sort_keys=True)


def validated_scope(filters: list[str | None]) -> tuple[bool, list[tuple[str, Any]]]:
    """The rows a set of assertions looked at: the union of their scopes.

    Returns (known, [(filter, condition), ...]): an empty list means all rows (some assertion is unfiltered);
    known is False when a filter cannot be represented. Filters implied by a broader one are absorbed
    (``(a = 1) AND (d = 2)`` ∪ ``(d = 2)`` is ``d = 2``), so an entity-wide filter ANDed into every assertion
    stays one condition.
    """
    if not filters or any(not f for f in filters):
        return True, []
    parsed = []
    for sql in dict.fromkeys(f.strip() for f in filters):
        cond = filter_condition(sql)
        if cond is None:
            return False, []
        parsed.append((sql, cond, {_key(c) for c in _conjuncts(cond)}))
    kept = []
    for i, (sql, cond, keys) in enumerate(parsed):
        absorbed = any(other <= keys and (other != keys or j < i) for j, (_, _, other) in enumerate(parsed) if j != i)
        if not absorbed:
            kept.append((sql, cond))
    return True, kept


def dataset_subset(filters: list[str | None], partition=None) -> InputSubsetInputDatasetFacet | None:
    """The subset of a dataset that a task validated, or None when it validated all of it or cannot say exactly.

    ``filters`` holds one entry per assertion on the dataset (``None`` for an assertion without a filter). The rows
    validated are the union of the assertions' scopes (see :func:`validated_scope`), within the partition if the
    source named one. An unrepresentable filter means no facet at all: not even the partition alone, which would
    claim more rows than were validated.
    """
    known, kept = validated_scope(filters)
    if not known:
        return None
    scope = combine([cond for _, cond in kept], "OR")
    cond = combine([c for c in (partition, scope) if c is not None], "AND")
    return InputSubsetInputDatasetFacet(inputCondition=cond) if cond is not None else None
