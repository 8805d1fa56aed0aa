"""Packaging and launching the engine as a Spark application. Airflow-free: used by the hook and the CLI."""
