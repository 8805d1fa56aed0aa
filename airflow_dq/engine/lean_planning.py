"""Fewer py4j round trips while assertions build their Spark Columns (planning S300 costs ~23,000 of them).

PySpark 4 (classic) wraps every Column function in a call-site recorder: with ``spark.python.sql.dataFrameDebugging
.enabled`` (default true) each ``F.xxx(...)`` first looks up the active session, reads a conf and sets/clears the
JVM-side origin, several round trips for one expression node; and each ``F.xxx`` resolves the JVM ``functions`` class
and method anew (two more). The conf is static (it cannot be changed on a running session), and PySpark caches it
per process; while planning, the engine sets that cache to off and memoizes the resolved JVM function handles;
``close`` restores both. Only error-message decoration is lost, and the engine reports analysis errors by their first line anyway.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)
DEBUGGING_CONF = "spark.python.sql.dataFrameDebugging.enabled"


class LeanPlanning:
    def __init__(self, spark):
        self._restore = []
        for step in (self._quiet_origin, self._memoize_functions):
            try:
                step()
            except Exception as exc:  # another PySpark layout (e.g. Spark Connect): plan the ordinary way
                log.debug("lean planning step %s not available: %s", step.__name__, exc)

    def _quiet_origin(self) -> None:
        """PySpark reads the (static) conf once per process into this cache; planning runs with it off."""
        from pyspark.errors import utils as error_utils

        if not hasattr(error_utils, "_enable_debugging_cache"):
            return
        previous = error_utils._enable_debugging_cache
        error_utils._enable_debugging_cache = False

        def restore():
            error_utils._enable_debugging_cache = previous
        self._restore.append(restore)

    def _memoize_functions(self) -> None:
        from pyspark.sql.functions import builtin

        original = getattr(builtin, "_get_jvm_function", None)
        if original is None or getattr(original, "_airflow_dq_memo", False):
            return
        handles: dict = {}

        def memoized(name, sc):
            key = (id(sc._gateway), name)
            handle = handles.get(key)
            if handle is None:
                handle = handles[key] = original(name, sc)
            return handle
        memoized._airflow_dq_memo = True
        builtin._get_jvm_function = memoized

        def restore():
            builtin._get_jvm_function = original
        self._restore.append(restore)

    def close(self) -> None:
        while self._restore:
            try:
                self._restore.pop()()
            except Exception as exc:
                log.debug("could not restore PySpark planning settings: %s", exc)
