"""airflow-dq: data quality assertions for Apache Airflow, executed on Spark.

This top-level module must stay importable without Airflow: the engine zip
shipped to the Spark driver contains it.
"""

__version__ = "0.1.0"


def get_provider_info() -> dict:
    """Provider metadata read by Airflow's ProvidersManager (entry point ``apache_airflow_provider``)."""
    return {
        "package-name": "airflow-dq",
        "name": "Airflow DQ",
        "description": "Data quality assertions (DataHub YAML spec, SHACL) executed as a packaged PySpark job, "
        "with severity gating and OpenLineage data quality facets.",
        "versions": [__version__],
        "operators": [
            {"integration-name": "Airflow DQ", "python-modules": ["airflow_dq.operators.data_quality",
                                                                 "airflow_dq.operators.branch"]},
        ],
        "sensors": [
            {"integration-name": "Airflow DQ", "python-modules": ["airflow_dq.sensors.data_quality"]},
        ],
        "triggers": [
            {"integration-name": "Airflow DQ", "python-modules": ["airflow_dq.triggers.result"]},
        ],
        "extra-links": ["airflow_dq.operators.links.DataQualityResultLink", "airflow_dq.operators.links.SparkUILink",
                        "airflow_dq.report.link.DataQualityReportLink"],
        "hooks": [
            {"integration-name": "Airflow DQ", "python-modules": ["airflow_dq.hooks.spark_submit"]},
        ],
        "integrations": [
            {"integration-name": "Airflow DQ", "external-doc-url": "https://github.com/airflow-dq/airflow-dq",
             "tags": ["software"]},
        ],
    }
