"""``airflow-dq shacl convert SHAPES... -o spec.yml``: write the spec, print the conversion report."""

from __future__ import annotations

import argparse
import json
import os
import sys

EXIT_OK, EXIT_INPUT = 0, 2  # the CLI's codes: 2 is invalid input


def register(sub) -> None:
    shacl = sub.add_parser("shacl", help="SHACL shapes → assertions")
    actions = shacl.add_subparsers(dest="shacl_command", required=True, parser_class=type(shacl))
    conv = actions.add_parser("convert", help="convert SHACL shapes into a YAML spec and print the conversion report",
                              description="Convert SHACL shapes linked to DCAT datasets into a YAML assertion spec "
                              "(seed 001 mapping). Conversion is on (create_assertions: true) unless --config says "
                              "otherwise; every constraint not converted is listed in the report with its reason.")
    conv.add_argument("shapes", nargs="+", help="shapes file(s): .ttl .jsonld .rdf .owl .nt .n3 (read into one graph)")
    conv.add_argument("--format", help="RDF format when the suffix does not tell: turtle, json-ld, xml, nt, n3")
    conv.add_argument("-o", "--out", required=True, help="where to write the YAML spec ('-' for stdout)")
    conv.add_argument("--config", help="YAML/JSON file with seed 001's context: create_assertions, assertion_types, "
                      "environment, default_platform")
    conv.add_argument("--no-required-fields", action="store_true", help="skip sh:minCount/sh:maxCount")
    conv.add_argument("--no-field-size", action="store_true", help="skip sh:minLength/sh:maxLength")
    conv.add_argument("--no-value-checks", action="store_true",
                      help="skip sh:pattern, sh:min/maxInclusive, sh:min/maxExclusive, sh:in, sh:hasValue")
    conv.add_argument("--datatypes", action="store_true", help="convert sh:datatype into schema assertions")
    conv.add_argument("--environment", help="the dataset URNs' environment (default PROD)")
    conv.add_argument("--platform", help="platform of datasets without dcat:accessService (default logical)")
    conv.add_argument("--report-json", help="also write the conversion report as JSON here")
    conv.set_defaults(func=cmd_convert)


def _context(args: argparse.Namespace) -> dict:
    context: dict = {"create_assertions": True}
    if args.config:
        import yaml

        with open(args.config, encoding="utf-8") as fh:
            loaded = yaml.safe_load(fh)
        if not isinstance(loaded, dict):
            raise ValueError(f"{args.config}: the config must be a mapping (create_assertions, assertion_types, ...)")
        context.update(loaded)
    types = dict(context.get("assertion_types") or {})
    for flag, key, value in ((args.no_required_fields, "required_fields", False), (args.no_field_size, "field_size", False),
                             (args.no_value_checks, "value_checks", False), (args.datatypes, "datatypes", True)):
        if flag:
            types[key] = value
    if types:
        context["assertion_types"] = types
    if args.environment:
        context["environment"] = args.environment
    if args.platform:
        context["default_platform"] = args.platform
    return context


def cmd_convert(args: argparse.Namespace) -> int:
    from airflow_dq.shacl.convert import convert_file
    from airflow_dq.spec.errors import SpecError

    try:
        conversion = convert_file(args.shapes, args.format, _context(args))
    except (SpecError, OSError, ValueError) as exc:
        print(f"airflow-dq: invalid input:\n{exc}", file=sys.stderr)
        return EXIT_INPUT
    report_to = sys.stderr if args.out == "-" else sys.stdout  # keep stdout for the spec itself with `-o -`
    print(conversion.report.to_text(), file=report_to)
    if args.report_json:
        with open(args.report_json, "w", encoding="utf-8") as fh:
            json.dump(conversion.report.to_dict(), fh, indent=2)
    if not conversion.assertions:
        print("airflow-dq: no assertions were converted; nothing written (see the report above)", file=sys.stderr)
        return EXIT_INPUT
    try:
        conversion.load()  # the written spec must pass the normal spec loader
    except SpecError as exc:
        print(f"airflow-dq: the converted spec does not load:\n{exc}", file=sys.stderr)
        return EXIT_INPUT
    text = conversion.to_yaml()
    if args.out == "-":
        sys.stdout.write(text)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"\nspec: {args.out}")
    return EXIT_OK
