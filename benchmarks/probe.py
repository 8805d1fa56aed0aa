"""Measurements taken inside a Spark driver process: Spark job counts and peak memory of the driver JVM."""

from __future__ import annotations

import os
import resource


def jobs_in_group(spark, group: str) -> int:
    """Spark jobs started under a job group (the status tracker keeps spark.ui.retainedJobs, 1000 by default)."""
    return len(spark.sparkContext.statusTracker().getJobIdsForGroup(group))


def _vm_hwm_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def driver_memory(spark) -> dict:
    """Peak RSS of the driver JVM (Linux VmHWM), peak JVM heap (sum of heap pools' peaks), and this process's RSS."""
    jvm = spark.sparkContext._jvm
    pid = int(jvm.java.lang.ProcessHandle.current().pid())
    heap_peak = 0
    for pool in jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans():
        if str(pool.getType().toString()) == "Heap memory":
            heap_peak += int(pool.getPeakUsage().getUsed())
    hwm = _vm_hwm_kib(pid)
    return {
        "jvm_pid": pid,
        "jvm_peak_rss_mb": round(hwm / 1024, 1) if hwm is not None else None,
        "jvm_heap_peak_mb": round(heap_peak / 2**20, 1),
        "python_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "pid": os.getpid(),
    }
