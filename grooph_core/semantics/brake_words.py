"""A loop's brakes in words (graph.md §1.5 stops): what a code lens above a loop and an inlay hint at its
`stops` say."""

from __future__ import annotations

from grooph_core.semantics.graph_shape import budget_strings
from grooph_core.source.text import is_integer, is_number, js_number


def _rounds(n: object) -> str:
    return f"{js_number(n)} round" + ("" if n == 1 else "s")


def stop_words(stop: dict) -> str | None:
    """One brake (graph.md §1.5 stops) in a few words; None for a stop that is not well formed."""
    kind = stop.get("kind")
    if kind == "max-iterations" and is_integer(stop.get("n")):
        return "≤ " + _rounds(stop["n"])
    if kind == "budget" and isinstance(stop.get("measure"), str) and is_number(stop.get("limit")):
        return budget_strings([{"stops": [stop]}])[0]
    if kind == "human":
        every = stop.get("every")
        return f"a person every {_rounds(every)}" if is_integer(every) else "a person decides"
    if kind == "bar-passed":
        return "until the bar passes"
    if kind == "diminishing-returns" and is_integer(stop.get("rounds")):
        return f"{_rounds(stop['rounds'])} without gain"
    if kind == "evidence-invalid" and is_integer(stop.get("rounds")):
        return f"{_rounds(stop['rounds'])} of bad evidence"
    return None


def loop_brakes_words(loop: dict) -> str:
    """The loop's brakes in stop order joined by ` · `, e.g. `≤ 5 rounds · 30 minutes`; `no brakes`
    when it has none."""
    stops = loop.get("stops") if isinstance(loop.get("stops"), list) else []
    words = [w for w in (stop_words(s) for s in stops if isinstance(s, dict)) if w]
    return " · ".join(words) if words else "no brakes"
