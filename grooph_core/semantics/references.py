"""The one model of references: every place in a document that defines an id or names one, by kind.

Compiled once, at import, from the `Ref(kind)` / `Defines(kind)` / `Keys(ref=…)` markers of the models
(`model.compiled.ROOTS`), so the places are exactly those of graph.md §1.11 and map.md §2.8 (layout
keys name nodes, which `renameId` rewrites, operations.md §5.8). Navigation, rename (the op and the
editor's), repairs and the dangling-reference rules all walk a document with `occurrences`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from grooph_core.model.compiled import ROOTS, AltType, ArrayType, ObjectType, RecordType, StrType, TypeDesc, UnionType
from grooph_core.source.text import pointer_escape, pointer_join, pointer_split

# A `Ref("scope")` string is `graph` or `<kind>:<id>` (graph.md §1.7): these heads name an object.
SCOPE_HEADS = ("node", "loop", "edge")
# A marker kind that accepts several kinds of object (graph.md §1.11 group members, map.md §2.8 ends).
_ALTERNATIVES = {"node-or-group": ("node", "group"), "session-or-person": ("session", "person"),
                 "scope": SCOPE_HEADS}
# The collection order of the id-uniqueness set after the document's own id (graph.md §1.11,
# operations.md §3.1; map.md §2.8). It is the one fact here the markers do not carry (the models keep
# canonical key order, where policies come before groups); the import-time check below ties it to them.
_COLLECTION_ORDER = {"graph": ("nodes", "edges", "loops", "groups", "policies", "notes"),
                     "map": ("lanes", "people", "sessions", "handoffs")}

_KEY = object()  # a path step over the keys of a record (layout)
_ITEMS = object()  # a path step over the items of an array


@dataclass(frozen=True)
class Occurrence:
    """One place a document names an id.

    `target` is the kind of object the place defines or must name ("node", "edge", "loop", "group",
    "policy", "note", "graph", "lane", "person", "session", "handoff", "map", or "node|group",
    "session|person" where several are accepted). `prefix` is the text before the id inside the string
    (`node:` in a policy scope). `on_key` is true for a `layout` key, which names a node by its key.
    """

    pointer: str
    id: str
    target: str
    definition: bool
    prefix: str = ""
    on_key: bool = False


def accepted_kinds(target: str) -> tuple[str, ...]:
    """The kinds of object an occurrence's target (or a marker's kind) accepts."""
    if "|" in target:
        return tuple(target.split("|"))
    return _ALTERNATIVES.get(target, (target,))


def accepts(target: str, kind: str) -> bool:
    return kind in accepted_kinds(target)


# ---- compiling the places from the markers ------------------------------------------------------------


@dataclass(frozen=True)
class _Leaf:
    kind: str  # the marker's kind
    definition: bool


def _merge(into: dict, path: tuple, leaf: _Leaf) -> None:
    for step in path[:-1]:
        into = into.setdefault(step, {})
    into[path[-1]] = leaf


def _compile(t: TypeDesc, path: tuple, tree: dict, seen: set) -> None:
    if isinstance(t, StrType):
        if t.defines or t.ref:
            _merge(tree, path, _Leaf(t.defines or t.ref, bool(t.defines)))  # type: ignore[arg-type]
    elif isinstance(t, ArrayType):
        _compile(t.item, path + (_ITEMS,), tree, seen)
    elif isinstance(t, RecordType):
        if t.key_ref:
            _merge(tree, path + (_KEY,), _Leaf(t.key_ref, False))
    elif isinstance(t, ObjectType):
        if id(t) in seen:
            return
        seen = seen | {id(t)}
        for f in t.fields:
            _compile(f.type, path + (f.name,), tree, seen)
    elif isinstance(t, UnionType):  # every branch of a union is walked as one object (nodes, stops)
        for b in t.branches.values():
            _compile(b, path, tree, seen)
    elif isinstance(t, AltType):
        for o in t.options:
            _compile(o, path, tree, seen)


def _places(kind: str) -> dict:
    tree: dict = {}
    _compile(ROOTS[kind], (), tree, set())
    order = ("id",) + _COLLECTION_ORDER[kind]
    lists = {k for k, sub in tree.items() if isinstance(sub, dict) and isinstance(sub.get(_ITEMS), dict)
             and isinstance(sub[_ITEMS].get("id"), _Leaf) and sub[_ITEMS]["id"].definition}
    if lists != set(_COLLECTION_ORDER[kind]):
        raise TypeError(f"{kind}: the lists whose items define ids are {sorted(lists)}, not {_COLLECTION_ORDER[kind]}")
    return {k: tree[k] for k in sorted(tree, key=lambda k: order.index(k) if k in order else len(order))}


_TREES = {kind: _places(kind) for kind in ("graph", "map")}


def _definitions(tree: dict) -> dict[str, str]:
    return {k: sub[_ITEMS]["id"].kind for k, sub in tree.items() if k in _COLLECTION_ORDER["graph"] + _COLLECTION_ORDER["map"]}


# list -> the kind its items define, in collection order (graph.md §1.11, map.md §2.8)
ID_LISTS: dict[str, dict[str, str]] = {kind: {k: _definitions(_TREES[kind])[k] for k in _COLLECTION_ORDER[kind]}
                                       for kind in _TREES}
# The document's own kind word ("graph", "map"), what its root `id` defines.
ROOT_KIND = {kind: _TREES[kind]["id"].kind for kind in _TREES}


def _referable(tree: dict) -> frozenset[str]:
    out: set[str] = set()

    def walk(t):
        for sub in t.values():
            if isinstance(sub, _Leaf):
                if not sub.definition:
                    out.update(accepted_kinds(sub.kind))
            else:
                walk(sub)

    walk(tree)
    return frozenset(out)


# The kinds of object something refers to by id: renaming one changes what a reference means.
REFERABLE = {kind: _referable(_TREES[kind]) for kind in _TREES}


# ---- walking a document ---------------------------------------------------------------------------------


def _target(kind: str) -> str:
    alts = _ALTERNATIVES.get(kind)
    return "|".join(alts) if alts and kind != "scope" else kind


_TARGET_WORD = {leaf_kind: _target(leaf_kind) for leaf_kind in _ALTERNATIVES}


def _emit(leaf: _Leaf, v: object, pointer: str) -> Occurrence | None:
    if not isinstance(v, str):
        return None
    if leaf.kind == "scope":
        head, sep, rest = v.partition(":")
        if not sep or head not in SCOPE_HEADS:
            return None
        return Occurrence(pointer, rest, head, False, prefix=head + ":")
    return Occurrence(pointer, v, _TARGET_WORD.get(leaf.kind, leaf.kind), leaf.definition)


def _walk(value: object, tree: dict, pointer: str) -> Iterator[tuple[Occurrence, object, object]]:
    """(occurrence, its container, its key or index) for every place under `tree`."""
    for step, sub in tree.items():
        if step is _ITEMS:
            if not isinstance(value, list):
                continue
            for i, item in enumerate(value):
                p = f"{pointer}/{i}"
                if isinstance(sub, _Leaf):
                    o = _emit(sub, item, p)
                    if o is not None:
                        yield o, value, i
                elif isinstance(item, dict):
                    yield from _walk(item, sub, p)
        elif step is _KEY:
            if isinstance(value, dict):
                for k in value:
                    yield Occurrence(pointer_join(pointer, k), k, sub.kind, False, on_key=True), value, k
        elif isinstance(value, dict) and step in value:
            v = value[step]
            p = pointer + "/" + step  # declared field names need no escaping
            if isinstance(sub, _Leaf):
                o = _emit(sub, v, p)
                if o is not None:
                    yield o, value, step
            else:
                yield from _walk(v, sub, p)


def _references_only(tree: dict) -> dict:
    """The tree without definition leaves (and without branches left empty), for the rules."""
    out: dict = {}
    for step, sub in tree.items():
        if isinstance(sub, _Leaf):
            if not sub.definition:
                out[step] = sub
        else:
            pruned = _references_only(sub)
            if pruned:
                out[step] = pruned
    return out


_REFERENCE_TREES = {kind: _references_only(tree) for kind, tree in _TREES.items()}


def _generate(tree: dict, keys: bool = False) -> str:
    """Python source of `find(doc, missing)` for a tree (references only, for the rules; or every place):
    nested loops over exactly its places, an Occurrence built only where `missing(target, id)` says so;
    with `keys`, the record keys that name ids (layout) too."""
    lines = ["def find(doc, missing):", "    out = []"]
    counter = [0]

    def leaf(sub: _Leaf, value: str, ptr: str, pad: str) -> None:
        if sub.kind == "scope":
            lines.append(f"{pad}if isinstance({value}, str):")
            lines.append(f"{pad}    h, sep, x = {value}.partition(':')")
            lines.append(f"{pad}    if sep and h in SCOPE_HEADS and missing(h, x):")
            lines.append(f"{pad}        out.append(Occurrence({ptr}, x, h, False, prefix=h + ':'))")
        else:
            target = _TARGET_WORD.get(sub.kind, sub.kind)
            lines.append(f"{pad}if isinstance({value}, str) and missing({target!r}, {value}):")
            lines.append(f"{pad}    out.append(Occurrence({ptr}, {value}, {target!r}, {sub.definition}))")

    def in_values(t) -> bool:
        return isinstance(t, _Leaf) or any((keys or step is not _KEY) and in_values(sub) for step, sub in t.items())

    def walk(t: dict, var: str, ptr: str, pad: str) -> None:
        for step, sub in t.items():
            counter[0] += 1
            n = counter[0]
            if step is _KEY and keys:
                target = _TARGET_WORD.get(sub.kind, sub.kind)
                lines.append(f"{pad}for k{n} in {var}:")
                lines.append(f"{pad}    if missing({target!r}, k{n}):")
                lines.append(f"{pad}        out.append(Occurrence(f{ptr[:-1]}/{{escape(k{n})}}', k{n}, {target!r}, False, on_key=True))")
                continue
            if step is _KEY or not in_values(sub):
                continue  # keys naming ids (layout) are not references a rule checks
            if step is _ITEMS:
                item_ptr = ptr[:-1] + "/{i%d}'" % n
                lines.append(f"{pad}if isinstance({var}, list):")
                lines.append(f"{pad}    for i{n}, x{n} in enumerate({var}):")
                if isinstance(sub, _Leaf):
                    leaf(sub, f"x{n}", "f" + item_ptr, pad + "        ")
                else:
                    lines.append(f"{pad}        if isinstance(x{n}, dict):")
                    walk(sub, f"x{n}", item_ptr, pad + "            ")
                continue
            field_ptr = ptr[:-1] + "/" + step + "'"
            lines.append(f"{pad}v{n} = {var}.get({step!r})")
            if isinstance(sub, _Leaf):
                leaf(sub, f"v{n}", "f" + field_ptr, pad)
            elif _ITEMS in sub:
                walk(sub, f"v{n}", field_ptr, pad)
            else:
                lines.append(f"{pad}if isinstance(v{n}, dict):")
                walk(sub, f"v{n}", field_ptr, pad + "    ")

    walk(tree, "doc", "''", "    ")
    lines.append("    return out")
    return "\n".join(lines)


def _compile_finder(tree: dict, keys: bool = False):
    scope = {"Occurrence": Occurrence, "SCOPE_HEADS": SCOPE_HEADS, "escape": pointer_escape}
    exec(compile(_generate(tree, keys), "<reference finder>", "exec"), scope)  # our own source, from the model
    return scope["find"]


_FINDERS = {kind: _compile_finder(tree) for kind, tree in _REFERENCE_TREES.items()}
# every place (definitions, references, layout keys), for the places of one id (`occurrences_of`)
_PLACE_FINDERS = {kind: _compile_finder(tree, keys=True) for kind, tree in _TREES.items()}


def missing_references(doc: object, kind: str, missing: Callable[[str, str], bool]) -> list[Occurrence]:
    """The references held in values (not layout keys) for which `missing(target, id)` is true, in
    collection order: the dangling-reference rules' walk. It runs per keystroke, so the walk is
    generated once from the markers as plain nested loops and builds nothing for a sound reference."""
    if not isinstance(doc, dict):
        return []
    return _FINDERS.get(kind, _FINDERS["graph"])(doc, missing)


def occurrences(doc: object, kind: str) -> list[Occurrence]:
    """Every definition and reference of an id in the document (kind "graph" or "map"), in collection
    order and, inside an object, in its fields' order."""
    if not isinstance(doc, dict):
        return []
    return [o for o, _, _ in _walk(doc, _TREES.get(kind, _TREES["graph"]), "")]


def occurrences_of(doc: object, kind: str, ident: str) -> list[Occurrence]:
    """The occurrences (definitions, references, layout keys) naming `ident`: `occurrences` filtered to
    it, in the same order, through the generated walk (a keystroke's highlight on a 1M document)."""
    if not isinstance(doc, dict):
        return []
    return _PLACE_FINDERS.get(kind, _PLACE_FINDERS["graph"])(doc, lambda _target, i: i == ident)


def occurrence_at(doc: object, kind: str, pointer: str, *, on_key: bool = False) -> Occurrence | None:
    """The occurrence whose string (or, with `on_key`, layout key) stands at `pointer`, found by walking
    the places along the pointer alone (not the whole document)."""
    tree: dict = _TREES.get(kind, _TREES["graph"])
    value = doc
    segs = pointer_split(pointer)
    for n, seg in enumerate(segs):
        last = n == len(segs) - 1
        if type(value) is list:
            if not seg.isdigit() or int(seg) >= len(value):
                return None
            sub, value = tree.get(_ITEMS), value[int(seg)]
        elif type(value) is dict:
            if last and on_key:
                leaf = tree.get(_KEY)
                return Occurrence(pointer, seg, _TARGET_WORD.get(leaf.kind, leaf.kind), False, on_key=True) if isinstance(leaf, _Leaf) and seg in value else None
            if seg not in value:
                return None
            sub, value = tree.get(seg), value[seg]
        else:
            return None
        if isinstance(sub, _Leaf):
            return _emit(sub, value, pointer) if last and not on_key else None
        if sub is None:
            return None
        tree = sub
    return None


def places(doc: object, kind: str) -> Iterator[tuple[Occurrence, object, object]]:
    """Like `occurrences`, with each occurrence's container and key (or index), for rewriting in place."""
    if isinstance(doc, dict):
        yield from _walk(doc, _TREES.get(kind, _TREES["graph"]), "")


def references_to(doc: object, kind: str, ident: str) -> list[Occurrence]:
    """Every reference (not definition) naming `ident`, of any kind."""
    return [o for o in occurrences(doc, kind) if not o.definition and o.id == ident]


def defined_ids(doc: object, kind: str) -> list[str]:
    """The id-uniqueness set in collection order (graph.md §1.11, map.md §2.8), duplicates kept."""
    return [o.id for o in occurrences(doc, kind) if o.definition]


def rewrite_id(doc: dict, kind: str, frm: str, to: str, *, keep: frozenset[str] = frozenset()) -> None:
    """Every definition and reference of `frm` becomes `to`, in place, except definitions of the kinds
    in `keep` (operations.md §5.8 keeps the graph's own id and run-note ids). A renamed record key (a
    layout entry) keeps its position."""
    rekeyed: list[tuple[dict, object]] = []
    for o, container, key in list(places(doc, kind)):
        if o.id != frm or (o.definition and o.target in keep):
            continue
        if o.on_key:
            rekeyed.append((container, key))  # type: ignore[arg-type]
        else:
            container[key] = o.prefix + to  # type: ignore[index]
    for record, old in rekeyed:
        renamed = {to if k == old else k: v for k, v in record.items()}
        record.clear()
        record.update(renamed)


def occurrences_in_part(doc: object, kind: str, key: str, index: int | None = None) -> list[Occurrence]:
    """The occurrences inside one top-level member `doc[key]` (with `index`: one item of that list), as
    `occurrences` lists them: what a request about a part of the text (a screenful) walks."""
    if not isinstance(doc, dict) or key not in doc:
        return []
    sub = _TREES.get(kind, _TREES["graph"]).get(key)
    if sub is None:
        return []
    if index is None:
        return [o for o, _, _ in _walk(doc, {key: sub}, "")]
    items, value = (sub.get(_ITEMS) if isinstance(sub, dict) else None), doc[key]
    if items is None or not isinstance(value, list) or not 0 <= index < len(value):
        return []
    pointer = f"/{key}/{index}"  # declared field names need no escaping
    if isinstance(items, _Leaf):
        o = _emit(items, value[index], pointer)
        return [o] if o is not None else []
    return [o for o, _, _ in _walk(value[index], items, pointer)] if isinstance(value[index], dict) else []
