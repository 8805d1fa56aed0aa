"""DataQualityResultTrigger: waits, in the triggerer, for a validation job's result document.

It watches the result location (any store the result store reads: file://, s3a://, gs://, ...) and, when the job
was launched on this host, the spark-submit process too: a process that ended without leaving a result ends the
wait at once with an ``error`` event instead of waiting for the timeout. ``run()`` yields exactly one event:

* ``{"status": "done", "location": ..., "run_id": ..., "outcome": "pass|warn|fail", "summary": {...}}``
* ``{"status": "error", "message": ...}`` (the job ended without a usable result)
* ``{"status": "timeout", "message": ...}``
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any, AsyncIterator

from airflow.triggers.base import BaseTrigger, TriggerEvent

from airflow_dq.hooks.result_store import ResultLocation, ResultUnavailable, read_result
from airflow_dq.sensors.launch import log_tail, process_alive


class DataQualityResultTrigger(BaseTrigger):
    """:param location: the result location as ``{"spark_uri", "reader_uri", "conn_id"}`` (a ResultLocation).
    :param run_id: the plan's run id; a document of another run is not accepted.
    :param pid: / :param host: the detached spark-submit, watched when the triggerer runs on ``host``.
    :param log_path: spark-submit's output, whose tail goes into an ``error`` event.
    :param poll_interval: seconds between looks at the location.
    :param timeout: seconds before a ``timeout`` event (None: wait for the job).
    """

    def __init__(self, location: dict, run_id: str, pid: int | None = None, host: str | None = None,
                 log_path: str | None = None, poll_interval: float = 5.0, timeout: float | None = None,
                 context: dict | None = None) -> None:
        super().__init__()
        self.context = dict(context or {})
        self.location = dict(location)
        self.run_id = run_id
        self.pid = pid
        self.host = host
        self.log_path = log_path
        self.poll_interval = float(poll_interval)
        self.timeout = None if timeout is None else float(timeout)

    def serialize(self) -> tuple[str, dict[str, Any]]:
        return (f"{type(self).__module__}.{type(self).__qualname__}", {
            "location": self.location, "run_id": self.run_id, "pid": self.pid, "host": self.host,
            "log_path": self.log_path, "poll_interval": self.poll_interval, "timeout": self.timeout,
            "context": self.context,
        })

    def _watch_process(self) -> bool:
        return self.pid is not None and self.host == socket.gethostname()

    async def _read(self):
        loc = ResultLocation(**self.location)
        return await asyncio.to_thread(read_result, loc, self.run_id)

    def _event(self, payload: dict) -> TriggerEvent:
        # the caller's state travels in the event: it reaches the resumed task however the triggerer merges kwargs
        return TriggerEvent({**payload, "context": self.context})

    async def run(self) -> AsyncIterator[TriggerEvent]:
        started = time.monotonic()
        uri = self.location.get("spark_uri")
        while True:
            try:
                result = await self._read()
            except ResultUnavailable as exc:
                reason = str(exc)
            else:
                yield self._event({"status": "done", "location": uri, "run_id": self.run_id,
                                    "outcome": result.outcome, "summary": result.summary})
                return
            if self._watch_process() and not process_alive(self.pid):
                try:  # the document may have landed between the read and the exit check
                    result = await self._read()
                except ResultUnavailable:
                    tail = log_tail(self.log_path)
                    yield self._event({"status": "error", "message": (
                        f"spark-submit (pid {self.pid}) ended without a usable result: {reason}"
                        + (f"\nlast lines of {self.log_path}:\n{tail}" if tail else ""))})
                    return
                yield self._event({"status": "done", "location": uri, "run_id": self.run_id,
                                    "outcome": result.outcome, "summary": result.summary})
                return
            if self.timeout is not None and time.monotonic() - started > self.timeout:
                yield self._event({"status": "timeout", "message": (
                    f"no result at {uri} after {self.timeout:g}s ({reason})")})
                return
            await asyncio.sleep(self.poll_interval)


class DataQualityWaitTrigger(BaseTrigger):
    """Waits ``delay`` seconds in the triggerer, then yields one ``{"status": "wake", "context": ...}`` event."""

    def __init__(self, delay: float, context: dict | None = None) -> None:
        super().__init__()
        self.delay = float(delay)
        self.context = dict(context or {})

    def serialize(self) -> tuple[str, dict[str, Any]]:
        return (f"{type(self).__module__}.{type(self).__qualname__}", {"delay": self.delay, "context": self.context})

    async def run(self) -> AsyncIterator[TriggerEvent]:
        await asyncio.sleep(self.delay)
        yield TriggerEvent({"status": "wake", "context": self.context})
