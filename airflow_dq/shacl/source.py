"""A shapes file given as a spec, with its conversion config (light: no rdflib until it is converted)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from airflow_dq.shacl.config import ShaclConfig


@dataclass(frozen=True)
class ShaclShapes:
    """A shapes file as a spec: ``DataQualityOperator(spec=ShaclShapes("contract.ttl", config={...}))``.

    Without a config the conversion is switched on with the seed's defaults (giving a shapes file as the spec is the
    opt-in); a config dict is seed 001's context (``create_assertions``, ``assertion_types``, ...).
    """

    path: str | os.PathLike | tuple  # several files are read into one graph
    format: str | None = None
    config: Mapping[str, Any] | ShaclConfig | None = field(default=None, hash=False)

    def resolved_config(self) -> ShaclConfig:
        if isinstance(self.config, ShaclConfig):
            return self.config
        if self.config is None:
            return ShaclConfig.enabled()
        return ShaclConfig.from_context(self.config, where=f"{self.label} (config)")

    @property
    def label(self) -> str:
        paths = self.path if isinstance(self.path, (list, tuple)) else [self.path]
        return ", ".join(os.fspath(p) for p in paths)
