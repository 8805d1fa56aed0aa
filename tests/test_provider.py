"""The package is an installable Airflow provider."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points


def test_entry_point_and_provider_info_need_no_airflow_import():
    eps = [ep for ep in entry_points(group="apache_airflow_provider") if ep.value.startswith("airflow_dq")]
    assert len(eps) == 1
    code = ("import sys, airflow_dq; info = airflow_dq.get_provider_info(); "
            "assert 'airflow' not in sys.modules, 'importing airflow_dq imported airflow'; print(info['package-name'])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "airflow-dq"


def test_airflow_providers_list_shows_it(airflow_db):
    proc = subprocess.run([sys.executable, "-m", "airflow", "providers", "list", "-o", "json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"airflow-dq"' in proc.stdout


def _operator_classes(info: dict) -> list[type]:
    """Every operator and sensor class defined in the modules the provider info lists."""
    import importlib
    import inspect

    from airflow.sdk import BaseOperator

    modules = [m for kind in ("operators", "sensors") for entry in info[kind] for m in entry["python-modules"]]
    assert modules
    classes = []
    for name in modules:
        module = importlib.import_module(name)
        classes += [c for _, c in inspect.getmembers(module, inspect.isclass)
                    if issubclass(c, BaseOperator) and c.__module__ == name]
    return classes


def test_every_extra_link_of_every_operator_is_listed_and_importable():
    import importlib

    from airflow.sdk import BaseOperatorLink

    import airflow_dq

    info = airflow_dq.get_provider_info()
    listed = info["extra-links"]
    assert len(listed) == len(set(listed))
    for path in listed:  # each entry is an importable operator-link class
        module, _, name = path.rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        assert isinstance(cls, type) and issubclass(cls, BaseOperatorLink), path
        assert cls().name and cls().xcom_key == f"_link_{name}"
    used = {f"{type(link).__module__}.{type(link).__qualname__}"
            for op in _operator_classes(info) for link in op.operator_extra_links}
    assert {"airflow_dq.operators.links.DataQualityResultLink", "airflow_dq.operators.links.SparkUILink",
            "airflow_dq.report.link.DataQualityReportLink"} <= used
    assert used <= set(listed), f"operator extra links missing from get_provider_info(): {used - set(listed)}"


def test_airflow_registers_every_listed_extra_link(airflow_db):
    """Airflow's ProvidersManager imports each listed class and drops the ones it cannot import."""
    from airflow.providers_manager import ProvidersManager

    import airflow_dq

    registered = {c for c in ProvidersManager().extra_links_class_names if c.startswith("airflow_dq.")}
    assert registered == set(airflow_dq.get_provider_info()["extra-links"])
