"""Plain-data model shared by the Airflow side and the Spark engine. Standard library only."""
