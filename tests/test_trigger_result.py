"""DataQualityResultTrigger / DataQualityWaitTrigger, run directly with asyncio (no triggerer, no Spark)."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
import time

from airflow_dq.core.results import AssertionResult, RunResult
from airflow_dq.hooks.result_store import result_location
from airflow_dq.triggers.result import DataQualityResultTrigger, DataQualityWaitTrigger


def _doc(run_id: str, status: str = "pass") -> str:
    r = AssertionResult(assertion_id="rows", name="rows", kind="volume", type="volume", entity="e",
                        severity="error", status=status, actual=3, expected="> 0")
    return RunResult(run_id=run_id, reference_time="2026-11-01T00:00:00+00:00", started_at="s", finished_at="f",
                     results=[r]).to_json()


def _trigger(tmp_path, **kw) -> tuple[DataQualityResultTrigger, object]:
    loc = result_location(str(tmp_path), "dag/task/run/try-1")
    trig = DataQualityResultTrigger(location={"spark_uri": loc.spark_uri, "reader_uri": loc.reader_uri,
                                              "conn_id": loc.conn_id}, run_id="run-1", poll_interval=0.05,
                                    context={"attempt": 1}, **kw)
    return trig, loc


def _events(trigger, limit: int = 5) -> list:
    async def collect():
        out = []
        async for event in trigger.run():
            out.append(event.payload)
            if len(out) >= limit:
                break
        return out

    return asyncio.run(asyncio.wait_for(collect(), timeout=30))


def test_serialize_round_trips(tmp_path):
    trig, _ = _trigger(tmp_path, pid=123, host="h", log_path="/x.log", timeout=9)
    classpath, kwargs = trig.serialize()
    module, _, name = classpath.rpartition(".")
    clone = getattr(importlib.import_module(module), name)(**kwargs)
    assert clone.serialize() == (classpath, kwargs)
    assert kwargs["context"] == {"attempt": 1} and kwargs["timeout"] == 9.0

    wait = DataQualityWaitTrigger(0.5, {"attempt": 2})
    path, kw = wait.serialize()
    assert getattr(importlib.import_module(path.rpartition(".")[0]), path.rpartition(".")[2])(**kw).serialize() == (
        path, kw)


def test_yields_one_done_event_when_the_result_lands(tmp_path):
    trig, loc = _trigger(tmp_path, timeout=20)
    path = tmp_path / "dag/task/run/try-1/result.json"
    path.parent.mkdir(parents=True)

    def land():
        time.sleep(0.3)
        path.write_text(_doc("run-1", "fail"))

    import threading

    threading.Thread(target=land).start()
    events = _events(trig)
    assert len(events) == 1
    assert events[0]["status"] == "done" and events[0]["outcome"] == "fail"
    assert events[0]["summary"]["by_status"]["fail"] == 1 and events[0]["context"] == {"attempt": 1}


def test_another_runs_document_is_not_accepted(tmp_path):
    trig, _ = _trigger(tmp_path, timeout=0.3)
    path = tmp_path / "dag/task/run/try-1/result.json"
    path.parent.mkdir(parents=True)
    path.write_text(_doc("an-earlier-run"))
    events = _events(trig)
    assert [e["status"] for e in events] == ["timeout"]
    assert "not to this run 'run-1'" in events[0]["message"]


def test_a_job_that_dies_without_a_result_ends_the_wait_at_once(tmp_path):
    import socket

    log = tmp_path / "submit.log"
    log.write_text("Exception in thread main: boom\n")
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    trig, _ = _trigger(tmp_path, pid=proc.pid, host=socket.gethostname(), log_path=str(log), timeout=60)
    started = time.monotonic()
    events = _events(trig)
    assert time.monotonic() - started < 10
    assert [e["status"] for e in events] == ["error"]
    assert f"spark-submit (pid {proc.pid}) ended without a usable result" in events[0]["message"]
    assert "boom" in events[0]["message"]


def test_wait_trigger_wakes_once():
    events = _events(DataQualityWaitTrigger(0.1, {"attempt": 3}))
    assert events == [{"status": "wake", "context": {"attempt": 3}}]
