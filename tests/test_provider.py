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
