"""Entry point of the packaged validation job, run by spark-submit on the Spark driver (no Airflow there).

Where the plan comes from (exactly one):
  ``--plan LOCATION``     a local path, or any Hadoop URI (hdfs://, s3a://, gs://, abfs://, file://);
  ``--plan-file NAME``    a file shipped with ``spark-submit --files`` (found in the driver's working directory,
                          as YARN/Kubernetes cluster mode place it, or through SparkFiles);
  ``--plan-inline TEXT``  the plan itself, zlib-compressed and urlsafe-base64-encoded (cluster mode, small plans).
``--out LOCATION``: where the result document goes: a local path or any Hadoop URI, written atomically through
Spark's Hadoop FileSystem API.

Exit codes: 0 the result document was written (whatever the assertions' outcome); 3 the plan was invalid;
4 the job failed before a result could be written. The driver's log is never the channel for results.
"""

from __future__ import annotations

import argparse
import base64
import logging
import os
import sys
import zlib
from urllib.parse import urlparse

from airflow_dq.core.plan import Plan, PlanError

EXIT_OK, EXIT_BAD_PLAN, EXIT_FAILED = 0, 3, 4
# Spark settings recorded in the result document (what the run actually got, e.g. executor resources).
RECORDED_CONF = ("spark.app.name", "spark.master", "spark.submit.deployMode", "spark.executor.memory",
                 "spark.executor.cores", "spark.cores.max", "spark.driver.memory", "spark.jars.packages",
                 "spark.sql.shuffle.partitions", "spark.sql.ansi.enabled")


def decode_inline_plan(text: str) -> str:
    try:
        return zlib.decompress(base64.urlsafe_b64decode(text.encode("ascii"))).decode("utf-8")
    except (ValueError, zlib.error) as exc:
        raise PlanError(f"the inline plan is not valid (zlib + urlsafe base64 expected): {exc}") from None


def _read_local(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise PlanError(f"cannot read plan {path}: {exc.strerror or exc}") from None


def _shipped_file(name: str) -> str:
    """A ``--files`` file: where SparkFiles put it, else in the driver's working directory (YARN cluster mode)."""
    from pyspark import SparkFiles

    fetched = SparkFiles.get(name)
    if os.path.exists(fetched):
        return fetched
    if os.path.exists(name):
        return name
    raise PlanError(f"the plan file {name!r} was not shipped with --files (not in {fetched} nor in {os.getcwd()})")


def _plan_text_without_spark(args) -> str | None:
    """The plan text when no SparkSession is needed to get it (so a bad plan never starts Spark)."""
    if args.plan_inline:
        return decode_inline_plan(args.plan_inline)
    if args.plan:
        from airflow_dq.engine.result_io import is_local

        if is_local(args.plan):
            return _read_local(urlparse(args.plan).path if args.plan.startswith("file:") else args.plan)
    return None


def _plan_text_with_spark(spark, args) -> str:
    if args.plan_file:
        return _read_local(_shipped_file(args.plan_file))
    from airflow_dq.engine.result_io import read_text

    try:
        return read_text(spark, args.plan)
    except Exception as exc:  # py4j errors carry the Java exception text
        raise PlanError(f"cannot read plan {args.plan}: {str(exc).splitlines()[0]}") from None


def _engine_info(spark) -> dict:
    conf = spark.sparkContext.getConf()
    return {"deploy_mode": conf.get("spark.submit.deployMode", "client"),
            "conf": {k: conf.get(k) for k in RECORDED_CONF if conf.contains(k)},
            # names only: shows which AIRFLOW_DQ_* variables reached the driver, never their values
            "env_names": sorted(k for k in os.environ if k.startswith("AIRFLOW_DQ_"))}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="airflow-dq-engine")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--plan", help="plan location: local path or Hadoop URI")
    source.add_argument("--plan-file", help="name of a plan file shipped with --files")
    source.add_argument("--plan-inline", help="the plan, zlib-compressed, urlsafe base64")
    parser.add_argument("--out", required=True, help="result location: local path or Hadoop URI")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s airflow-dq %(levelname)s %(message)s")
    plan = None
    try:
        text = _plan_text_without_spark(args)
        plan = Plan.from_json(text) if text is not None else None
    except (PlanError, KeyError, TypeError) as exc:
        print(f"airflow-dq: invalid plan: {exc}", file=sys.stderr)
        return EXIT_BAD_PLAN

    from pyspark.sql import SparkSession

    from airflow_dq.engine.result_io import write_text
    from airflow_dq.engine.runner import run_plan

    spark = SparkSession.builder.appName(f"airflow-dq:{plan.run_id}" if plan else "airflow-dq").getOrCreate()
    try:
        if plan is None:
            try:
                plan = Plan.from_json(_plan_text_with_spark(spark, args))
            except (PlanError, KeyError, TypeError) as exc:
                print(f"airflow-dq: invalid plan: {exc}", file=sys.stderr)
                return EXIT_BAD_PLAN
        result = run_plan(spark, plan)
        result.engine.update(_engine_info(spark))
        written = write_text(spark, args.out, result.to_json())
        summary = result.summary
        print(f"airflow-dq: {summary['total']} assertions, outcome {summary['outcome']}, "
              f"by status {summary['by_status']}; result written to {written}", file=sys.stderr)
        return EXIT_OK
    except Exception as exc:
        logging.exception("validation job failed")
        print(f"airflow-dq: validation job failed: {exc}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
