"""The gating policy: what a data-quality outcome does to the task (succeed, fail, retry, skip).

Pure functions over a RunResult, so the policy is testable without Airflow or Spark.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from airflow_dq.core.results import RunResult

FAIL_ON = ("error", "warn", "never")
ON_EMPTY = ("fail", "warn", "skip", "ignore")
_RANK = {"pass": 0, "warn": 1, "fail": 2}


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not valid; use one of: {', '.join(allowed)}")
    return value


def empty_inputs(result: RunResult) -> list[str]:
    """Entities whose source was read and has 0 rows (a source that could not be read is not 'empty')."""
    return [d["entity"] for d in result.datasets if d.get("rows") == 0 and "error" not in d]


@dataclass(frozen=True)
class Verdict:
    outcome: str  # pass | warn | fail: the assertions' outcome with the empty-input policy applied
    action: str  # succeed | fail | skip
    reason: str
    empty: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "action": self.action, "reason": self.reason, "empty_inputs": self.empty}


def decide(result: RunResult, fail_on: str = "error", on_empty: str = "fail") -> Verdict:
    """Apply ``on_empty`` (fail | warn | skip | ignore) then ``fail_on`` (error | warn | never)."""
    check_choice("fail_on", fail_on, FAIL_ON)
    check_choice("on_empty", on_empty, ON_EMPTY)
    outcome = result.outcome
    empty = empty_inputs(result)
    notes = []
    if empty and on_empty != "ignore":
        listed = ", ".join(empty)
        if on_empty == "skip":
            return Verdict(outcome, "skip", f"empty input (0 rows): {listed}; on_empty='skip'", empty)
        raised = "fail" if on_empty == "fail" else "warn"
        if _RANK[raised] > _RANK[outcome]:
            outcome = raised
        notes.append(f"empty input (0 rows): {listed} counts as {raised.upper()} (on_empty={on_empty!r})")
    if fail_on == "never" or outcome == "pass" or (outcome == "warn" and fail_on == "error"):
        action = "succeed"
    else:
        action = "fail"
    notes.append(f"outcome {outcome.upper()} with fail_on={fail_on!r} → task {action}s"
                 if action == "fail" else f"outcome {outcome.upper()} with fail_on={fail_on!r} → task succeeds")
    return Verdict(outcome, action, "; ".join(notes), empty)
