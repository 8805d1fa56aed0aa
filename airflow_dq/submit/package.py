"""Build the zip shipped with ``--py-files`` (airflow_dq core + engine only) and the launcher script."""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import airflow_dq

PACKAGE_ROOT = Path(airflow_dq.__file__).parent
# Only these parts of the package go to the Spark driver; they must not import Airflow, pydantic or yaml.
SHIPPED = ("__init__.py", "core", "engine")

LAUNCHER = '''"""airflow-dq validation job launcher (generated)."""
import sys

from airflow_dq.engine.job import main

sys.exit(main())
'''


@dataclass(frozen=True)
class EnginePackage:
    zip_path: str
    launcher_path: str
    digest: str


def _files() -> list[tuple[Path, str]]:
    out = []
    for entry in SHIPPED:
        path = PACKAGE_ROOT / entry
        if path.is_file():
            out.append((path, f"airflow_dq/{entry}"))
            continue
        for f in sorted(path.rglob("*.py")):
            out.append((f, "airflow_dq/" + f.relative_to(PACKAGE_ROOT).as_posix()))
    return out


def build_engine_package(directory: str | os.PathLike | None = None) -> EnginePackage:
    """Zip the engine into ``directory`` (default: a per-user cache dir), reusing a zip with the same content."""
    files = _files()
    h = hashlib.sha256()
    for path, arc in files:
        h.update(arc.encode())
        h.update(path.read_bytes())
    digest = h.hexdigest()[:16]
    base = Path(directory or Path(tempfile.gettempdir()) / f"airflow-dq-engine-{os.getuid()}")
    base.mkdir(parents=True, exist_ok=True)
    zip_path = base / f"airflow_dq_engine-{airflow_dq.__version__}-{digest}.zip"
    launcher = base / "airflow_dq_job.py"
    if not zip_path.exists():
        fd, tmp = tempfile.mkstemp(dir=base, suffix=".zip")
        os.close(fd)
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for path, arc in files:
                zf.write(path, arc)
        os.replace(tmp, zip_path)
    if not launcher.exists() or launcher.read_text() != LAUNCHER:
        fd, tmp = tempfile.mkstemp(dir=base, suffix=".py")
        with os.fdopen(fd, "w") as fh:
            fh.write(LAUNCHER)
        os.replace(tmp, launcher)
    return EnginePackage(zip_path=str(zip_path), launcher_path=str(launcher), digest=digest)
