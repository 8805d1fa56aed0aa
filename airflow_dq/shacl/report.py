"""The conversion report: every constraint found, and what became of it (converted, or skipped and why)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class Entry:
    status: str  # "converted" | "skipped" | "note"
    constraint: str  # e.g. "sh:minLength 3", or "sh:NodeShape ex:Orphan"
    reason: str = ""
    dataset: str | None = None  # the dataset URN, when one is known
    shape: str | None = None  # where the constraint was declared
    field: str | None = None
    key: str | None = None  # the assertion key (its spec `name`) for converted entries


@dataclass
class ConversionReport:
    source: str = "<shapes>"
    entries: list[Entry] = field(default_factory=list)

    def converted(self, constraint: str, key: str, **where) -> None:
        self.entries.append(Entry("converted", constraint, key=key, **where))

    def skipped(self, constraint: str, reason: str, **where) -> None:
        self.entries.append(Entry("skipped", constraint, reason=reason, **where))

    def note(self, constraint: str, reason: str, **where) -> None:
        self.entries.append(Entry("note", constraint, reason=reason, **where))

    def by_status(self, status: str) -> list[Entry]:
        return [e for e in self.entries if e.status == status]

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.by_status("converted")]

    def to_dict(self) -> dict:
        return {"source": self.source,
                "counts": {s: len(self.by_status(s)) for s in ("converted", "skipped", "note")},
                "entries": [asdict(e) for e in self.entries]}

    def to_text(self) -> str:
        conv, skip, notes = self.by_status("converted"), self.by_status("skipped"), self.by_status("note")
        lines = [f"SHACL conversion of {self.source}: {len(conv)} assertions, {len(skip)} constraints skipped, "
                 f"{len(notes)} notes"]
        for title, items in (("converted", conv), ("skipped", skip), ("notes", notes)):
            if not items:
                continue
            lines.append(f"\n{title}:")
            for e in items:
                where = " ".join(p for p in (e.dataset and f"dataset={e.dataset}", e.field and f"field={e.field}",
                                             e.shape and f"shape={e.shape}") if p)
                if e.status == "converted":
                    lines.append(f"  + {e.constraint} -> {e.key}")
                else:
                    lines.append(f"  - {e.constraint}: {e.reason}" + (f"  [{where}]" if where else ""))
        return "\n".join(lines)
