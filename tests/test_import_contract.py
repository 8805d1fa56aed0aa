"""core/ and engine/ run on the Spark driver, where Airflow (and pydantic, yaml) are not installed."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

BLOCKER = r'''
import importlib.abc, sys
BLOCKED = ("airflow", "pydantic", "yaml", "rdflib", "openlineage")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is not available on the Spark driver")
        return None
sys.meta_path.insert(0, Block())
for b in BLOCKED:
    try:
        __import__(b)
    except ImportError:
        pass
    else:
        raise SystemExit(f"blocker failed for {b}")
'''


def _run(code: str, pythonpath: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER + code], capture_output=True, text=True,
                          env={"PYTHONPATH": pythonpath, "PATH": ""}, cwd="/")


def test_core_and_engine_import_without_airflow_pydantic_yaml():
    modules = sorted(
        "airflow_dq." + p.relative_to(ROOT / "airflow_dq").with_suffix("").as_posix().replace("/", ".")
        for sub in ("core", "engine") for p in (ROOT / "airflow_dq" / sub).rglob("*.py")
    )
    modules = [m.removesuffix(".__init__") for m in modules]
    assert "airflow_dq.engine.runner" in modules and "airflow_dq.core.plan" in modules
    code = "\nimport importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in modules) + "print('ok')"
    proc = _run(code, str(ROOT))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_the_blocker_really_blocks():
    proc = _run("\nimport airflow_dq.spec.loader\n", str(ROOT))
    assert proc.returncode != 0 and "not available on the Spark driver" in proc.stderr


def test_engine_zip_holds_only_core_and_engine_and_imports_from_the_zip(tmp_path):
    from airflow_dq.submit.package import build_engine_package

    package = build_engine_package(tmp_path)
    names = zipfile.ZipFile(package.zip_path).namelist()
    assert "airflow_dq/engine/job.py" in names and "airflow_dq/core/plan.py" in names
    assert not [n for n in names if n.split("/")[1] not in ("__init__.py", "core", "engine")]
    proc = _run("\nimport airflow_dq.engine.job as j\nprint(j.__file__)", package.zip_path)
    assert proc.returncode == 0, proc.stderr
    assert package.zip_path in proc.stdout
