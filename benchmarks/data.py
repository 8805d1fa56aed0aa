"""TPC-H ``lineitem`` as Parquet, generated with tpchgen-cli (cached per scale factor)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def _tpchgen() -> str:
    found = shutil.which("tpchgen-cli") or os.path.join(os.path.dirname(sys.executable), "tpchgen-cli")
    if not os.path.exists(found):
        raise SystemExit("tpchgen-cli is not installed: pip install -e '.[bench]' (or tpchgen-cli==4.0.0)")
    return found


def lineitem(scale: float, data_dir: Path) -> str:
    """Path of ``lineitem.parquet`` at ``scale``; generated on first use (SF 0.1: ~2 s, 600k rows, 20 MB)."""
    target = Path(data_dir) / f"sf{scale:g}"
    path = target / "lineitem.parquet"
    if path.exists():
        return str(path)
    tmp = Path(data_dir) / f".sf{scale:g}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    subprocess.run([_tpchgen(), "parquet", "-s", f"{scale:g}", "--tables=lineitem", "--output-dir", str(tmp)],
                   check=True, stdout=subprocess.DEVNULL)
    if not (tmp / "lineitem.parquet").exists():
        raise SystemExit(f"tpchgen-cli wrote no lineitem.parquet into {tmp}")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp, target)
    return str(path)
