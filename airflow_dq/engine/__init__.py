"""The validation engine. Runs on the Spark driver: imports only pyspark, the stdlib and airflow_dq.core."""
