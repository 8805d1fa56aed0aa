"""Where an assertion's entity lives for Spark: a catalog table or a path plus format."""

from __future__ import annotations

from dataclasses import dataclass, field

PATH_FORMATS = ("parquet", "csv", "json", "orc", "delta", "text", "avro")


@dataclass(frozen=True)
class Source:
    entity: str
    kind: str  # "path" | "table"
    path: str | None = None
    format: str | None = None
    table: str | None = None
    options: dict = field(default_factory=dict)

    def describe(self) -> str:
        if self.kind == "table":
            return f"table {self.table}"
        return f"{self.format} at {self.path}"

    def to_dict(self) -> dict:
        return {"entity": self.entity, "kind": self.kind, "path": self.path, "format": self.format,
                "table": self.table, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: dict) -> "Source":
        return cls(entity=data["entity"], kind=data["kind"], path=data.get("path"), format=data.get("format"),
                   table=data.get("table"), options=dict(data.get("options") or {}))
