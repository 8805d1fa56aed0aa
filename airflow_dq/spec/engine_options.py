"""Engine options a user may set per run (plan ``options``): validated here, before any Spark job starts."""

from __future__ import annotations

from typing import Any, Mapping

from airflow_dq.spec.errors import SpecError

_BOOL = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def _distinct(v: Any) -> str:
    if str(v) not in ("exact", "approximate"):
        raise ValueError("use exact or approximate")
    return str(v)


def _rsd(v: Any) -> float:
    value = float(v)
    if not 0 < value < 1:
        raise ValueError("use a relative standard deviation between 0 and 1, e.g. 0.05")
    return value


def _flag(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if str(v).lower() in _BOOL:
        return _BOOL[str(v).lower()]
    raise ValueError("use true or false")


# option -> parser; see docs/benchmarks.md for what each does
ENGINE_OPTIONS = {
    "distinct": _distinct,          # exact (default) or approximate (HyperLogLog++) distinct counts
    "distinct_rsd": _rsd,           # accuracy of approximate distinct counts
    "footer_stats": _flag,          # answer exact metrics from Parquet footers (default true)
    "lean_planning": _flag,         # fewer py4j round trips while planning (default true)
    "pack_counts": _flag,           # several row counts per aggregation buffer field (default true)
}


def parse_engine_options(options: Mapping[str, Any] | list[str] | None) -> dict:
    """A mapping, or CLI-style ``KEY=VALUE`` strings → validated options; unknown keys and bad values refused."""
    if not options:
        return {}
    if not isinstance(options, Mapping):
        pairs = {}
        for text in options:
            key, sep, value = str(text).partition("=")
            if not sep:
                raise SpecError(f"engine option {text!r}: expected KEY=VALUE")
            pairs[key.strip()] = value.strip()
        options = pairs
    out = {}
    for key, value in options.items():
        if key not in ENGINE_OPTIONS:
            raise SpecError(f"unknown engine option {key!r}; known: {', '.join(ENGINE_OPTIONS)}")
        try:
            out[key] = ENGINE_OPTIONS[key](value)
        except (TypeError, ValueError) as exc:
            raise SpecError(f"engine option {key}={value!r}: {exc}") from None
    return out
