"""Group rules: rings of groups and members held by groups that do not nest (graph.md §2.11, §5:
`E_GROUP_CYCLE`, `W_GROUP_OVERLAP`)."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, groups_held_by, items, str_id, strongly_connected_components

# The spec enumerates simple paths, which can explode on a dense tangle of groups. We prune every
# branch that cannot lead back to the start group (this changes no result), and on top of that stop
# after this many steps, so a pathological document costs bounded time. Our choice; real documents
# (groups nest like trees) never come near it.
GROUP_RING_STEP_LIMIT = 200_000


def _first_listed(index: GraphIndex) -> dict[str, list[str]]:
    """Group id -> distinct group ids its first holder lists, in member order."""
    out: dict[str, list[str]] = {}
    for gid, pos in index.group_pos.items():
        out[gid] = list(dict.fromkeys(m for m in items(index.groups[pos], "members")
                                      if isinstance(m, str) and m in index.group_pos))
    return out


def _member_entry(group: dict, target: str) -> int:
    for j, m in enumerate(items(group, "members")):
        if m == target:
            return j
    return 0


def group_rings(index: GraphIndex) -> list[tuple[list[str], int]]:
    """Every distinct ring (by its set of groups) at its first discovery: (path starting with the
    start group, position of the start group object). graph.md §5 `E_GROUP_CYCLE`."""
    listed = _first_listed(index)
    comp_of: dict[str, int] = {}
    comps = strongly_connected_components(list(index.group_pos), listed)
    for n, c in enumerate(comps):
        for g in c:
            comp_of[g] = n
    reverse: dict[str, list[str]] | None = None
    seen: set[frozenset[str]] = set()
    rings: list[tuple[list[str], int]] = []
    steps = 0
    for si, s_obj in enumerate(index.groups):
        sid = str_id(s_obj)
        if sid is None:
            continue
        if index.group_pos.get(sid) == si:
            allowed = set(comps[comp_of[sid]])
            if len(allowed) == 1 and sid not in listed[sid]:
                continue
        else:  # a later group with a duplicated id: who can lead back to that id?
            if reverse is None:
                reverse = {}
                for g, ls in listed.items():
                    for x in ls:
                        reverse.setdefault(x, []).append(g)
            allowed = set()
            queue = deque([sid])
            while queue:
                for g in reverse.get(queue.popleft(), ()):
                    if g not in allowed:
                        allowed.add(g)
                        queue.append(g)
        start_listed = list(dict.fromkeys(m for m in items(s_obj, "members")
                                          if isinstance(m, str) and m in index.group_pos))
        path = [sid]
        on_path = {sid}
        stack = [iter(start_listed)]
        while stack:
            if steps > GROUP_RING_STEP_LIMIT:
                return rings
            descended = False
            for nxt in stack[-1]:
                steps += 1
                if nxt == sid:
                    key = frozenset(path)
                    if key not in seen:
                        seen.add(key)
                        rings.append((list(path), si))
                elif nxt not in on_path and nxt in allowed:
                    path.append(nxt)
                    on_path.add(nxt)
                    stack.append(iter(listed[nxt]))
                    descended = True
                    break
            if not descended:
                stack.pop()
                on_path.discard(path.pop())
    return rings


@dataclass(frozen=True)
class GroupCycle(Facts):
    """E_GROUP_CYCLE: `ring` (the path), `closing_group_index`, `closing_member` (the index of the
    closing entry in that group's `members`)."""

    code = "E_GROUP_CYCLE"
    ring: tuple[str, ...]
    closing_group_index: int
    closing_member: int


def group_cycle_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per distinct ring of groups, at its first discovery (graph.md §5).

    Pointer: the member entry that closes the ring (in the last group of the path); `related`: the
    entries leading round the ring. Facts: `GroupCycle`."""
    out = []
    for path, si in group_rings(index):
        sid = path[0]
        positions = [si] + [index.group_pos[g] for g in path[1:]]
        last_pos = positions[-1]
        j = _member_entry(index.groups[last_pos], sid)
        related = []
        for k in range(len(path) - 1):
            jj = _member_entry(index.groups[positions[k]], path[k + 1])
            related.append((f"/groups/{positions[k]}/members/{jj}", f'group "{path[k]}" lists "{path[k + 1]}"'))
        if len(path) == 1:
            msg = f'group "{sid}" lists itself; groups must nest like a tree'
        else:
            msg = f"groups form a ring: {' → '.join(path + [sid])}; groups must nest like a tree"
        out.append(make("E_GROUP_CYCLE", msg, path, [f"/groups/{last_pos}/members/{j}"], related=related,
                        facts=GroupCycle(tuple(path), last_pos, j)))
    return out


def _and_list(ids: list[str]) -> str:
    q = [f'"{i}"' for i in ids]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]


@dataclass(frozen=True)
class GroupOverlap(Facts):
    """W_GROUP_OVERLAP: `member`, `member_kind` ("node" | "group"), `holders` (innermost ids),
    `holder_indexes` (their positions in `groups`)."""

    code = "W_GROUP_OVERLAP"
    member: str
    member_kind: str
    holders: tuple[str, ...]
    holder_indexes: tuple[int, ...]


def group_overlap_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per member id held by two or more innermost groups (graph.md §5 `W_GROUP_OVERLAP`).

    Pointers: the member entries naming it in the innermost holders after the first; `related`: its
    entry in the first. Facts: `GroupOverlap`."""
    holders: dict[str, list[int]] = {}
    for gi, g in enumerate(index.groups):
        gid = str_id(g)
        for m in dict.fromkeys(x for x in items(g, "members") if isinstance(x, str)):
            if m != gid:
                holders.setdefault(m, []).append(gi)
    held_cache: dict[int, set[str]] = {}

    def held(gi: int) -> set[str]:
        if gi not in held_cache:
            held_cache[gi] = groups_held_by(index, index.groups[gi])
        return held_cache[gi]

    out = []
    for m, hs in holders.items():
        if len(hs) < 2:
            continue
        ids = [str_id(index.groups[gi]) or "" for gi in hs]
        counts = Counter(ids)
        inner = []
        for gi, hid in zip(hs, ids):
            h = held(gi)
            pool = h if len(h) < len(counts) else counts.keys()
            dropped = any(x in counts and x in h and (x != hid or counts[x] >= 2) for x in pool)
            if not dropped:
                inner.append(gi)
        if len(inner) < 2:
            continue
        inner_ids = [str_id(index.groups[gi]) or "" for gi in inner]
        kind = "group" if index.is_group(m) else "node"
        neither = "neither holds the other" if len(inner) == 2 else "none of them holds another"
        msg = (f'{kind} "{m}" is in groups {_and_list(inner_ids)}, and {neither}; views draw it in '
               f'"{inner_ids[0]}" only')
        pointers = [f"/groups/{gi}/members/{j}" for gi in inner[1:]
                    for j, x in enumerate(items(index.groups[gi], "members")) if x == m]
        first = inner[0]
        related = [(f"/groups/{first}/members/{_member_entry(index.groups[first], m)}",
                    f'"{m}" in group "{inner_ids[0]}", where views draw it')]
        out.append(make("W_GROUP_OVERLAP", msg, [m] + inner_ids, pointers, related=related,
                        facts=GroupOverlap(m, kind, tuple(inner_ids), tuple(inner))))
    return out
