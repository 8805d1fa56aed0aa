"""``airflow-dq`` command line: run a spec on Spark without Airflow.

Exit codes: 0 no error-severity assertion failed; 1 one did; 2 invalid input (spec, source, arguments);
3 the Spark job failed or wrote no usable result.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import datetime, timezone

EXIT_PASS, EXIT_FAIL, EXIT_INPUT, EXIT_INFRA = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own exit code is 2 as well; keep the message on stderr
        self.print_usage(sys.stderr)
        print(f"airflow-dq: error: {message}", file=sys.stderr)
        sys.exit(EXIT_INPUT)


def _parse_as_of(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"--as-of {text!r} is not an ISO-8601 date/time") from None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def cmd_run(args) -> int:
    from airflow_dq.core.results import ResultError, RunResult
    from airflow_dq.spec.build import build_plan, load_any
    from airflow_dq.spec.errors import SpecError
    from airflow_dq.spec.sources import parse_cli_source
    from airflow_dq.submit.local import submit_engine
    from airflow_dq.summary import results_table

    try:
        assertions = load_any(args.spec)
        mapping = dict(parse_cli_source(s) for s in args.source or [])
        from airflow_dq.spec.engine_options import parse_engine_options

        plan = build_plan(assertions, mapping, reference_time=_parse_as_of(args.as_of),
                          options=parse_engine_options(args.engine_option))
    except (SpecError, ValueError) as exc:
        print(f"airflow-dq: invalid input:\n{exc}", file=sys.stderr)
        return EXIT_INPUT
    from airflow_dq.lineage.emitter import CliLineage

    lineage = CliLineage.from_args(args, plan)  # OpenLineage events only with --openlineage
    lineage.start()

    workdir = tempfile.mkdtemp(prefix="airflow-dq-run-")
    plan_path = os.path.join(workdir, "plan.json")
    with open(plan_path, "w", encoding="utf-8") as fh:
        fh.write(plan.to_json())
    out = os.path.abspath(args.out)
    report = os.path.abspath(args.report) if args.report else None
    if report and not os.path.isdir(os.path.dirname(report)):
        print(f"airflow-dq: invalid input: --report {args.report}: directory {os.path.dirname(report)} does not exist",
              file=sys.stderr)
        return EXIT_INPUT
    if os.path.exists(out):
        os.remove(out)  # never mistake a previous run's document for this one's
    print(f"airflow-dq: validating {len(plan.assertions)} assertions on {args.master} ...", file=sys.stderr)
    submitted = submit_engine(plan_path, out, args.master, workdir)
    if submitted.returncode != 0:
        print(f"airflow-dq: the Spark job failed (exit {submitted.returncode}); log: {submitted.log_path}\n"
              f"{submitted.log_tail()}", file=sys.stderr)
        lineage.fail(f"the Spark job failed (exit {submitted.returncode})")
        return EXIT_INFRA
    try:
        with open(out, encoding="utf-8") as fh:
            result = RunResult.from_json(fh.read(), expected_run_id=plan.run_id)
    except (OSError, ResultError) as exc:
        print(f"airflow-dq: no usable result at {out}: {exc}", file=sys.stderr)
        lineage.fail(f"no usable result at {out}: {exc}")
        return EXIT_INFRA
    lineage.finish(result)
    print(results_table(result))
    print(f"\nresult document: {out}")
    if report:
        from airflow_dq.report import write_report

        try:
            print(f"report: {write_report(result, report)}")
        except OSError as exc:  # the outcome still decides the exit code; the report is reported missing
            print(f"airflow-dq: could not write the report {report}: {exc}", file=sys.stderr)
    return EXIT_FAIL if result.outcome == "fail" else EXIT_PASS


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="airflow-dq", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser("run", help="validate datasets against a YAML spec on Spark")
    run.add_argument("spec", help="YAML spec file (or a SHACL shapes file: .ttl .jsonld .rdf .owl .nt .n3)")
    run.add_argument("--source", action="append", metavar="ENTITY=PATH[:FORMAT]",
                     help="where an entity's data is: a path with optional format, or table:NAME (repeatable)")
    run.add_argument("--master", default="local[*]", help="Spark master (default: local[*])")
    run.add_argument("--out", required=True, help="where to write the result document (JSON)")
    run.add_argument("--report", metavar="PATH", help="also write a self-contained HTML report to PATH")
    run.add_argument("--engine-option", action="append", metavar="KEY=VALUE",
                     help="engine setting, e.g. distinct=approximate or footer_stats=false (repeatable)")
    run.add_argument("--as-of", help="reference time for freshness (ISO-8601; default: now)")
    run.add_argument("--openlineage", action="store_true",
                     help="emit OpenLineage events (transport from openlineage-python's configuration: "
                          "OPENLINEAGE_CONFIG/openlineage.yml, OPENLINEAGE_URL or OPENLINEAGE__TRANSPORT__*)")
    run.add_argument("--openlineage-namespace", help="job namespace (default: $OPENLINEAGE_NAMESPACE or 'default')")
    run.add_argument("--openlineage-job", help="job name (default: airflow_dq.<spec file name>)")
    run.set_defaults(func=cmd_run)
    from airflow_dq.shacl.command import register as register_shacl  # `airflow-dq shacl convert ...`

    register_shacl(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
