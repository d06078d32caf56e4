"""The document outline of a neighbouring document (issue 15 point 5): the entries a reader looks for.

Workflow: statuses (their events as children), roles, run specs, run states, caps. Board: tasks grouped
by lane. Episode record: episodes grouped by standing. The entries are `navigation.Symbol`s, so the
shell converts them as it does a graph's; pointers only, never text.
"""

from __future__ import annotations

from grooph_core.ide.grooph.navigation import Symbol
from grooph_core.model.board import LANES
from grooph_core.model.episodes import standings
from grooph_core.source.text import pointer_escape


def _dict(v: object) -> dict:
    return v if isinstance(v, dict) else {}


def _list(v: object) -> list:
    return v if isinstance(v, list) else []


def _s(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


def _entries(mapping: object, base: str, kind: str, detail=lambda v: "", children=lambda p, v: ()) -> list[Symbol]:
    """One entry per key of a mapping: the key is its name (the selection)."""
    out = []
    for key, value in _dict(mapping).items():
        p = f"{base}/{pointer_escape(str(key))}"
        out.append(Symbol(str(key), detail(value), kind, p, p, tuple(children(p, value)), on_key=True))
    return out


def _group(name: str, pointer: str, children: list[Symbol]) -> Symbol:
    return Symbol(name, str(len(children)), "list", pointer, None, tuple(children))


def _workflow(doc: dict) -> list[Symbol]:
    def events(p: str, status: object) -> list[Symbol]:
        return _entries(_dict(status).get("on"), p + "/on", "event", lambda v: f"{len(_list(v))} transition(s)")

    def status_detail(v: object) -> str:
        return _s(_dict(v).get("description")) or ""

    run = _dict(doc.get("run"))
    groups = [
        ("statuses", "/statuses", _entries(doc.get("statuses"), "/statuses", "status", status_detail, events)),
        ("roles", "/roles", _entries(doc.get("roles"), "/roles", "role", lambda v: v if isinstance(v, str) else "")),
        ("run specs", "/run/roles", _entries(run.get("roles"), "/run/roles", "run spec",
                                              lambda v: _s(_dict(v).get("role")) or "")),
        ("run states", "/run/states", _entries(run.get("states"), "/run/states", "run state", status_detail, events)),
    ]
    caps = []
    for i, cap in enumerate(_list(_dict(doc.get("dispatch")).get("capacity"))):
        c = _dict(cap)
        p = f"/dispatch/capacity/{i}"
        caps.append(Symbol(_s(c.get("name")) or "(no name)", _s(c.get("scope")) or "", "cap", p,
                           p + "/name" if "name" in c else None))
    groups.append(("caps", "/dispatch/capacity", caps))
    return [_group(name, p, items) for name, p, items in groups if items]


def _grouped(items: list[tuple[str, Symbol]], pointer: str, none_label: str, words: tuple[str, ...]) -> list[Symbol]:
    """Entries grouped by a word (lane, standing): the model's words in its order, then any other word
    in order of first appearance, each group's entries in document order."""
    groups: dict[str, list[Symbol]] = {}
    for word, sym in items:
        groups.setdefault(word, []).append(sym)
    rank = {w: i for i, w in enumerate(words)}
    order = sorted(groups, key=lambda w: rank.get(w, len(rank)))  # stable: unknown words keep their order
    return [_group(word or none_label, pointer, groups[word]) for word in order]


def _board(doc: dict) -> list[Symbol]:
    tasks = []
    for key, task in _dict(doc.get("tasks")).items():
        t = _dict(task)
        p = f"/tasks/{pointer_escape(str(key))}"
        tasks.append((_s(t.get("lane")) or "", Symbol(str(key), _s(t.get("title")) or "", "task", p, p, on_key=True)))
    return _grouped(tasks, "/tasks", "(no lane)", tuple(LANES))


def _episodes(doc: dict) -> list[Symbol]:
    rows = []
    for i, row in enumerate(_list(doc.get("episodes"))):
        r = _dict(row)
        p = f"/episodes/{i}"
        rows.append((_s(r.get("standing")) or "", Symbol(_s(r.get("session_id")) or "(no session id)",
                                                         _s(r.get("note")) or _s(r.get("path")) or "", "episode", p,
                                                         p + "/session_id" if "session_id" in r else None)))
    return _grouped(rows, "/episodes", "(no standing)", standings())


_OUTLINES = {"workflow": _workflow, "board": _board, "episodes": _episodes}


def neighbour_symbols(value: object, kind: str) -> list[Symbol]:
    """The outline of a neighbouring document of `kind` (`NeighbourKind.name`); [] for what is not an object."""
    outline = _OUTLINES.get(kind)
    if outline is None or not isinstance(value, dict):
        return []
    return outline(value)
