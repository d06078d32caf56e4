"""The board's errors about tasks and what names them (board.md §3): task ids, dependencies, their
cycles, `subtask_of`, attempt ids. References to tasks resolve to the keys of `tasks` (board.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from grooph_core.issues import Facts, Issue, Named, make
from grooph_core.rules.board.semantics import BoardDoc
from grooph_core.source.text import did_you_mean


@dataclass(frozen=True)
class BoardTaskId(Facts):
    """E_BOARD_TASK_ID: `key`, the task key."""

    code = "E_BOARD_TASK_ID"
    key: str


@dataclass(frozen=True)
class BoardDanglingDependency(Named):
    """E_BOARD_DANGLING_DEPENDENCY: the `name` the issue is about."""

    code = "E_BOARD_DANGLING_DEPENDENCY"


@dataclass(frozen=True)
class BoardDependencyCycle(Facts):
    """E_BOARD_DEPENDENCY_CYCLE: `tasks`, the tasks of the cycle, in order."""

    code = "E_BOARD_DEPENDENCY_CYCLE"
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class BoardDanglingSubtaskOf(Named):
    """E_BOARD_DANGLING_SUBTASK_OF: the `name` the issue is about."""

    code = "E_BOARD_DANGLING_SUBTASK_OF"


@dataclass(frozen=True)
class BoardDuplicateAttempt(Named):
    """E_BOARD_DUPLICATE_ATTEMPT: the `name` the issue is about."""

    code = "E_BOARD_DUPLICATE_ATTEMPT"


def did_you_mean_hint(word: str, names) -> str:
    hint = did_you_mean(word, list(names))
    return f"; did you mean {hint}?" if hint else ""


def task_id_mismatch(doc: BoardDoc) -> Iterator[Issue]:
    """E_BOARD_TASK_ID: a task's key in `tasks` differs from its `id`."""
    for key, p, task in doc.task_items():
        tid = task.get("id")
        if type(tid) is str and tid != key:
            yield make("E_BOARD_TASK_ID", f'the task under the key "{key}" has the id "{tid}" (the tasks are by id)',
                       (p + "/id",), (p + "/id",), related=((p, "its key"),), facts=BoardTaskId(key))


def dangling_dependencies(doc: BoardDoc) -> Iterator[Issue]:
    """E_BOARD_DANGLING_DEPENDENCY: a dependency's `parent` or `child` names no task."""
    if doc.tasks is None:
        return
    for d in doc.dependencies:
        for end, name in (("parent", d.parent), ("child", d.child)):
            if type(name) is str and name not in doc.tasks:
                p = f"{d.pointer}/{end}"
                yield make("E_BOARD_DANGLING_DEPENDENCY", f"the dependency's {end} names no task {name}"
                           f"{did_you_mean_hint(name, doc.tasks)}", (p,), (p,), facts=BoardDanglingDependency(name))


def dependency_cycles(doc: BoardDoc) -> Iterator[Issue]:
    """E_BOARD_DEPENDENCY_CYCLE: one issue per strongly connected group of tasks (two or more, or one
    depending on itself) among dependencies between existing tasks, at the group's first dependency."""
    if doc.tasks is None:
        return
    edges = [d for d in doc.dependencies if type(d.parent) is str and type(d.child) is str
             and d.parent in doc.tasks and d.child in doc.tasks]
    succ: dict[str, list[str]] = {}
    for d in edges:
        succ.setdefault(d.parent, []).append(d.child)
    group_of = _strong_components(list(doc.tasks), succ)
    seen: set[int] = set()
    for d in edges:
        g = group_of[d.parent]
        if group_of[d.child] != g or g in seen:
            continue
        members = {t for t, x in group_of.items() if x == g}
        if len(members) == 1 and d.parent != d.child:
            continue
        seen.add(g)
        inside = [e for e in edges if e.parent in members and e.child in members]
        order = _walk(d, inside)
        text = " → ".join(order + [order[0]])
        yield make("E_BOARD_DEPENDENCY_CYCLE", f"the dependencies form a cycle {text}: no task on it can ever be "
                   "ready", (d.pointer,), (d.pointer,),
                   related=tuple((e.pointer, "a dependency of the cycle") for e in inside if e is not d), facts=BoardDependencyCycle(tuple(order)))


def _walk(first, inside) -> list[str]:
    """The group's tasks in the order the first dependency leads: its parent, its child, then each
    time the first dependency (document order) from the last task to one not yet listed."""
    order = [first.parent] if first.parent == first.child else [first.parent, first.child]
    members = {e.parent for e in inside} | {e.child for e in inside}
    while len(order) < len(members):
        nxt = next((e.child for e in inside if e.parent == order[-1] and e.child not in order), None)
        if nxt is None:
            nxt = next(t for e in inside for t in (e.parent, e.child) if t not in order)
        order.append(nxt)
    return order


def _strong_components(nodes: list[str], succ: dict[str, list[str]]) -> dict[str, int]:
    """Tarjan's algorithm without recursion: node -> component number."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    comp: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            kids = succ.get(v, [])
            if i < len(kids):
                work.append((v, i + 1))
                w = kids[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp[w] = index[v]
                    if w == v:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return comp


def dangling_subtask_of(doc: BoardDoc) -> Iterator[Issue]:
    """E_BOARD_DANGLING_SUBTASK_OF: `subtask_of` names no task, the task itself, or leads back to it."""
    if doc.tasks is None:
        return
    parent_of = {k: t.get("subtask_of") for k, _, t in doc.task_items() if type(t.get("subtask_of")) is str}
    for key, p, task in doc.task_items():
        arc = task.get("subtask_of")
        if type(arc) is not str:
            continue
        where = (p + "/subtask_of",)
        if arc not in doc.tasks:
            yield make("E_BOARD_DANGLING_SUBTASK_OF", f"subtask_of names no task {arc}{did_you_mean_hint(arc, doc.tasks)}", where,
                       where, facts=BoardDanglingSubtaskOf(arc))
        elif arc == key:
            yield make("E_BOARD_DANGLING_SUBTASK_OF", f"the task {key} is a subtask of itself", where, where, facts=BoardDanglingSubtaskOf(arc))
        else:
            chain, cur = [key, arc], arc
            while cur in parent_of and parent_of[cur] not in chain and parent_of[cur] in doc.tasks:
                cur = parent_of[cur]
                chain.append(cur)
            if parent_of.get(cur) == key:
                yield make("E_BOARD_DANGLING_SUBTASK_OF", "subtask_of leads back to the task: "
                           + " → ".join(chain + [key]), where, where, facts=BoardDanglingSubtaskOf(arc))


def duplicate_attempts(doc: BoardDoc) -> Iterator[Issue]:
    """E_BOARD_DUPLICATE_ATTEMPT: an attempt id used twice on the board, at each later copy."""
    first: dict[str, str] = {}
    for key, p, task in doc.task_items():
        attempts = task.get("attempts")
        if type(attempts) is not list:
            continue
        for i, a in enumerate(attempts):
            aid = a.get("id") if type(a) is dict else None
            if type(aid) is not str:
                continue
            ap = f"{p}/attempts/{i}/id"
            if aid in first:
                yield make("E_BOARD_DUPLICATE_ATTEMPT", f"the attempt id {aid} is used twice on the board",
                           (ap,), (ap,), related=((first[aid], "the first use"),), facts=BoardDuplicateAttempt(aid))
            else:
                first[aid] = ap
