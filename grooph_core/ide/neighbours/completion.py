"""Completion in a neighbouring document (issue 15 point 5): keys, words and names, as for graphs.

- **Keys** the mapping/object at the cursor declares and lacks, required first, with the field's
  description: the workflow and board models (`model.object_shape`), the episode record's own schema
  (episodes.md §2). Under a mapping of names (`statuses`, `roles`, `run.roles`, `run.states`, a board's
  `tasks`) the names referred to but not defined there (workflow.md §4, board.md §4).
- **Words**: an enum field's words (`scope`, `counts`, `verdict`, `lane`, a row's `standing`), `true`
  and `false` for a boolean, the nine statuses kanban.db holds where a `stored_as` names one
  (workflow.md §3.2 `W_WF_STORED_AS_UNKNOWN`).
- **Names** where a name is expected: which kind of name a place takes is asked of the one model of
  names, `ide.neighbours.names` (its sites, run on the document with a probe at the cursor's
  place: a status for a card transition's `target`, a run state for a run-machine one), and the names
  offered are its definitions; a transition's `by` also takes the engine's senders. An episode record's
  `current` takes the rows' `session_id`s ("`current` names one of the rows"); after `params.` in a
  workflow's expression, template or prompt (a block scalar too), its declared params.

JSON (board, episode record) is read around the cursor by the graph completion's scanner
(`completion.json_cursor`). YAML (workflow) by indentation (`_yaml_place`): the lines above the cursor
give the chain of keys and list items down to it, so a half-typed mapping (a key with no value yet, an
empty line, a `- ` item) still completes; a flow collection on the cursor's line is read token by token.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from grooph_core.ide.grooph.completion import (
    Completion,
    snippet_escape,
    field_value_completions,
    json_cursor,
    shape_key_completions,
)
from grooph_core.ide.grooph.completion import separators
from grooph_core.model import FieldShape, ObjectShape, field_info, object_shape
from grooph_core.model.board import KANBAN_STATUSES, LANES
from grooph_core.model.episodes import deref, schema_at
from grooph_core.model.workflow import ENGINE_SENDERS
from grooph_core.rules.episodes.record import read_episodes
from grooph_core.rules.workflow.semantics import read_workflow
from grooph_core.rules.workflow.warnings import stored_as_places
from grooph_core.ide.neighbours import names as neighbour_names
from grooph_core.source.text import pointer_join, pointer_split, value_at, compact_json
from grooph_core.source.yaml_reader import core_tag

# A name no document has: put where the cursor is, it shows which kind of name the place takes.
_PROBE = "\x00grooph completion\x00"


def neighbour_complete_at(analysis, offset: int) -> list[Completion]:
    """Completions at `offset` of a neighbouring analysis, best first ([] where nothing fits)."""
    if analysis.neighbour.syntax == "yaml":
        return _yaml_complete(analysis, offset)
    return _json_complete(analysis, offset)


# ---- what the models say about a place --------------------------------------------------------------


def _shape(analysis, pointer: str) -> ObjectShape | None:
    if analysis.document_kind.described_by_schema:
        return _episodes_shape(analysis.value, pointer)
    return object_shape(analysis.kind, analysis.value, pointer)


def _field(analysis, pointer: str) -> FieldShape | None:
    if analysis.document_kind.described_by_schema:
        segs = pointer_split(pointer)
        shape = _episodes_shape(analysis.value, pointer_join("", *segs[:-1])) if segs else None
        return shape.field(segs[-1]) if shape is not None else None  # items of `findings`, `tasks`: free text
    return field_info(analysis.kind, analysis.value, pointer)


def _schema_field(name: str, prop: dict, required: bool) -> FieldShape:
    target = deref(prop)
    values: tuple = tuple(b["const"] for b in target.get("oneOf", ()) if "const" in b)
    t = target.get("type") or ("string" if values else "any")
    expected = "one of " + ", ".join(values) if values else t
    if t == "array":
        item = deref(target.get("items", {}))
        expected = f"array of {item.get('title') or item.get('type') or 'values'}"
    return FieldShape(name=name, description=prop.get("description") or target.get("description") or "",
                      required=required, expected=expected, json_type=t, values=values)


def _episodes_shape(value, pointer: str) -> ObjectShape | None:
    """The fields the episode record's schema gives the object at `pointer` (the record, a row)."""
    at = schema_at(pointer_split(pointer))
    schema = at[0] if at is not None else None
    if schema is None or "properties" not in schema:
        return None
    required = set(schema.get("required", ()))
    fields = tuple(_schema_field(k, p, k in required) for k, p in schema["properties"].items())
    here = value_at(value, pointer)
    present = tuple(k for k in schema["properties"] if isinstance(here, dict) and k in here)
    return ObjectShape(title=schema.get("title", ""), description=schema.get("description", ""), pointer=pointer,
                       fields=fields, present=present)


def _with(value, segments: list[str], leaf, *, as_key: bool = False):
    """A document holding only the path to `segments`, with `leaf` at its end: which kind of name a
    place takes depends on where it is, never on its siblings, so the model of names runs on this small
    skeleton. Each container on the way is of the document's own type there (a new one: a list where
    the next segment is an index, else a mapping; a list's earlier items null). With `as_key`, `leaf`
    is a new key of the mapping at `segments`, holding an empty mapping (as a new status or task)."""
    def put(cur, i):
        if i == len(segments):
            return {leaf: {}} if as_key else leaf
        seg = segments[i]
        nxt = cur.get(seg) if type(cur) is dict else None
        if type(cur) is list or (type(cur) is not dict and seg.isdigit()):
            if not seg.isdigit():
                return {seg: put(None, i + 1)}
            k = int(seg)
            item = cur[k] if type(cur) is list and k < len(cur) else None
            return [None] * k + [put(item, i + 1)]
        return {seg: put(nxt, i + 1)}

    return put(value, 0)


def _sites(kind: str, value) -> list:
    fn = neighbour_names.SITES.get(kind)
    return fn(value) if fn else []


def _name_kind(kind: str, value, pointer: str) -> str | None:
    """The kind of name the place at `pointer` takes (neighbour_names' sites, with a probe there)."""
    if kind not in neighbour_names.SITES:
        return None
    probe = _with(value, pointer_split(pointer), _PROBE)
    return next((s.kind for s in _sites(kind, probe) if s.pointer == pointer and not s.key), None)


def _key_name_kind(kind: str, value, mapping: str) -> str | None:
    """The kind of name the keys of the mapping at `mapping` define (`statuses`: status), or None."""
    if kind not in neighbour_names.SITES:
        return None
    probe = _with(value, pointer_split(mapping), _PROBE, as_key=True)
    where = pointer_join(mapping, _PROBE)
    return next((s.kind for s in _sites(kind, probe) if s.pointer == where and s.key), None)


@dataclass(frozen=True)
class _Name:
    name: str
    detail: str
    documentation: str = ""


def _names_for(analysis, pointer: str) -> list[_Name] | None:
    """The names the place at `pointer` takes, or None when it is no name place."""
    kind = analysis.kind
    if analysis.document_kind.described_by_schema:  # episodes.md §2: `current` names a row's session
        if pointer != "/current":
            return None
        return [_Name(n, "episode — a row's session_id") for n in dict.fromkeys(read_episodes(analysis.value).session_ids)]
    name_kind = _name_kind(kind, analysis.value, pointer)
    if name_kind is None:
        if analysis.document_kind.names_kanban_statuses:
            return _stored_as_words(analysis.value, pointer)
        return None
    out = [_Name(s.name, name_kind) for s in _defined(kind, analysis.value, name_kind)]
    segs = pointer_split(pointer)
    if name_kind == "role" and "by" in segs[-2:]:
        out += [_Name(s, "the engine's own sender") for s in ENGINE_SENDERS if s not in {n.name for n in out}]
    return out


def _defined(kind: str, value, name_kind: str):
    seen: dict[str, object] = {}
    for s in _sites(kind, value):
        if s.defines and s.kind == name_kind and s.name not in seen and s.name != _PROBE:
            seen[s.name] = s
    return list(seen.values())


def _undefined(kind: str, value, name_kind: str) -> list[str]:
    """Names of that kind referred to but not defined (a `target` naming a status not written yet)."""
    sites = _sites(kind, value)
    defined = {s.name for s in sites if s.defines and s.kind == name_kind}
    return list(dict.fromkeys(s.name for s in sites if s.kind == name_kind and not s.defines
                              and s.name not in defined and s.name))


def _stored_as_words(value, pointer: str) -> list[_Name] | None:
    """The nine statuses kanban.db holds, where a `stored_as` names one (workflow.md §3.2)."""
    probe = _with(value, pointer_split(pointer), _PROBE)
    if not any(p == pointer for p, _ in stored_as_places(read_workflow(probe))):
        return None
    return [_Name(w, "a status kanban.db holds", LANES[w]) for w in KANBAN_STATUSES]


def _taken(value, item_of: str | None) -> set:
    arr = value_at(value, item_of) if item_of is not None else None
    return {x for x in arr if isinstance(x, str)} if isinstance(arr, list) else set()


# ---- JSON: board, episode record --------------------------------------------------------------------


def _json_complete(analysis, offset: int) -> list[Completion]:
    cur = json_cursor(analysis, offset)
    if cur is None:
        return []
    if cur.part == "key":
        shape = _shape(analysis, cur.pointer)
        if shape is not None:
            return shape_key_completions(analysis.text, shape, cur.span, bare=cur.bare)
        return _json_name_keys(analysis, cur)
    names = _names_for(analysis, cur.pointer)
    if names is not None:
        taken = _taken(analysis.value, cur.item_of)
        return [Completion(n.name, "id", json.dumps(n.name, ensure_ascii=False), cur.span, n.detail, n.documentation,
                           json.dumps(n.name, ensure_ascii=False)) for n in names if n.name not in taken]
    fs = _field(analysis, cur.pointer)
    found = field_value_completions(fs, cur.span, quoted=cur.quoted) if fs is not None else []
    words = _word_descriptions(analysis.document_kind, cur.pointer)
    return [replace(c, documentation=words[c.label]) if c.label in words else c for c in found]


def _word_descriptions(kind, pointer: str) -> dict[str, str]:
    """The schema's own description of each word an episode record's field takes (a row's `standing`:
    `open` is "Open, and it names this worktree, …")."""
    if not kind.described_by_schema:
        return {}
    at = schema_at(pointer_split(pointer))
    one_of = at[0].get("oneOf", ()) if at is not None else ()
    return {b["const"]: b["description"] for b in one_of if isinstance(b, dict) and "const" in b and "description" in b}


def _json_name_keys(analysis, cur) -> list[Completion]:
    """Under a mapping of names (a board's `tasks`): the names referred to and not defined yet."""
    kind = _key_name_kind(analysis.kind, analysis.value, cur.pointer)
    if kind is None:
        return []
    here = value_at(analysis.value, cur.pointer)
    comma_at, after = separators(analysis.text, cur.span) if not cur.bare else (None, "")
    out = []
    for n in _undefined(analysis.kind, analysis.value, kind):
        if isinstance(here, dict) and n in here:
            continue
        key = json.dumps(n, ensure_ascii=False)
        detail = f"{kind} referred to, not defined yet"
        if cur.bare:
            out.append(Completion(n, "id", key, cur.span, detail, "", key))
        else:
            out.append(Completion(n, "id", f"{key}: {{}}{after}", cur.span, detail, "", key,
                                  f"{snippet_escape(key)}: {{$1}}{after}", comma_at))
    return out


# ---- YAML: workflow ---------------------------------------------------------------------------------

_SAFE_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*\Z")


def yaml_scalar(s: str) -> str:
    """`s` as a YAML scalar that reads back as the same string: plain when it is a plain word that the
    YAML 1.2 core schema reads as a string (not `null`, `true`, `3`), else double-quoted."""
    if _SAFE_PLAIN.match(s) and core_tag(s) == "str":
        return s
    return json.dumps(s, ensure_ascii=False)


@dataclass
class _Entry:
    """What a line opens at a column: a list item (`- `), a mapping key (with or without something after
    its colon on the same line) or a scalar."""

    col: int
    kind: str  # "item" | "key" | "scalar"
    name: str = ""
    inline: bool = False


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _key_end(s: str, pos: int) -> tuple[str, int] | None:
    """(key, offset of its colon) when a mapping key starts at `pos` of the line, else None."""
    n = len(s)
    if pos >= n:
        return None
    ch = s[pos]
    if ch in "\"'":
        j = _quoted_end(s, pos) - 1
        if j < 0:
            return None
        raw = s[pos:j + 1]
        k = j + 1
        while k < n and s[k] in " \t":
            k += 1
        if k < n and s[k] == ":":
            try:
                name = json.loads(raw) if ch == '"' else raw[1:-1].replace("''", "'")
            except ValueError:
                name = raw[1:-1]
            return name, k
        return None
    if ch in "{[]},#&*!|>%@`":
        return None
    j = pos
    while j < n:
        if s[j] == ":" and (j + 1 == n or s[j + 1] in " \t"):
            return s[pos:j].rstrip(), j
        if s[j] == "#" and j > pos and s[j - 1] in " \t":
            return None
        j += 1
    return None


def _after_colon(s: str, colon: int) -> str:
    rest = s[colon + 1:]
    i = rest.find(" #")
    if rest.lstrip().startswith("#"):
        return ""
    return (rest[:i] if i >= 0 else rest).strip()


def _entries(line: str) -> list[_Entry]:
    """The entries a (whole) line opens, left to right."""
    out: list[_Entry] = []
    n = len(line)
    pos = _indent(line)
    while pos < n and line[pos] == "-" and (pos + 1 == n or line[pos + 1] in " \t"):
        out.append(_Entry(pos, "item"))
        pos += 1
        while pos < n and line[pos] in " \t":
            pos += 1
    if pos >= n or line[pos] == "#":
        return out
    k = _key_end(line, pos)
    if k is None:
        out.append(_Entry(pos, "scalar"))
    else:
        out.append(_Entry(pos, "key", k[0], bool(_after_colon(line, k[1]))))
    return out


def _skip_line(line: str) -> bool:
    t = line.strip()
    return not t or t.startswith("#") or t.startswith("---") or t.startswith("...") or t.startswith("%")


@dataclass
class _Place:
    """The cursor's place in a workflow: `part` "key" (a key of the mapping at `pointer`; `present`: its
    keys written), "value" (the value at `pointer`) or "slot" (the item at `pointer`, a key of its
    mapping or a scalar, as the model says). `span` is replaced; `flow`: inside `{…}`/`[…]`."""

    part: str
    pointer: str
    span: tuple[int, int]
    present: set = field(default_factory=set)
    bare: bool = False
    space_before: bool = False
    flow: bool = False
    comma_at: int | None = None
    comma_after: bool = False
    item_of: str | None = None
    quote: str = ""  # the cursor is inside a quoted scalar opened by this quote; `span` is its content
    closed: bool = False  # and its closing quote stands after the cursor


def _chain_up(lines: list[str], line_no: int, same_line: list[_Entry], kind: str, col: int):
    """The segments from the root down to the container of an entry of `kind` ("key" or "item") at
    `col`, read from the lines above; with the keys written beside a key entry above it. None where
    the place is no mapping or list (a continued scalar, a block scalar)."""
    def backward():
        for e in reversed(same_line):
            yield e
        for i in range(line_no - 1, -1, -1):
            ln = lines[i]
            ind = _indent(ln)
            if ind > want[1] or ind == len(ln) or ln[ind] == "#":
                continue  # deeper than the entry looked for, blank, a comment
            if ind == want[1]:  # the many lines of siblings are passed over unparsed
                if want[0] == "key" and not first:
                    continue
                if want[0] == "item" and ln[ind] == "-" and (ind + 1 == len(ln) or ln[ind + 1] in " \t"):
                    yield _Entry(ind, "item")
                    continue
            if _skip_line(ln):
                continue
            for e in reversed(_entries(ln)):
                yield e

    segments: list[object] = []
    siblings: set = set()
    want = [kind, col]
    first = True
    index = 0
    for e in backward():
        k, c = want
        if e.col > c:
            continue
        if k == "key":
            if e.col == c:
                if e.kind == "key" and first:
                    siblings.add(e.name)
                continue
            if e.kind == "key":
                if e.inline:
                    return None
                segments.append(e.name)
                want = ["key", e.col]
                first = False
                continue
            if e.kind == "item":
                want = ["item", e.col]
                index = 0
                first = False
                continue
            return None
        # inside a list item at column c: count the items above it, then find the list's key or item
        if e.col == c and e.kind == "item":
            index += 1
            continue
        if e.col == c and e.kind == "key" and not e.inline:  # a list written at its key's column
            segments.append(index)
            segments.append(e.name)
            want = ["key", e.col]
            continue
        if e.col == c:
            return None
        if e.kind == "key" and not e.inline:
            segments += [index, e.name]
            want = ["key", e.col]
            continue
        if e.kind == "item":
            segments.append(index)
            want = ["item", e.col]
            index = 0
            continue
        return None
    if want[0] == "item":
        segments.append(index)
    segments.reverse()
    return segments, siblings


def _keys_below(lines: list[str], line_no: int, col: int) -> set:
    """Keys written at `col` below the cursor's line, in the same mapping."""
    out = set()
    for i in range(line_no + 1, len(lines)):
        ln = lines[i]
        if _skip_line(ln):
            continue
        if _indent(ln) < col:
            break
        es = _entries(ln)
        if es and es[0].col == col and es[0].kind == "key":
            out.add(es[0].name)
        elif es and es[0].col == col:
            break
    return out


def _quoted_end(s: str, i: int) -> int:
    """Just past the closing quote of the quoted scalar opening at `i` (`"…\""` with escapes, `'…''…'`
    with its doubled quote), or -1 when it is not closed on the line."""
    q, j = s[i], i + 1
    while j < len(s):
        if q == '"' and s[j] == "\\":
            j += 2
            continue
        if s[j] == q:
            if q == "'" and j + 1 < len(s) and s[j + 1] == "'":
                j += 2
                continue
            return j + 1
        j += 1
    return -1


def _token_end(s: str, i: int) -> int:
    """The end of the scalar token starting at `i` of the line (block context): a quoted one with its
    closing quote, a plain one before a comment or the end of the line."""
    if i < len(s) and s[i] in "\"'":
        e = _quoted_end(s, i)
        return len(s) if e < 0 else e
    c = s.find(" #", i)
    end = len(s) if c < 0 else c
    return len(s[:end].rstrip()) if end > i else i


def _yaml_place(text: str, offset: int) -> _Place | None:
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    line = text[line_start:line_end].rstrip("\r")
    col = offset - line_start
    if col > len(line):
        return None
    prefix = line[:col]
    lines = text[:line_start].split("\n")[:-1] if line_start else []
    lines = [ln.rstrip("\r") for ln in lines]
    if "#" in prefix and _in_comment(prefix):
        return None
    # the list items opened on the cursor's line before the cursor
    dashes: list[_Entry] = []
    pos = _indent(prefix)
    if pos < len(prefix) and prefix[pos] == "\t":
        return None
    while pos < len(prefix) and prefix[pos] == "-" and (pos + 1 < len(prefix) and prefix[pos + 1] in " \t"):
        dashes.append(_Entry(pos, "item"))
        pos += 1
        while pos < len(prefix) and prefix[pos] in " \t":
            pos += 1
    if pos < len(prefix) and prefix[pos] == "-" and pos + 1 == len(prefix):
        return None  # `-` just typed: the space comes first
    typed = prefix[pos:]
    k = _key_end(line, pos)
    if k is not None and k[1] < col:  # `key: |`, `key: va|`, `key: {…|`
        name, colon = k
        chain = _chain_up(lines, len(lines), dashes, "key", pos)
        if chain is None:
            return None
        pointer = pointer_join("", *chain[0], name)
        v = colon + 1
        while v < col and line[v] in " \t":
            v += 1
        if v < col and line[v] in "{[":
            return _flow_place(line, line_start, v, col, pointer)
        if v < col and line[v] in "|>&*!":
            return None
        end = max(_token_end(line, v), col) if v < len(line) else col
        place = _Place("value", pointer, (line_start + v, line_start + end), space_before=v == colon + 1 and v == col)
        return _quoted_place(place, line, line_start, v, col)
    if typed[:1] in ("{", "["):  # `- {name: x, |}`: a flow collection as the item (or the root)
        chain = _chain_up(lines, len(lines), dashes, "key", pos)
        return None if chain is None else _flow_place(line, line_start, pos, col, pointer_join("", *chain[0]))
    if any(ch in typed for ch in "{[]},"):
        return None
    # a key being typed (or about to be) at `pos`, or a list item's scalar
    end = col
    while end < len(line) and not line[end].isspace() and line[end] != ":":
        end += 1
    bare = end < len(line) and line[end] == ":" or (k is not None and k[1] >= col)
    if typed and typed[0] in "\"'":
        return None
    chain = _chain_up(lines, len(lines), dashes, "key", pos)
    if chain is None:
        return None
    segments, siblings = chain
    part = "slot" if dashes else "key"  # `- wor|`: a key of the item's mapping or a scalar item
    present = siblings | _keys_below(text[line_start:].split("\n"), 0, pos) if part == "key" else set()
    return _Place(part, pointer_join("", *segments), (line_start + pos, line_start + end), present, bare=bare)


def _quoted_place(place: _Place, line: str, line_start: int, q: int, col: int) -> _Place:
    """`place` with the cursor inside the quoted scalar opening at `q` of the line: its span is the
    scalar's content, so that a client inserting at the cursor does not write its quotes again."""
    if not (q < col and line[q] in "\"'"):
        return place
    end = _quoted_end(line, q)
    if 0 <= end <= col:
        return place  # the cursor stands after the closed scalar
    closed = end > col
    if closed:
        end -= 1
    else:
        end = col
        while end < len(line) and line[end] not in " \t,[]{}#:\"'":
            end += 1
    return replace(place, span=(line_start + q + 1, line_start + end), quote=line[q], closed=closed)


def _quoted_scalar(s: str, quote: str, closed: bool) -> str:
    """`s` written inside a scalar of that quote (its closing quote added when none stands after it)."""
    inner = json.dumps(s, ensure_ascii=False)[1:-1] if quote == '"' else s.replace("'", "''")
    return inner if closed else inner + quote


def _in_comment(prefix: str) -> bool:
    q = None
    for i, ch in enumerate(prefix):
        if q:
            if ch == q:
                q = None
        elif ch in "\"'":
            q = ch
        elif ch == "#" and (i == 0 or prefix[i - 1] in " \t"):
            return True
    return False


def _flow_place(line: str, line_start: int, start: int, col: int, base: str) -> _Place | None:
    """The cursor's place inside a flow collection opening at `start` of the line (`{role: x, |}`)."""
    stack: list[dict] = []
    i = start
    while i < col:
        ch = line[i]
        if ch in " \t":
            i += 1
            continue
        if ch == "#" and line[i - 1] in " \t":
            return None
        top = stack[-1] if stack else None
        if ch in "{[":
            ptr = base if top is None else _flow_child(stack)
            stack.append({"map": ch == "{", "ptr": ptr, "key": None, "state": "key", "index": 0, "keys": set()})
            i += 1
            continue
        if ch in "}]":
            if not stack:
                return None
            stack.pop()
            if not stack:
                return None  # the collection closed before the cursor
            stack[-1]["state"] = "done"
            i += 1
            continue
        if top is None:
            return None
        if ch == ",":
            if top["map"]:
                top["key"], top["state"] = None, "key"
            else:
                top["index"] += 1
                top["state"] = "key"
            i += 1
            continue
        if ch == ":" and top["map"] and (i + 1 >= len(line) or line[i + 1] in " \t,[]{}"):
            top["state"] = "value"
            i += 1
            continue
        # a scalar token (at least one character: a stray `:` or `#` is passed over)
        j = max(_flow_token_end(line, i), i + 1)
        if j >= col and not (j == col and i < col and line[i] in "\"'" and j > i + 1 and line[j - 1] == line[i]):
            return _flow_slot(stack, line, line_start, i, col)
        tok = line[i:j]
        if top["map"] and top["state"] == "key":
            name = _unquote(tok)
            top["key"] = name
            top["keys"].add(name)
            top["state"] = "after-key"
        else:
            top["state"] = "done"
        i = j
    if not stack:
        return None
    return _flow_slot(stack, line, line_start, col, col)


def _unquote(tok: str) -> str:
    if tok[:1] == '"':
        try:
            return json.loads(tok)
        except ValueError:
            return tok[1:-1]
    if tok[:1] == "'":
        return tok[1:-1].replace("''", "'")
    return tok


def _flow_child(stack: list[dict]) -> str:
    top = stack[-1]
    if top["map"]:
        return pointer_join(top["ptr"], top["key"] if top["key"] is not None else "")
    return pointer_join(top["ptr"], top["index"])


def _flow_token_end(line: str, i: int) -> int:
    if line[i] in "\"'":
        e = _quoted_end(line, i)
        return len(line) if e < 0 else e
    j = i
    while j < len(line) and line[j] not in ",[]{}":
        if line[j] == ":" and (j + 1 >= len(line) or line[j + 1] in " \t,[]{}"):
            break
        if line[j] == "#" and line[j - 1] in " \t":
            break
        j += 1
    while j > i and line[j - 1] in " \t":
        j -= 1
    return j


def _flow_slot(stack, line, line_start, tok_start, col) -> _Place | None:
    """The place of a cursor in (or right before) the token starting at `tok_start`."""
    top = stack[-1]
    end = col
    if tok_start < col or (col < len(line) and line[col] not in ",[]{}: \t"):
        end = max(_flow_token_end(line, tok_start), col)
    span = (line_start + tok_start, line_start + end)
    nxt = end
    while nxt < len(line) and line[nxt] in " \t":
        nxt += 1
    comma_after = nxt < len(line) and line[nxt] not in ",]}#"
    if top["map"]:
        if top["state"] == "value":
            place = _Place("value", pointer_join(top["ptr"], top["key"]), span, flow=True,
                           space_before=line[tok_start - 1:tok_start] == ":")
            return _quoted_place(place, line, line_start, tok_start, col)
        if top["state"] in ("key",):
            prev = line[:tok_start].rstrip()
            bare = nxt < len(line) and line[nxt] == ":"
            return _Place("key", top["ptr"], span, set(top["keys"]), bare=bare, flow=True,
                          space_before=not line[tok_start - 1:tok_start].isspace() and prev[-1:] not in ("{", ""),
                          comma_after=comma_after and not bare)
        if top["state"] == "done" or top["state"] == "after-key":
            if top["state"] == "after-key":
                return None
            prev = line[:tok_start].rstrip()
            return _Place("key", top["ptr"], span, set(top["keys"]), flow=True, comma_at=line_start + len(prev),
                          space_before=not line[tok_start - 1:tok_start].isspace(), comma_after=comma_after)
        return None
    if top["state"] == "done":
        return None
    place = _Place("slot", pointer_join(top["ptr"], top["index"]), span, flow=True, item_of=top["ptr"],
                   comma_after=comma_after)
    return _quoted_place(place, line, line_start, tok_start, col)


# `params.` and the start of a name, right before the cursor (W_WF_UNKNOWN_PARAM's `params.NAME`, typed)
_PARAM_TYPED = re.compile(r"(?<![A-Za-z0-9_.])params\.([A-Za-z0-9_]*)\Z")


def _param_completions(analysis, offset: int) -> list[Completion] | None:
    """After `params.` in an expression, a template or a prompt (workflow.md §4: a key of `params` is
    referred to by `params.NAME` inside them): the declared params. None where no `params.` is typed."""
    line_start = analysis.text.rfind("\n", 0, offset) + 1
    prefix = analysis.text[line_start:offset]
    m = _PARAM_TYPED.search(prefix)
    if m is None or _in_comment(prefix):
        return None
    end = offset
    while end < len(analysis.text) and (analysis.text[end].isalnum() or analysis.text[end] == "_"):
        end += 1
    span = (line_start + m.start(1), end)
    params = read_workflow(analysis.value).params or {}
    return [Completion(n, "id", n, span, "param = " + compact_json(v, 40), "", n) for n, v in params.items()
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n)]


def _yaml_complete(analysis, offset: int) -> list[Completion]:
    params = _param_completions(analysis, offset)
    if params is not None:
        return params
    place = _yaml_place(analysis.text, offset)
    if place is None:
        return []
    if place.part == "slot":
        item = field_info(analysis.kind, analysis.value, place.pointer)
        if item is not None and item.json_type == "object" and not place.flow:
            return _yaml_keys(analysis, place)
        if item is not None and item.json_type == "object":
            return []
        owner = place.pointer.rsplit("/", 1)[0]
        return _yaml_values(analysis, replace(place, part="value", item_of=owner))
    if place.part == "key":
        return _yaml_keys(analysis, place)
    return _yaml_values(analysis, place)


def _yaml_key_insert(f: FieldShape) -> tuple[str, str]:
    """(text, snippet) of a new member `name: …` on one line: a flow `{}`/`[]` for a mapping or list,
    the first word of an enum, a tab stop after the colon for anything else."""
    name = yaml_scalar(f.name)
    if f.json_type in ("object",):
        return f"{name}: {{}}", f"{snippet_escape(name)}: {{$1}}"
    if f.json_type == "array":
        return f"{name}: []", f"{snippet_escape(name)}: [$1]"
    if f.values and f.json_type == "string":
        first = yaml_scalar(str(f.values[0]))
        return f"{name}: {first}", f"{snippet_escape(name)}: ${{1:{snippet_escape(first)}}}"
    if f.json_type == "boolean":
        return f"{name}: true", f"{snippet_escape(name)}: ${{1:true}}"
    return f"{name}: ", f"{snippet_escape(name)}: $1"


def _yaml_keys(analysis, place: _Place) -> list[Completion]:
    shape = object_shape(analysis.kind, analysis.value, place.pointer)
    here = value_at(analysis.value, place.pointer)
    present = set(place.present) | (set(here) if isinstance(here, dict) else set())
    lead = " " if place.space_before else ""
    # before a following key, a comma, and a space unless one already stands there (`{| name: x}`)
    tail = ("," if analysis.text[place.span[1]:place.span[1] + 1] in (" ", "\t") else ", ") if place.comma_after else ""
    if shape is None:
        return _yaml_name_keys(analysis, place, present, lead, tail)
    out = []
    for f in shape.fields:
        if f.name in present:
            continue
        detail = ("required" if f.required else "optional") + f" · {f.expected}"
        if place.bare:
            out.append(Completion(f.name, "key", yaml_scalar(f.name), place.span, detail, f.description, f.name))
            continue
        text, snippet = _yaml_key_insert(f)
        out.append(Completion(f.name, "key", lead + text + tail, place.span, detail, f.description, f.name,
                              lead + snippet + tail, place.comma_at))
    out.sort(key=lambda c: 0 if c.detail.startswith("required") else 1)
    return out


def _yaml_name_keys(analysis, place: _Place, present: set, lead: str, tail: str) -> list[Completion]:
    """Under a mapping of names (`statuses:`): the names referred to and not defined yet."""
    kind = _key_name_kind(analysis.kind, analysis.value, place.pointer)
    if kind is None:
        return []
    out = []
    for n in _undefined(analysis.kind, analysis.value, kind):
        if n in present:
            continue
        name = yaml_scalar(n)
        detail = f"{kind} referred to, not defined yet"
        if place.bare:
            out.append(Completion(n, "id", name, place.span, detail, "", n))
        else:
            out.append(Completion(n, "id", f"{lead}{name}: {{}}{tail}", place.span, detail, "", n,
                                  f"{lead}{snippet_escape(name)}: {{$1}}{tail}", place.comma_at))
    return out


def _yaml_values(analysis, place: _Place) -> list[Completion]:
    lead = " " if place.space_before else ""
    tail = ", " if place.comma_after and place.flow and not place.quote else ""

    def word(label: str, kind: str, scalar: str, detail: str, doc: str = "") -> Completion:
        """A value completion: inside quotes the text between them; right after `key:` a snippet too,
        since a client inserting at the cursor may cut its text at the space (Neovim)."""
        if place.quote:
            return Completion(label, kind, _quoted_scalar(label, place.quote, place.closed), place.span, detail, doc, label)
        snippet = lead + snippet_escape(scalar) + tail if lead else None
        return Completion(label, kind, lead + scalar + tail, place.span, detail, doc, label, snippet)

    names = _names_for(analysis, place.pointer)
    out: list[Completion] = []
    if names is not None:
        taken = _taken(analysis.value, place.item_of)
        for n in names:
            if n.name in taken:
                continue
            out.append(word(n.name, "id" if n.detail != "a status kanban.db holds" else "value",
                            yaml_scalar(n.name), n.detail, n.documentation))
        return out
    fs = field_info(analysis.kind, analysis.value, place.pointer)
    if fs is None:
        return []
    for v in fs.values:
        if isinstance(v, str) or not place.quote:
            w = yaml_scalar(str(v)) if isinstance(v, str) else json.dumps(v)
            out.append(word(str(v), "value", w, fs.name, fs.description))
    for v in fs.examples:
        if v not in fs.values:
            out.append(word(v, "value", yaml_scalar(v), f"{fs.name} (known value)", fs.description))
    if fs.json_type == "boolean" and not place.quote:
        out += [word(v, "value", v, fs.name, fs.description) for v in ("true", "false")]
    return out


__all__ = ["neighbour_complete_at", "yaml_scalar"]
