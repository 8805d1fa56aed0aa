"""Errors that say what is wrong and where: file, line and field path."""

from __future__ import annotations


class SpecError(ValueError):
    def __init__(self, message: str, file: str | None = None, line: int | None = None, field: str | None = None):
        self.message, self.file, self.line, self.field = message, file, line, field
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.file or ("<spec>" if self.line is not None else "")
        if self.line is not None:
            where += f":{self.line}"
        if self.field:
            where += f": {self.field}" if where else self.field
        return f"{where}: {self.message}" if where else self.message


class SpecErrors(SpecError):
    """Several problems found in one document; each keeps its own place."""

    def __init__(self, errors: list[SpecError]):
        self.errors = errors
        first = errors[0]
        super().__init__(first.message, first.file, first.line, first.field)

    def __str__(self) -> str:
        return "\n".join(SpecError.__str__(e) for e in self.errors)
