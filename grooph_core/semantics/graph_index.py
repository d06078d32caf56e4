"""The derived notions of a graph document that the rules depend on (graph.md §2).

Plain functions over the parsed document (dicts and lists from `json.loads`). `build_index` builds the
shared `GraphIndex` once per validation (graph.md §2.1); everything else reads it. Every walk is
iterative (no recursion that a deep or ringed document could overflow) and linear in the document
unless its docstring says otherwise. The functions tolerate values of the wrong JSON type (they skip
them), so a document that did not pass the schema check never makes them raise.

Teammates (pictures, repairs, the language server) import these; the names follow the spec's words.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterable, Iterator, Mapping, Sequence

# graph.md §2.2 role families and §3.4 the harnesses with a compiler are facts of the model.
from grooph_core.model.graph import CRITIC_ROLES, LEAD_ROLE, WRITER_ROLES
from grooph_core.model.markers import KNOWN_HARNESSES
from grooph_core.source.text import JS_WHITESPACE, js_key_order, pointer_escape, utf16_key

# graph.md §2.14: a max-iterations cap of this many rounds or fewer is short.
SHORT_CAP = 5


# ---------------------------------------------------------------------------------------------------
# Small tolerant accessors


def items(value: object, key: str) -> list:
    """`value[key]` when `value` is an object and that is an array; else an empty list."""
    if isinstance(value, dict):
        v = value.get(key)
        if isinstance(v, list):
            return v
    return []


def str_id(value: object) -> str | None:
    """The object's `id` when it is an object with a string id."""
    if isinstance(value, dict):
        v = value.get("id")
        if isinstance(v, str):
            return v
    return None


def strings(values: Iterable) -> Iterator[str]:
    """Only the string entries of a list (schema-valid lists hold nothing else)."""
    return (v for v in values if isinstance(v, str))


def distinct(values: Iterable[str]) -> list[str]:
    """The strings of `values` without repeats, in first-occurrence order."""
    return list(dict.fromkeys(strings(values)))


# ---------------------------------------------------------------------------------------------------
# §2.2 Role families, person steps, the lead


def is_agent(node: object) -> bool:
    return isinstance(node, dict) and node.get("kind") == "agent"


def role_name(node: object) -> str | None:
    """The agent's role when it is one of the named roles (a string); None for custom roles."""
    if is_agent(node):
        r = node.get("role")  # type: ignore[union-attr]
        if isinstance(r, str):
            return r
    return None


def is_critic_family(node: object) -> bool:
    """An agent whose role is `critic`, `judge` or `red-team` (custom roles never are)."""
    return role_name(node) in CRITIC_ROLES


def is_writer_family(node: object) -> bool:
    """An agent with role `builder`/`synthesizer`/`planner`, or a custom role with a non-empty `owns`."""
    if not is_agent(node):
        return False
    r = node.get("role")  # type: ignore[union-attr]
    if isinstance(r, str):
        return r in WRITER_ROLES
    return isinstance(r, dict) and len(items(node, "owns")) > 0


def is_person_step(node: object) -> bool:
    """An agent node with `by: "person"` (a human gate is a person's decision, not a step)."""
    return is_agent(node) and node.get("by") == "person"  # type: ignore[union-attr]


def is_lead(node: object) -> bool:
    """An agent whose role is the string `lead` (a person's step included)."""
    return role_name(node) == LEAD_ROLE


# ---------------------------------------------------------------------------------------------------
# §2.1 Indexes


@dataclass(frozen=True)
class GraphIndex:
    """The indexes of graph.md §2.1 plus the per-loop facts several rules share.

    Lists are the document's own arrays (positions are document indices, used for JSON pointers).
    `*_pos` map an id to the position of the first object carrying it (§0 "id lookup").
    `incoming[x]` / `outgoing[x]` hold edge positions in document order, whether or not a node x
    exists. Entry nodes and the reached set are computed on first use and kept.
    """

    doc: dict
    graph_id: str
    nodes: list
    edges: list
    loops: list
    groups: list
    policies: list
    node_pos: dict[str, int]
    edge_pos: dict[str, int]
    loop_pos: dict[str, int]
    group_pos: dict[str, int]
    policy_pos: dict[str, int]
    incoming: dict[str, list[int]]
    outgoing: dict[str, list[int]]
    back_ids: frozenset[str]
    loop_members: tuple[frozenset[str], ...]  # per loop position
    loop_exits: tuple[tuple[str, ...], ...]  # per loop position (§2.6)
    exit_ids: frozenset[str]  # stop exits of every loop
    loops_by_member: dict[str, list[int]]  # node id -> positions of loops listing it (each once)

    # -- lookups -----------------------------------------------------------------------------------

    def node(self, node_id: object) -> dict | None:
        """The first node with this id, or None."""
        p = self.node_pos.get(node_id) if isinstance(node_id, str) else None
        return None if p is None else self.nodes[p]

    def edge(self, edge_id: object) -> dict | None:
        p = self.edge_pos.get(edge_id) if isinstance(edge_id, str) else None
        return None if p is None else self.edges[p]

    def loop(self, loop_id: object) -> dict | None:
        p = self.loop_pos.get(loop_id) if isinstance(loop_id, str) else None
        return None if p is None else self.loops[p]

    def group(self, group_id: object) -> dict | None:
        p = self.group_pos.get(group_id) if isinstance(group_id, str) else None
        return None if p is None else self.groups[p]

    def is_node(self, x: object) -> bool:
        return isinstance(x, str) and x in self.node_pos

    def is_edge(self, x: object) -> bool:
        return isinstance(x, str) and x in self.edge_pos

    def is_loop(self, x: object) -> bool:
        return isinstance(x, str) and x in self.loop_pos

    def is_group(self, x: object) -> bool:
        return isinstance(x, str) and x in self.group_pos

    def node_order(self, node_id: object) -> int:
        """§2.1 nodeOrder: index of the first node with the id; ids that are no node sort as 0."""
        return self.node_pos.get(node_id, 0) if isinstance(node_id, str) else 0

    def sort_by_node_order(self, ids: Iterable[str]) -> list[str]:
        """Stable sort by node order (§2.1)."""
        return sorted(ids, key=self.node_order)

    def is_back_edge(self, edge: object) -> bool:
        """§2.3: the edge's id is listed in some loop's `back`."""
        e = str_id(edge)
        return e is not None and e in self.back_ids

    def edge_id_at(self, pos: int) -> str:
        return str_id(self.edges[pos]) or ""

    # -- derived, computed once ----------------------------------------------------------------------

    @cached_property
    def entries(self) -> list[str]:
        """§2.7 entry node ids, document order, duplicates included."""
        return entry_nodes(self)

    @cached_property
    def reached(self) -> set[str]:
        """§2.8 the reached set from the entry nodes ("reachable")."""
        return reached_from(self, self.entries)


def _positions(lst: list) -> dict[str, int]:
    """id -> position of the first object carrying it (§0 "id lookup")."""
    pos: dict[str, int] = {}
    for i, obj in enumerate(lst):
        k = str_id(obj)
        if k is not None and k not in pos:
            pos[k] = i
    return pos


def _edge_ends(edges: list) -> tuple:
    incoming: dict[str, list[int]] = {}
    outgoing: dict[str, list[int]] = {}
    for i, e in enumerate(edges):
        if not isinstance(e, dict):
            continue
        f, t = e.get("from"), e.get("to")
        if isinstance(t, str):
            incoming.setdefault(t, []).append(i)
        if isinstance(f, str):
            outgoing.setdefault(f, []).append(i)
    return incoming, outgoing


def _loop_facts(loops: list) -> tuple:
    back: set[str] = set()
    members: list[frozenset[str]] = []
    exits: list[tuple[str, ...]] = []
    all_exits: set[str] = set()
    by_member: dict[str, list[int]] = {}
    for li, loop in enumerate(loops):
        back.update(b for b in items(loop, "back") if isinstance(b, str))
        listed = [x for x in items(loop, "members") if isinstance(x, str)]
        m = frozenset(listed)
        members.append(m)
        for x in (m if len(m) == len(listed) else dict.fromkeys(listed)):
            by_member.setdefault(x, []).append(li)
        ex = tuple(_exits(loop, m))
        exits.append(ex)
        all_exits.update(ex)
    return frozenset(back), tuple(members), tuple(exits), frozenset(all_exits), by_member


def _graph_id(doc: dict) -> str:
    gid = doc.get("id")
    return gid if isinstance(gid, str) else ""


@dataclass(frozen=True)
class IndexPart:
    """Some fields of `GraphIndex`, built together by `build(doc)` (their values in order) from `reads` (as a
    rule's `reads`: the root's members under "", per top-level list the fields of its items;
    tests/core/rules/test_rule_reads.py proves them). The incremental analysis (issue 33) rebuilds only the
    parts whose inputs an edit changed."""

    fields: tuple[str, ...]
    build: Callable[[dict], tuple]
    reads: dict[str, frozenset[str]]


def _position_part(list_name: str, field_name: str) -> IndexPart:
    return IndexPart((field_name,), lambda doc: (_positions(items(doc, list_name)),),
                     {list_name: frozenset({"id"})})


INDEX_PARTS: tuple[IndexPart, ...] = (
    IndexPart(("graph_id",), lambda doc: (_graph_id(doc),), {"": frozenset({"id"})}),
    _position_part("nodes", "node_pos"),
    _position_part("edges", "edge_pos"),
    _position_part("loops", "loop_pos"),
    _position_part("groups", "group_pos"),
    _position_part("policies", "policy_pos"),
    IndexPart(("incoming", "outgoing"), lambda doc: _edge_ends(items(doc, "edges")),
              {"edges": frozenset({"from", "to"})}),
    IndexPart(("back_ids", "loop_members", "loop_exits", "exit_ids", "loops_by_member"),
              lambda doc: _loop_facts(items(doc, "loops")),
              {"loops": frozenset({"back", "members", "stops"})}),
)
# GraphIndex fields that are the document's own objects (what is read through them is the reader's).
_LISTS = ("nodes", "edges", "loops", "groups", "policies")
# Fields computed on first use from the parts above (`reached`, `entries`): kept while no part changes.
_CACHED = ("entries", "reached")


def build_index(doc: dict) -> GraphIndex:
    """Build the shared indexes of graph.md §2.1 (and §2.3, §2.6) in one pass over each list (the parts of
    `INDEX_PARTS`, called directly: this runs on every analysis)."""
    if not isinstance(doc, dict):
        doc = {}
    nodes, edges, loops = items(doc, "nodes"), items(doc, "edges"), items(doc, "loops")
    groups, policies = items(doc, "groups"), items(doc, "policies")
    return GraphIndex(doc, _graph_id(doc), nodes, edges, loops, groups, policies, _positions(nodes),
                      _positions(edges), _positions(loops), _positions(groups), _positions(policies),
                      *_edge_ends(edges), *_loop_facts(loops))


def updated_index(old: GraphIndex, doc: dict, touched: Callable[[Mapping[str, frozenset[str]]], bool]) -> GraphIndex:
    """The index of `doc`, a later version of `old.doc` with the same list lengths (issue 33): the parts
    whose `reads` the edit `touched` are built again, the others (and the cached ones, when no part
    changed) taken from `old`."""
    fields: dict = {name: items(doc, name) for name in _LISTS}
    rebuilt = False
    for part in INDEX_PARTS:
        if touched(part.reads):
            fields.update(zip(part.fields, part.build(doc)))
            rebuilt = True
        else:
            fields.update((k, getattr(old, k)) for k in part.fields)
    new = GraphIndex(doc=doc, **fields)
    if not rebuilt:
        for k in _CACHED:
            if k in old.__dict__:
                new.__dict__[k] = old.__dict__[k]
    return new


# ---------------------------------------------------------------------------------------------------
# §2.4 Loop mode, §2.5 inspectable bar, §2.6 stop exits


def loop_mode(loop: dict, index: GraphIndex) -> str:
    """`mode` when present; else `grind` unless some existing back edge starts anywhere but a check."""
    mode = loop.get("mode") if isinstance(loop, dict) else None
    if isinstance(mode, str):
        return mode
    resolved = [index.edge(b) for b in strings(items(loop, "back"))]
    resolved = [e for e in resolved if e is not None]
    for e in resolved:
        src = index.node(e.get("from"))
        if src is None or src.get("kind") != "check":
            return "judgment"
    return "grind"


def inspectable_entries(loop: dict, index: GraphIndex) -> list[int]:
    """Positions in `bar.inspects` that count (§2.5): `answer-key` only with an existing answer source."""
    bar = loop.get("bar") if isinstance(loop, dict) else None
    if not isinstance(bar, dict):
        return []
    has_key_source = index.is_node(bar.get("answerKeyFrom"))
    out = []
    for i, ev in enumerate(items(bar, "inspects")):
        if not isinstance(ev, dict):
            continue
        if ev.get("kind") == "answer-key" and not has_key_source:
            continue
        out.append(i)
    return out


def has_inspectable_bar(loop: dict, index: GraphIndex) -> bool:
    """§2.5: the loop has a bar with at least one inspectable entry."""
    return bool(inspectable_entries(loop, index))


def stop_exits(loop: dict) -> list[str]:
    """§2.6: the `then` values of the loop's stops that are not members of the loop, in stop order."""
    return _exits(loop, frozenset(strings(items(loop, "members"))))


def _exits(loop: dict, members: frozenset[str]) -> list[str]:
    out = []
    for stop in items(loop, "stops"):
        t = stop.get("then") if isinstance(stop, dict) else None
        if isinstance(t, str) and t not in members:
            out.append(t)
    return out


def stop_kind(stop: object) -> str:
    k = stop.get("kind") if isinstance(stop, dict) else None
    return k if isinstance(k, str) else "?"


# ---------------------------------------------------------------------------------------------------
# §2.7 Entry nodes, §2.8 reachability


def is_entry_node(node_id: str, index: GraphIndex) -> bool:
    """§2.7: every incoming edge is a back edge, and no other loop's stop continues at the node."""
    if node_id in index.exit_ids:
        return False
    for p in index.incoming.get(node_id, ()):
        if not index.is_back_edge(index.edges[p]):
            return False
    return True


def entry_nodes(index: GraphIndex) -> list[str]:
    """§2.7: the entry node ids in document order (duplicated ids appear once per node)."""
    out = []
    for n in index.nodes:
        nid = str_id(n)
        if nid is not None and is_entry_node(nid, index):
            out.append(nid)
    return out


def reached_from(index: GraphIndex, starts: Iterable[str]) -> set[str]:
    """§2.8: breadth-first along every outgoing edge (back edges too) and the stop exits of the loops
    the reached node belongs to; only existing node ids are ever added."""
    reached: set[str] = set()
    queue: deque[str] = deque()
    for s in starts:
        if index.is_node(s) and s not in reached:
            reached.add(s)
            queue.append(s)
    loops_done: set[int] = set()  # a loop's exits need adding only once
    while queue:
        x = queue.popleft()
        for p in index.outgoing.get(x, ()):
            t = index.edges[p].get("to")
            if t not in reached and index.is_node(t):
                reached.add(t)
                queue.append(t)
        for li in index.loops_by_member.get(x, ()):
            if li in loops_done:
                continue
            loops_done.add(li)
            for t in index.loop_exits[li]:
                if t not in reached and index.is_node(t):
                    reached.add(t)
                    queue.append(t)
    return reached


# ---------------------------------------------------------------------------------------------------
# §2.9 Policy scope coverage


def policy_covers_edge(policy: dict, edge: dict, index: GraphIndex) -> bool:
    """§2.9: graph; edge:<its id>; node:<its from or to>; loop:<an existing loop listing its `to`>."""
    scope = policy.get("scope") if isinstance(policy, dict) else None
    if not isinstance(scope, str):
        return False
    if scope == "graph":
        return True
    kind, _, x = scope.partition(":")
    if kind == "edge":
        return x == edge.get("id")
    if kind == "node":
        return x == edge.get("from") or x == edge.get("to")
    if kind == "loop":
        p = index.loop_pos.get(x)
        return p is not None and edge.get("to") in index.loop_members[p]
    return False


# ---------------------------------------------------------------------------------------------------
# §2.10 Nearest writers, model keys


def nearest_writers(index: GraphIndex, node_id: str) -> list[str]:
    """§2.10: walk upstream over non-back edges, stopping at (and recording) each writer-family node.
    Returns the writer ids in discovery order (the spec's set, made deterministic)."""
    visited = {node_id}
    found: list[str] = []
    queue: deque[str] = deque([node_id])
    while queue:
        cur = queue.popleft()
        for p in index.incoming.get(cur, ()):
            e = index.edges[p]
            if index.is_back_edge(e):
                continue
            f = e.get("from")
            if not isinstance(f, str) or f in visited:
                continue
            visited.add(f)
            if is_writer_family(index.node(f)):
                found.append(f)
            else:
                queue.append(f)
    return found


def named_harness(doc: dict) -> str | None:
    """§2.10: `target.harness` when it is a non-blank string (used as written); else None ("none")."""
    t = doc.get("target") if isinstance(doc, dict) else None
    h = t.get("harness") if isinstance(t, dict) else None
    if isinstance(h, str) and h.strip(JS_WHITESPACE) != "":
        return h
    return None


ModelKey = tuple  # ("pin", harness, model) or ("tier", tier-or-None, ((harness, model), ...))


def model_key(node: dict, harness: str | None) -> ModelKey:
    """§2.10: the pin for the named harness alone, else the tier (or the session default) plus, only
    when no harness is named, every pin sorted by harness name (UTF-16 order, §0.3)."""
    model = node.get("model") if isinstance(node, dict) else None
    pin = model.get("pin") if isinstance(model, dict) else None
    pin = pin if isinstance(pin, dict) else {}
    if harness is not None and harness in pin:
        return ("pin", harness, pin[harness])
    tier = model.get("tier") if isinstance(model, dict) else None
    pins: tuple = ()
    if harness is None:
        pins = tuple((h, pin[h]) for h in sorted(pin, key=utf16_key))
    return ("tier", tier if isinstance(model, dict) else None, pins)


def render_model_key(key: ModelKey) -> str:
    """`tier strong`, `the session default`, `tier strong, pin codex: gpt-x`, `pin claude-code: opus-x`."""
    if key[0] == "pin":
        return f"pin {key[1]}: {key[2]}"
    parts = ["the session default" if key[1] is None else f"tier {key[1]}"]
    parts += [f"pin {h}: {m}" for h, m in key[2]]
    return ", ".join(parts)


# ---------------------------------------------------------------------------------------------------
# §2.11 Group containment


def groups_listed_by(index: GraphIndex, group: dict) -> list[str]:
    """§2.11: the members of the group that name a group, in member order (repeats kept)."""
    return [m for m in strings(items(group, "members")) if m in index.group_pos]


def _distinct_groups_listed_by(index: GraphIndex, group: dict) -> list[str]:
    return list(dict.fromkeys(groups_listed_by(index, group)))


def groups_held_by(index: GraphIndex, group: dict) -> set[str]:
    """§2.11: the ids of every group the group holds (directly or through inner groups). The walk
    keeps a visited set, so rings end; on a ring the group holds itself."""
    held: set[str] = set()
    queue = deque(_distinct_groups_listed_by(index, group))
    held.update(queue)
    while queue:
        g = queue.popleft()
        for inner in _distinct_groups_listed_by(index, index.group(g)):
            if inner not in held:
                held.add(inner)
                queue.append(inner)
    return held


def group_holds(index: GraphIndex, group: dict, x: str) -> bool:
    """§2.11: the group holds group id `x`."""
    return x in groups_held_by(index, group)


def flattened_members(index: GraphIndex, group: dict) -> list[str]:
    """§2.11: members with every group replaced by its flattened members; a group already expanded in
    this flattening (the group itself included) is not expanded again. Non-group ids are kept."""
    out: list[str] = []
    expanded = set()
    gid = str_id(group)
    if gid is not None:
        expanded.add(gid)
    stack = [iter(items(group, "members"))]
    while stack:
        for m in stack[-1]:
            if not isinstance(m, str):
                continue
            if m in index.group_pos:
                if m not in expanded:
                    expanded.add(m)
                    stack.append(iter(items(index.group(m), "members")))
                    break
            else:
                out.append(m)
        else:
            stack.pop()
    return out


# ---------------------------------------------------------------------------------------------------
# §2.12 Slot search

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
SLOT_PATTERN = re.compile(r"\{\{" + _WS + r"*([^{}" + re.escape(JS_WHITESPACE) + r"]+)" + _WS + r"*\}\}")
"""`{{`, optional whitespace, a key without braces or whitespace, optional whitespace, `}}` (§2.12)."""

# Top-level keys whose values are not part of the graph holder (they are holders of their own, or
# never searched).
_NOT_GRAPH_TEXT = frozenset({"nodes", "edges", "loops", "policies", "groups", "notes", "layout", "template"})


@dataclass(frozen=True)
class SlotUse:
    """One distinct slot key: the holder ids it occurs in and the pointers of the strings holding it."""

    key: str
    holders: tuple[str, ...]
    pointers: tuple[str, ...]


def slot_holders(doc: dict) -> Iterator[tuple[str, str, object]]:
    """§2.12 holders in search order: (reported id, base pointer, value) — the graph's own text values
    one top-level key at a time, then every node, edge, loop, policy and group."""
    gid = doc.get("id")
    gid = gid if isinstance(gid, str) else ""
    for k in ordered_keys(doc):
        if k not in _NOT_GRAPH_TEXT:
            yield gid, "/" + pointer_escape(k), doc[k]
    for list_name in ("nodes", "edges", "loops", "policies", "groups"):
        for i, obj in enumerate(items(doc, list_name)):
            yield (str_id(obj) or ""), f"/{list_name}/{i}", obj


def ordered_keys(obj: dict) -> list[str]:
    """An object's keys in §0.4 order (integer-like keys first); the common case costs one scan."""
    for k in obj:
        if k[:1].isdigit():
            return js_key_order(obj.keys())
    return list(obj)


def iter_strings(value: object, base: str, *, containing: str | None = None) -> Iterator[tuple[str, str]]:
    """Every string inside a value with its pointer, depth-first, object keys in §0.4 order. With
    `containing`, only the strings that contain it (pointers are then built only for those)."""
    # Stack entries: (pointer of the parent, key or index, value); pointers are joined lazily.
    stack: list[tuple[str, object, object]] = [(base, None, value)]
    while stack:
        parent, key, v = stack.pop()
        if isinstance(v, str):
            if containing is None or containing in v:
                yield (parent if key is None else parent + "/" + (pointer_escape(key) if isinstance(key, str) else str(key))), v
            continue
        if not isinstance(v, (dict, list)):
            continue
        ptr = parent if key is None else parent + "/" + (pointer_escape(key) if isinstance(key, str) else str(key))
        if isinstance(v, dict):
            stack.extend((ptr, k, v[k]) for k in reversed(ordered_keys(v)))
        else:
            stack.extend((ptr, i, v[i]) for i in range(len(v) - 1, -1, -1))


def _may_hold_slot(value: object) -> bool:
    """A cheap pre-check: the value's JSON text contains `{{` (keys too, so it may say yes wrongly,
    never no wrongly: `{` is never escaped)."""
    if isinstance(value, str):
        return "{{" in value
    if not isinstance(value, (dict, list)):
        return False
    try:
        return "{{" in json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return True


def find_slots(doc: dict) -> list[SlotUse]:
    """§2.12: distinct slot keys in order of first discovery, each with its holder ids (each once, in
    discovery order) and the pointers of every string value containing it."""
    holders: dict[str, dict[str, None]] = {}
    pointers: dict[str, dict[str, None]] = {}
    if not _may_hold_slot(doc):
        return []
    for hid, base, value in slot_holders(doc if isinstance(doc, dict) else {}):
        if not _may_hold_slot(value):
            continue
        for ptr, s in iter_strings(value, base, containing="{{"):
            for m in SLOT_PATTERN.finditer(s):
                key = m.group(1)
                holders.setdefault(key, {})[hid] = None
                pointers.setdefault(key, {})[ptr] = None
    return [SlotUse(k, tuple(holders[k]), tuple(pointers[k])) for k in holders]


# ---------------------------------------------------------------------------------------------------
# Strongly connected components (iterative Tarjan)


def strongly_connected_components(vertices: Sequence[str], successors: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's algorithm without recursion. Components come in reverse topological order; vertices
    inside a component in no particular order (callers sort as the spec asks). A successor that is
    not in `vertices` is visited too (callers only pass successors they mean)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in vertices:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors.get(root, ())))]
        while work:
            v, it = work[-1]
            descended = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(successors.get(w, ()))))
                    descended = True
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            if descended:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
