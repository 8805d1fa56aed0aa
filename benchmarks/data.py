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


def tpchgen_available() -> bool:
    return bool(shutil.which("tpchgen-cli")) or os.path.exists(os.path.join(os.path.dirname(sys.executable),
                                                                            "tpchgen-cli"))


def synthetic_lineitem(rows: int, path: Path, seed: int = 9) -> str:
    """A lineitem-shaped Parquet file (same columns, types and value domains) for smoke tests without tpchgen-cli.

    Not TPC-H data: only for checking that the benchmark runs; measurements always use tpchgen-cli's data.
    """
    import datetime as dt
    import random
    from decimal import Decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    rnd = random.Random(seed)
    dec = pa.decimal128(15, 2)
    words = ["carefully", "quickly", "final", "pending", "ironic", "regular", "deposits", "accounts", "slyly"]
    day0 = dt.date(1992, 1, 2)
    ship = [day0 + dt.timedelta(days=rnd.randrange(2500)) for _ in range(rows)]
    quantity = [rnd.randint(1, 50) for _ in range(rows)]
    table = pa.table({
        "l_orderkey": pa.array([i // 4 + 1 for i in range(rows)], pa.int64()),
        "l_partkey": pa.array([rnd.randint(1, 20000) for _ in range(rows)], pa.int64()),
        "l_suppkey": pa.array([rnd.randint(1, 1000) for _ in range(rows)], pa.int64()),
        "l_linenumber": pa.array([i % 4 + 1 for i in range(rows)], pa.int32()),
        "l_quantity": pa.array([Decimal(q) for q in quantity], dec),
        "l_extendedprice": pa.array([Decimal(q * rnd.randint(900, 1900)) for q in quantity], dec),
        "l_discount": pa.array([Decimal(rnd.randint(0, 10)) / 100 for _ in range(rows)], dec),
        "l_tax": pa.array([Decimal(rnd.randint(0, 8)) / 100 for _ in range(rows)], dec),
        "l_returnflag": [rnd.choice("ANR") for _ in range(rows)],
        "l_linestatus": [rnd.choice("FO") for _ in range(rows)],
        "l_shipdate": ship,
        "l_commitdate": [d + dt.timedelta(days=rnd.randint(-30, 30)) for d in ship],
        "l_receiptdate": [d + dt.timedelta(days=rnd.randint(1, 30)) for d in ship],
        "l_shipinstruct": [rnd.choice(["COLLECT COD", "DELIVER IN PERSON", "NONE", "TAKE BACK RETURN"])
                           for _ in range(rows)],
        "l_shipmode": [("AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK")[i % 7] for i in range(rows)],
        "l_comment": [(" " if rnd.random() < 0.13 else "") + " ".join(rnd.sample(words, 3)) for _ in range(rows)],
    })
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=max(1, rows // 4))
    return str(path)
