"""The benchmark command: engine vs the single-pass floor vs Great Expectations on TPC-H lineitem.

    benchmarks/run.sh [--scale 0.5] [--reps 5] [--legs all] [--results benchmarks/RESULTS.md]
    (= .venv/bin/python -m benchmarks.run ..., with scripts/env.sh sourced)

Per repetition, every leg runs once in a fresh process, in a rotated order (interleaving, so drifting machine load
hits every leg alike), all on the same data, the same ``--master`` and one shared spark-defaults.conf:
  floor       one hand-written df.agg computing exactly S30's metrics (benchmarks/floor.py)
  engine_S30  airflow-dq's engine in-process on S30 (run_plan, as the Spark job runs it)
  engine_S300 the same on S300
  cli_S30     ``airflow-dq run`` on S30: the whole CLI process (spec → plan → spark-submit → result document)
  gx          Great Expectations Core 1.x on S30, default result format (SUMMARY)
  gx_bool     the same with BOOLEAN_ONLY
GX legs are skipped (and say so) when great_expectations is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import report
from benchmarks.data import lineitem
from benchmarks.gx_suite import available as gx_available
from benchmarks.suites import ENTITY, spec_yaml

ROOT = Path(__file__).resolve().parent.parent
LEGS = ("floor", "engine_S30", "engine_S300", "cli_S30", "gx", "gx_bool")
SPARK_DEFAULTS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
}


def _conf_dir(work: Path) -> Path:
    conf = work / "spark-conf"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "spark-defaults.conf").write_text("".join(f"{k} {v}\n" for k, v in SPARK_DEFAULTS.items()))
    (conf / "log4j2.properties").write_text("rootLogger.level = error\nrootLogger.appenderRef.stdout.ref = console\n"
                                            "appender.console.type = Console\nappender.console.name = console\n"
                                            "appender.console.target = SYSTEM_ERR\n"
                                            "appender.console.layout.type = PatternLayout\n")
    return conf


def _run(cmd: list[str], env: dict, log: Path) -> tuple[int, float, float]:
    """(exit code, wall seconds, peak RSS in MiB of the largest process of the tree that was waited for)."""
    t = time.perf_counter()
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, wall, usage.ru_maxrss / 1024


def run_leg(leg: str, args, data: str, specs: dict, work: Path, env: dict, rep: int) -> dict:
    out = work / f"{leg}-{rep}.json"
    log = work / f"{leg}-{rep}.log"
    py = sys.executable
    if leg.startswith("cli_"):
        suite = leg.split("_", 1)[1]
        result = work / f"{leg}-{rep}.result.json"
        cmd = [py, "-m", "airflow_dq.cli", "run", str(specs[suite]), "--source", f"{ENTITY}={data}",
               "--master", args.master, "--out", str(result)]
        code, wall, rss = _run(cmd, env, log)
        info = {"leg": leg, "suite": suite, "exit_code": code, "process_s": wall, "peak_rss_mb": rss}
        if result.exists():
            doc = json.loads(result.read_text())
            ds = doc["datasets"][0]
            info.update({"validation_s": ds["duration_ms"] / 1000, "spark_jobs": ds.get("spark_jobs"),
                         "assertions": len(doc["results"]),
                         "passed": sum(r["status"] == "pass" for r in doc["results"])})
        return info
    base = [py, "-m", "benchmarks.leg"]
    if leg.startswith("engine_"):
        suite = leg.split("_", 1)[1]
        cmd = base + ["engine", "--suite", suite, "--spec", str(specs[suite]), "--distinct", args.distinct]
    else:
        cmd = base + [leg]
    cmd += ["--data", data, "--scale", str(args.scale), "--out", str(out), "--master", args.master]
    code, wall, rss = _run(cmd, env, log)
    info = json.loads(out.read_text()) if out.exists() else {"leg": leg}
    info.update({"leg": leg, "exit_code": code, "process_s": wall,
                 "peak_rss_mb": max(rss, info.get("jvm_peak_rss_mb") or 0)})
    if code != 0 and not out.exists():
        info["error"] = log.read_text(errors="replace")[-2000:]
    return info


def summarize(runs: list[dict]) -> dict:
    by_leg: dict[str, list[dict]] = {}
    for r in runs:
        by_leg.setdefault(r["leg"], []).append(r)
    out = {}
    for leg, rs in by_leg.items():
        ok = [r for r in rs if r.get("exit_code") in (0, None) and "validation_s" in r]
        med = lambda key: statistics.median([r[key] for r in ok if r.get(key) is not None]) if any(
            r.get(key) is not None for r in ok) else None
        out[leg] = {"n": len(ok), "failed_runs": len(rs) - len(ok), "validation_s": med("validation_s"),
                    "process_s": med("process_s"), "spark_jobs": med("spark_jobs"), "peak_rss_mb": med("peak_rss_mb"),
                    "jvm_heap_peak_mb": med("jvm_heap_peak_mb"), "overhead_s": med("overhead_s"),
                    "planning_s": med("planning_s"), "writing_s": med("writing_s"),
                    "engine_overhead_s": med("engine_overhead_s"), "gx_setup_s": med("gx_setup_s"),
                    "validation_all": [round(r["validation_s"], 3) for r in ok],
                    "process_all": [round(r["process_s"], 3) for r in ok],
                    "assertions": rs[0].get("assertions"), "passed": [r.get("passed") for r in rs]}
    return out


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="benchmarks.run", description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=0.5, help="TPC-H scale factor (0.5: ~3M rows)")
    p.add_argument("--reps", type=int, default=5, help="interleaved repetitions")
    p.add_argument("--legs", default="all", help=f"comma-separated subset of {','.join(LEGS)}")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--distinct", default="exact", choices=("exact", "approximate"))
    p.add_argument("--data-dir", default=str(ROOT / "benchmarks" / "data"), help="generated Parquet goes here")
    p.add_argument("--work", default=None, help="directory for logs and per-run JSON (default: a temp dir)")
    p.add_argument("--results", default=str(ROOT / "benchmarks" / "RESULTS.md"), help="Markdown report to write")
    p.add_argument("--json", default=None, help="also write the raw measurements here")
    args = p.parse_args(argv)

    legs = list(LEGS) if args.legs == "all" else [leg.strip() for leg in args.legs.split(",") if leg.strip()]
    unknown = set(legs) - set(LEGS)
    if unknown:
        p.error(f"unknown legs: {', '.join(sorted(unknown))}")
    notes = []
    gx_version = gx_available()
    if gx_version is None and any(leg.startswith("gx") for leg in legs):
        legs = [leg for leg in legs if not leg.startswith("gx")]
        notes.append("great_expectations is not installed: the GX legs were skipped "
                     "(pip install -e '.[bench]' to include them)")
        print("benchmarks: " + notes[-1], file=sys.stderr)

    import tempfile

    work = Path(args.work or tempfile.mkdtemp(prefix="airflow-dq-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    data = lineitem(args.scale, Path(args.data_dir))
    gen_s = time.perf_counter() - t
    specs = {}
    for suite in ("S30", "S300"):
        specs[suite] = work / f"{suite}.yml"
        specs[suite].write_text(spec_yaml(suite, args.scale))
    env = {**os.environ, "SPARK_CONF_DIR": str(_conf_dir(work)), "PYTHONPATH": str(ROOT)}
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    loads = [_load()]
    runs = []
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    for rep in range(args.reps):
        order = legs[rep % len(legs):] + legs[:rep % len(legs)]
        for leg in order:
            info = run_leg(leg, args, data, specs, work, env, rep)
            info["rep"] = rep
            runs.append(info)
            print(f"benchmarks: rep {rep} {leg:12s} validation {info.get('validation_s', float('nan')):7.2f}s "
                  f"process {info['process_s']:6.2f}s jobs {info.get('spark_jobs')} "
                  f"passed {info.get('passed')}/{info.get('assertions')} exit {info.get('exit_code')}",
                  file=sys.stderr, flush=True)
        loads.append(_load())
    finished = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    summary = summarize(runs)
    meta = {
        "command": "benchmarks/run.sh " + " ".join(argv if argv is not None else sys.argv[1:]),
        "scale": args.scale, "reps": args.reps, "master": args.master, "distinct": args.distinct,
        "data": data, "rows": _rows(data), "generate_s": round(gen_s, 2), "started": started, "finished": finished,
        "loads": loads, "cpus": os.cpu_count(), "machine": platform.platform(),
        "memory_gib": _mem_gib(), "python": platform.python_version(), "versions": _versions(gx_version),
        "spark_defaults": SPARK_DEFAULTS, "notes": notes, "legs": legs,
    }
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "summary": summary, "runs": runs}, indent=1, default=str))
    Path(args.results).write_text(report.render(meta, summary))
    print(f"benchmarks: wrote {args.results} (work dir {work})", file=sys.stderr)
    bad = [r for r in runs if r.get("exit_code") not in (0, None)]
    return 1 if bad else 0


def _rows(path: str) -> int | None:
    try:
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    except Exception:
        return None


def _mem_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        return None


def _versions(gx_version: str | None) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for dist in ("airflow-dq", "pyspark", "apache-airflow", "apache-airflow-providers-apache-spark", "tpchgen-cli",
                 "pyarrow"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = None
    out["great-expectations"] = gx_version
    try:
        java = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False).stderr.splitlines()
        out["java"] = java[0] if java else None
    except OSError:
        out["java"] = None
    return out


if __name__ == "__main__":
    sys.exit(main())
