"""Custom SQL: one value vs a condition; every dataset of the run as a view; Spark's message on every error."""

from __future__ import annotations

import pytest

from tests.helpers import FLIGHTS, by_name, run_yaml
from airflow_dq.engine.views import view_names

PE = "urn:li:dataset:(urn:li:dataPlatform:snowflake,test_db.public.purchase_events,PROD)"
PR = "urn:li:dataset:(urn:li:dataPlatform:snowflake,test_db.public.products,PROD)"


def test_view_names_are_the_documented_ones():
    assert view_names(PE) == ["test_db_public_purchase_events", "purchase_events"]
    assert view_names("orders") == ["orders"]
    assert view_names("urn:li:dataset:(urn:li:dataPlatform:file,nyc.flights,PROD)") == ["nyc_flights", "flights"]
    assert view_names("urn:li:dataset:(urn:li:dataPlatform:s3,bucket/2024-data/events,PROD)") == [
        "bucket_2024_data_events", "events"]


def _sql(name: str, statement: str, cond: str = "{type: equal_to, value: 0}", entity: str = PE) -> str:
    body = "\n".join("      " + line for line in statement.strip().splitlines())
    return f"- entity: \"{entity}\"\n  name: {name}\n  type: sql\n  statement: |\n{body}\n  condition: {cond}\n"


@pytest.fixture(scope="module")
def shop(spark, tmp_path_factory):
    base = tmp_path_factory.mktemp("shop")
    pe = spark.createDataFrame([(1, "p1", 2.5), (2, "p2", 3.0), (3, "p9", 1.0), (4, None, 4.0)],
                               "id int, product_id string, amount double")
    pr = spark.createDataFrame([("p1", "One"), ("p2", "Two")], "id string, title string")
    pe.write.parquet(str(base / "pe"))
    pr.write.parquet(str(base / "pr"))
    spark.createDataFrame([(i,) for i in range(4)], "id int").createOrReplaceTempView("catalog_raw")
    return {PE: str(base / "pe"), PR: str(base / "pr")}


def test_cross_dataset_queries_conditions_and_errors(spark, shop):
    text = "version: 1\nassertions:\n" + "".join([
        # both datasets are declared in the run (the products volume check), so both are views
        f"- entity: \"{PR}\"\n  name: products_exist\n  type: volume\n  condition: {{type: greater_than, value: 0}}\n",
        _sql("orphans", """
            SELECT COUNT(*)
            FROM purchase_events AS pe
            LEFT JOIN products AS p
            ON pe.product_id = p.id
            WHERE p.id IS NULL AND pe.product_id IS NOT NULL"""),
        _sql("orphans_by_full_name", "SELECT COUNT(*) FROM test_db_public_purchase_events pe "
             "LEFT ANTI JOIN test_db_public_products p ON pe.product_id = p.id WHERE pe.product_id IS NOT NULL",
             "{type: equal_to, value: 1}"),
        _sql("diff_with_catalog_table", "SELECT (SELECT COUNT(*) FROM purchase_events) - (SELECT COUNT(*) FROM catalog_raw);",
             "{type: between, min: -1, max: 1}"),
        _sql("avg_amount", "SELECT AVG(amount) FROM purchase_events", "{type: greater_than, value: 2.5}"),
        _sql("decimal_value", "SELECT CAST(0.3 AS DECIMAL(10,2))", "{type: equal_to, value: 0.3}"),
        _sql("no_row", "SELECT id FROM purchase_events WHERE id > 100"),
        _sql("two_rows", "SELECT id FROM purchase_events WHERE id < 3"),
        _sql("two_columns", "SELECT 1 AS a, 2 AS b"),
        _sql("syntax", "SELEC COUNT(*) FROM purchase_events"),
        _sql("unknown_table", "SELECT COUNT(*) FROM no_such_table"),
        _sql("null_value", "SELECT MAX(amount) FROM purchase_events WHERE id > 100"),
        _sql("text_value", "SELECT 'abc'"),
        _sql("command", "DROP TABLE IF EXISTS catalog_raw"),
        _sql("runtime_error", "SELECT CAST('x' AS INT)"),
    ])
    res = by_name(run_yaml(spark, text, shop))
    assert res["orphans"].status == "fail" and res["orphans"].actual == 1
    assert res["orphans_by_full_name"].status == "pass"
    assert res["diff_with_catalog_table"].status == "pass" and res["diff_with_catalog_table"].actual == 0
    assert res["avg_amount"].status == "pass" and res["avg_amount"].actual == pytest.approx(2.625)
    assert res["decimal_value"].status == "pass"
    errors = {
        "no_row": "returned no row",
        "two_rows": "returned several rows",
        "two_columns": "returns 2 columns (a, b)",
        "syntax": "PARSE_SYNTAX_ERROR",
        "unknown_table": "TABLE_OR_VIEW_NOT_FOUND",
        "null_value": "NULL",
        "text_value": "is not a number",
        "command": "must be a query",
        "runtime_error": "CAST_INVALID_INPUT",
    }
    for name, fragment in errors.items():
        assert res[name].status == "error", (name, res[name].status, res[name].message)
        assert fragment in res[name].message, (name, res[name].message)
    assert spark.table("catalog_raw").count() == 4  # the refused command did not run


def test_each_sql_assertion_is_its_own_query(spark, flights_parquet):
    from airflow_dq.engine.runner import run_plan
    from tests.helpers import plan_from_yaml

    def jobs(n: int) -> int:
        text = "version: 1\nassertions:\n" + "".join(
            _sql(f"q{i}", f"SELECT COUNT(*) FROM flights WHERE month = {i + 1}", "{type: greater_than, value: 0}",
                 entity=FLIGHTS) for i in range(n))
        result = run_plan(spark, plan_from_yaml(text, {FLIGHTS: flights_parquet}, run_id=f"sql{n}"),
                          job_group_prefix=f"sqljobs{n}")
        assert all(r.status == "pass" for r in result.results), [r.message for r in result.results]
        assert result.datasets[0]["fused_jobs"] == 0  # no aggregate assertion: no fused scan
        return result.datasets[0]["spark_jobs"]

    one, three = jobs(1), jobs(3)
    assert one >= 1 and three == 3 * one


def test_a_source_no_assertion_names_is_still_a_view_for_custom_sql(spark, shop):
    """Seed 002's foreign-key example as written: only purchase_events has assertions; products is just a source."""
    text = "version: 1\nassertions:\n" + _sql("orphans_only", """
        SELECT COUNT(*)
        FROM purchase_events AS pe
        LEFT JOIN products AS p
        ON pe.product_id = p.id
        WHERE p.id IS NULL AND pe.product_id IS NOT NULL""")
    result = run_yaml(spark, text, shop, run_id="sql-extra-source")
    r = by_name(result)["orphans_only"]
    assert (r.status, r.actual) == ("fail", 1), r.message
    assert [d["entity"] for d in result.datasets] == [PE]  # the extra source is readable, not validated
