"""Great Expectations Core 1.x equivalent of S30 (variant 0), validated on the same Spark DataFrame.

Mapping notes (GX has no exact counterpart for two of the 30):
* filtered row counts use ``ExpectTableRowCountToBeBetween`` with a ``row_condition``;
* ``null_percentage <= 1`` becomes ``ExpectColumnProportionOfNonNullValuesToBeBetween(min_value=0.99)``;
* ``null_count <= 0`` becomes ``ExpectColumnProportionOfNonNullValuesToBeBetween(min_value=1.0)`` (a second
  ``ExpectColumnValuesToNotBeNull`` on the same column would be merged into the first by the suite);
* the regex with a 25 % failure threshold is ``ExpectColumnValuesToMatchRegex(mostly=0.75)`` with the same anchored
  pattern (GX's Spark implementation uses ``rlike``, a substring search, so the pattern is anchored explicitly).
"""

from __future__ import annotations

import logging
import warnings

from benchmarks.suites import COMMENT_REGEX, COMMENT_THRESHOLD_PCT, NOT_NULL_COLUMNS, ROWS_PER_SF


def available() -> str | None:
    """The installed GX version, or None when great_expectations is not installed."""
    try:
        import great_expectations as gx
    except ImportError:
        return None
    return gx.__version__


def expectations(scale: float) -> list:
    import great_expectations.expectations as gxe
    from great_expectations.expectations.row_conditions import Column as Col

    rows = ROWS_PER_SF * scale
    out = [
        gxe.ExpectTableRowCountToBeBetween(min_value=int(rows * 0.9), max_value=int(rows * 1.1)),
        gxe.ExpectTableRowCountToBeBetween(min_value=1, row_condition=Col("l_returnflag") == "A"),
        gxe.ExpectTableRowCountToBeBetween(min_value=1, row_condition=Col("l_shipmode") == "AIR"),
    ]
    out += [gxe.ExpectColumnValuesToNotBeNull(column=col) for col in NOT_NULL_COLUMNS]
    out += [
        gxe.ExpectColumnValuesToBeBetween(column="l_quantity", min_value=1, max_value=50),
        gxe.ExpectColumnValuesToBeBetween(column="l_discount", min_value=0, max_value=0.10),
        gxe.ExpectColumnValuesToBeBetween(column="l_tax", min_value=0, max_value=0.08),
        gxe.ExpectColumnValuesToBeInSet(column="l_returnflag", value_set=["A", "N", "R"]),
        gxe.ExpectColumnValuesToBeInSet(column="l_linestatus", value_set=["F", "O"]),
        gxe.ExpectColumnValuesToNotBeInSet(column="l_shipmode", value_set=["BOAT", "CANOE0"]),
        gxe.ExpectColumnValuesToMatchRegex(column="l_comment", regex="^(?:" + COMMENT_REGEX + ")$",
                                           mostly=1 - COMMENT_THRESHOLD_PCT / 100),
        gxe.ExpectColumnValuesToBeBetween(column="l_extendedprice", min_value=0, strict_min=True),
        gxe.ExpectColumnValuesToBeBetween(column="l_tax", max_value=0.08),
        gxe.ExpectColumnValuesToBeBetween(column="l_suppkey", min_value=1),
        gxe.ExpectColumnValuesToBeBetween(column="l_quantity", max_value=50, row_condition=Col("l_shipmode") == "AIR"),
        gxe.ExpectColumnMinToBeBetween(column="l_quantity", min_value=1),
        gxe.ExpectColumnMaxToBeBetween(column="l_quantity", max_value=50),
        gxe.ExpectColumnMeanToBeBetween(column="l_discount", min_value=0.04, max_value=0.06),
        gxe.ExpectColumnProportionOfNonNullValuesToBeBetween(column="l_tax", min_value=0.99),
        gxe.ExpectColumnProportionOfNonNullValuesToBeBetween(column="l_shipdate", min_value=1.0),
        gxe.ExpectColumnUniqueValueCountToBeBetween(column="l_shipmode", min_value=7, max_value=7),
        gxe.ExpectColumnMaxToBeBetween(column="l_extendedprice", max_value=110000),
        gxe.ExpectColumnMeanToBeBetween(column="l_quantity", min_value=24, max_value=27),
    ]
    assert len(out) == 30, len(out)
    return out


def prepare(scale: float):
    """Build the ephemeral context, datasource, asset and suite: GX's set-up, timed apart from validation."""
    import great_expectations as gx

    logging.getLogger("great_expectations").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    context = gx.get_context(mode="ephemeral")
    source = context.data_sources.add_spark(name="bench")
    asset = source.add_dataframe_asset(name="lineitem")
    batch = asset.add_batch_definition_whole_dataframe("all")
    suite = context.suites.add(gx.ExpectationSuite(name="s30"))
    for e in expectations(scale):
        suite.add_expectation(e)
    if len(suite.expectations) != 30:
        raise RuntimeError(f"the GX suite holds {len(suite.expectations)} expectations, not 30")
    return context.validation_definitions.add(gx.ValidationDefinition(name="s30", data=batch, suite=suite))


def run(definition, df, result_format: str) -> dict:
    """Validate; returns {expectation index: success}, raising if GX reports an exception for any expectation."""
    result = definition.run(batch_parameters={"dataframe": df}, result_format=result_format)
    out = {}
    for i, r in enumerate(result.results):
        info = r.exception_info or {}
        if info.get("raised_exception"):
            raise RuntimeError(f"GX expectation {r.expectation_config.type} raised: {info.get('exception_message')}")
        out[i] = bool(r.success)
    return out
