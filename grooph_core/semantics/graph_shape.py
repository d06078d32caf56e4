"""The shape of a graph: the counts and brakes `grooph shape` prints for a graph (cli.md §3.2).

Works on a graph that passed the structural check (graph.md §4). `worstCaseRounds` and `budgets`
are the same numbers `explain` reports (cli.md §4).
"""

from __future__ import annotations

from grooph_core.source.text import is_integer, js_number

TIERS = ("frontier", "strong", "fast")
TIER_WORDS = {"frontier": "frontier", "strong": "strong", "fast": "fast", "unset": "session default"}


def _items(doc: dict, key: str) -> list:
    v = doc.get(key) if isinstance(doc, dict) else None
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _int(v: int | float) -> int | float:
    return int(v) if is_integer(v) and abs(v) < 2**53 else v


def loop_cap(loop: dict) -> int | float | None:
    """The smallest `n` of the loop's max-iterations stops, or None when it has none."""
    caps = [_int(s["n"]) for s in _items(loop, "stops") if s.get("kind") == "max-iterations" and is_integer(s.get("n"))]
    return min(caps) if caps else None


def worst_case_rounds(loops: list[dict]) -> int | float | None:
    """cli.md §3.2: None when any loop has no max-iterations stop; else the sum over loops of the
    loop's cap times the cap of every loop enclosing it (A encloses B when B's member set is a proper
    subset of A's). No loop gives 0."""
    caps = [loop_cap(lp) for lp in loops]
    if any(c is None for c in caps):
        return None
    members = [frozenset(m for m in lp.get("members", []) if isinstance(m, str)) for lp in loops]
    total: int | float = 0
    for b, cap in enumerate(caps):
        rounds = cap
        for a, outer in enumerate(caps):
            if a != b and members[b] < members[a]:
                rounds = rounds * outer  # type: ignore[operator]
        total += rounds  # type: ignore[operator]
    return _int(total) if isinstance(total, float) else total


def budget_strings(loops: list[dict]) -> list[str]:
    """cli.md §3.2: one string per budget stop, loop and stop order: `<limit> <measure>` (`$<limit>` for
    usd), prefixed by `<loop name or id>: ` when more than one loop has a budget."""
    found: list[tuple[dict, dict]] = [(lp, s) for lp in loops for s in _items(lp, "stops") if s.get("kind") == "budget"]
    prefixed = len({id(lp) for lp, _ in found}) > 1
    out = []
    for lp, s in found:
        limit = js_number(s.get("limit", 0))
        text = f"${limit}" if s.get("measure") == "usd" else f"{limit} {s.get('measure')}"
        if prefixed:
            name = lp.get("name")
            text = f"{name if isinstance(name, str) and name != '' else lp.get('id')}: {text}"
        out.append(text)
    return out


def graph_shape(doc: dict) -> dict:
    """cli.md §3.2: `agents`, `checks`, `gates`, `loops`, `tiers` {frontier, strong, fast, unset},
    `worstCaseRounds`, `budgets`, keys in that order."""
    nodes = _items(doc, "nodes")
    loops = _items(doc, "loops")
    agents = [n for n in nodes if n.get("kind") == "agent"]
    tiers = {"frontier": 0, "strong": 0, "fast": 0, "unset": 0}
    for a in agents:
        model = a.get("model")
        tier = model.get("tier") if isinstance(model, dict) else None
        tiers[tier if tier in TIERS else "unset"] += 1
    gates = sum(1 for n in nodes if n.get("kind") == "human-gate")
    gates += sum(1 for e in _items(doc, "edges") if e.get("approval") is True)
    return {
        "agents": len(agents),
        "checks": sum(1 for n in nodes if n.get("kind") == "check"),
        "gates": gates,
        "loops": len(loops),
        "tiers": tiers,
        "worstCaseRounds": worst_case_rounds(loops),
        "budgets": budget_strings(loops),
    }


def _n(n: int | float, word: str) -> str:
    return f"{js_number(n)} {word}" + ("" if n == 1 else "s")


def graph_shape_line(shape: dict) -> str:
    """cli.md §3.2 shape line, e.g. `2 agents · 1 gate · 1 loop · up to 4 rounds · 10 dispatches`."""
    parts = [_n(shape["agents"], "agent")]
    if shape["checks"]:
        parts.append(_n(shape["checks"], "check"))
    if shape["gates"]:
        parts.append(_n(shape["gates"], "gate"))
    if shape["loops"] == 0:
        parts.append("no loop")
    else:
        parts.append(_n(shape["loops"], "loop"))
        rounds = shape["worstCaseRounds"]
        parts.append("no round cap" if rounds is None else "up to " + _n(rounds, "round"))
    parts.extend(shape["budgets"])
    return " · ".join(parts)


def tier_line(shape: dict) -> str:
    """cli.md §3.2 tier line: `<n> frontier · <n> strong · <n> fast · <n> session default`, zero
    counts left out."""
    return " · ".join(f"{n} {TIER_WORDS[k]}" for k, n in shape["tiers"].items() if n)
