"""Entry point of the packaged validation job: ``--plan PLAN.json --out RESULT`` (local path or Hadoop URI).

Exit codes: 0 the result document was written (whatever the assertions' outcome); 3 the plan was invalid;
4 the job failed before a result could be written. The driver's log is never the channel for results.
"""

from __future__ import annotations

import argparse
import logging
import sys

from airflow_dq.core.plan import Plan, PlanError

EXIT_OK, EXIT_BAD_PLAN, EXIT_FAILED = 0, 3, 4


def _read_plan(location: str) -> Plan:
    try:
        with open(location, encoding="utf-8") as fh:
            return Plan.from_json(fh.read())
    except OSError as exc:
        raise PlanError(f"cannot read plan {location}: {exc}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="airflow-dq-engine")
    parser.add_argument("--plan", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s airflow-dq %(levelname)s %(message)s")
    try:
        plan = _read_plan(args.plan)
    except (PlanError, KeyError, TypeError) as exc:
        print(f"airflow-dq: invalid plan: {exc}", file=sys.stderr)
        return EXIT_BAD_PLAN

    from pyspark.sql import SparkSession

    from airflow_dq.engine.result_io import write_text
    from airflow_dq.engine.runner import run_plan

    spark = SparkSession.builder.appName(f"airflow-dq:{plan.run_id}").getOrCreate()
    try:
        result = run_plan(spark, plan)
        write_text(spark, args.out, result.to_json())
        summary = result.summary
        print(f"airflow-dq: {summary['total']} assertions, outcome {summary['outcome']}, "
              f"by status {summary['by_status']}; result written to {args.out}", file=sys.stderr)
        return EXIT_OK
    except Exception as exc:
        logging.exception("validation job failed")
        print(f"airflow-dq: validation job failed: {exc}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
