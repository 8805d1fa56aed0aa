"""One benchmark leg in its own process: start Spark, validate once, report timings, job count and memory as JSON.

    python -m benchmarks.leg {floor|engine|gx|gx_bool} --data PARQUET --scale SF --out LEG.json [--suite S30|S300]
                             [--spec SPEC.yml] [--master local[2]] [--distinct exact|approximate]

The validation step starts with a SparkSession and ends when every assertion's outcome is in Python memory;
it includes reading the dataset's definition (``spark.read.parquet``) for every leg. Spark settings come from
``SPARK_CONF_DIR`` (the orchestrator points it at one spark-defaults.conf shared by all legs and the CLI).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

T_START = time.perf_counter()
GROUP = "bench-validate"


def _floor(spark, args) -> dict:
    from benchmarks import floor

    df = spark.read.parquet(args.data)
    ok = floor.run(df, args.scale)
    return {"assertions": len(ok), "passed": sum(ok.values()), "failed_names": sorted(k for k, v in ok.items() if not v)}


def _gx(spark, args, result_format: str) -> dict:
    from benchmarks import gx_suite

    t = time.perf_counter()
    definition = gx_suite.prepare(args.scale)
    setup_s = time.perf_counter() - t
    spark.sparkContext.setJobGroup(GROUP, "benchmark validation")
    df = spark.read.parquet(args.data)
    t = time.perf_counter()
    ok = gx_suite.run(definition, df, result_format)
    return {"assertions": len(ok), "passed": sum(ok.values()), "gx_setup_s": round(setup_s, 3),
            "gx_run_s": round(time.perf_counter() - t, 3), "gx_version": gx_suite.available(),
            "failed_names": [str(k) for k, v in ok.items() if not v]}


def _engine(spark, args) -> dict:
    from airflow_dq.engine.runner import run_plan
    from airflow_dq.spec.build import build_plan, load_any
    from benchmarks.probe import jobs_in_group
    from benchmarks.suites import ENTITY

    t = time.perf_counter()
    plan = build_plan(load_any(args.spec), {ENTITY: args.data}, run_id=f"bench-{args.suite}",
                      options={"distinct": args.distinct})
    plan_json = plan.to_json()
    planning_s = time.perf_counter() - t
    result = run_plan(spark, plan, job_group_prefix="bench-engine")
    t = time.perf_counter()
    document = result.to_json()
    with open(args.out + ".result.json", "w", encoding="utf-8") as fh:
        fh.write(document)
    writing_s = time.perf_counter() - t
    ds = result.datasets[0]
    engine_overhead_s = (ds["duration_ms"] - ds.get("scan_ms", 0.0)) / 1000  # prepare + finish, no Spark job
    return {"assertions": len(result.results), "passed": sum(r.status == "pass" for r in result.results),
            "failed_names": [r.name for r in result.results if r.status != "pass"][:20],
            "messages": [r.message for r in result.results if r.status == "error"][:5],
            "planning_s": round(planning_s, 4), "plan_bytes": len(plan_json), "writing_s": round(writing_s, 4),
            "engine_overhead_s": round(engine_overhead_s, 4),
            "overhead_s": round(planning_s + writing_s + engine_overhead_s, 4),
            "engine_jobs": sum(d.get("spark_jobs", 0) for d in result.datasets)
            + jobs_in_group(spark, f"bench-engine:{plan.run_id}:load"),  # the runner's loading job group
            "dataset_stats": {k: v for k, v in ds.items() if k not in ("schema", "source", "diagnostics")}}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="benchmarks.leg")
    p.add_argument("leg", choices=("floor", "engine", "gx", "gx_bool"))
    p.add_argument("--data", required=True)
    p.add_argument("--scale", type=float, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--suite", default="S30")
    p.add_argument("--spec")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--distinct", default="exact", choices=("exact", "approximate"))
    args = p.parse_args(argv)

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master(args.master).appName(f"bench-{args.leg}").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    t_spark = time.perf_counter()
    spark.sparkContext.setJobGroup(GROUP, "benchmark validation")
    t0 = time.perf_counter()
    if args.leg == "floor":
        info = _floor(spark, args)
    elif args.leg == "engine":
        info = _engine(spark, args)
    else:
        info = _gx(spark, args, "BOOLEAN_ONLY" if args.leg == "gx_bool" else "SUMMARY")
    validation_s = time.perf_counter() - t0
    if "gx_run_s" in info:  # GX's context/suite set-up is reported apart (gx_setup_s), not as validation
        validation_s = info["gx_run_s"]
    from benchmarks.probe import driver_memory, jobs_in_group

    jobs = jobs_in_group(spark, GROUP) + info.pop("engine_jobs", 0)
    report = {"leg": args.leg, "suite": args.suite, "validation_s": round(validation_s, 4), "spark_jobs": jobs,
              "spark_start_s": round(t_spark - T_START, 3), **info, **driver_memory(spark),
              "spark_version": spark.version}
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1, default=str)
    spark.stop()
    return 0 if report["passed"] == report["assertions"] else 1


if __name__ == "__main__":
    sys.exit(main())
