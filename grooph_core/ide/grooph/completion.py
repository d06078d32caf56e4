"""Completion: keys the object at the cursor declares and lacks, enum values, and ids of existing
objects of the right kind where a reference is expected.

Works on half-typed text: the context (a key or a value, of which member, in which object) is read
from the text around the cursor (JSON strings never span lines) and the tolerant source map's
`enclosing_object`, and the types from the models.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import NamedTuple

from grooph_core.ide.grooph.analysis import Analysis
from grooph_core.ide.grooph.navigation import occurrences
from grooph_core.model import field_info, object_shape
from grooph_core.semantics.references import accepted_kinds
from grooph_core.source.text import pointer_join, value_at


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # "key" | "value" | "id"
    insert_text: str
    span: tuple[int, int]
    detail: str = ""
    documentation: str = ""
    filter_text: str = ""
    snippet: str | None = None  # the same insertion with a tab stop inside the value, for clients that take snippets
    comma_at: int | None = None  # where a comma must also go (after the member before the cursor)

    def client_edit(self, text: str, offset: int, *, ranges: bool = False) -> "ClientEdit":
        """The edit a client is given at the cursor `offset` (issue 21 item 5, issue 29 item 1).

        Inside a JSON string it starts after the opening quote already typed and is filtered by the
        word between the quotes: clients filter by the text from the edit's start to the cursor (VS
        Code, lsp-mode, Neovim) or by the word at the cursor without the quote (eglot: `te` in `"te`).
        Its text never repeats what already stands after the cursor: a string's closing quote is left
        in place and not written again, since Neovim's built-in completion and ALE insert the text at
        the cursor rather than apply the range. A completed member whose text cannot end at that quote
        (`"nodes": []` typed as `"nod|"`) is the key's name alone; with `ranges` (the client applies
        ranges and announced `insertReplaceSupport`) it is the whole member over the quote instead."""
        edit = self._client_edit(text, offset, ranges)
        if edit.snippet is None and re.match(r"\S*", edit.text).group() != edit.text.rstrip():
            # Neovim inserts a plain item's text up to its first space; a snippet it inserts whole
            edit = ClientEdit(edit.span, edit.insert_end, edit.text, snippet_escape(edit.text), edit.filter_text)
        return edit

    def _client_edit(self, text: str, offset: int, ranges: bool) -> "ClientEdit":
        start, end = self.span
        typed = text[start:offset]
        if not (start < end and text[start] == '"' and self.insert_text.startswith('"')):
            bare = typed and not typed.startswith('"') and self.filter_text.startswith('"')
            return ClientEdit(self.span, offset, self.insert_text, self.snippet,
                              self.label if bare else self.filter_text)
        words = self.filter_text
        filter_text = words[1:-1] if len(words) > 1 and words[0] == words[-1] == '"' else self.label
        body = self.insert_text[1:]
        snippet = self.snippet[1:] if self.snippet and self.snippet.startswith('"') else self.snippet
        if not (end - 1 >= offset and end - 1 > start and text[end - 1] == '"'):  # not closed on its line
            word_end = _word_end(text, offset, end)
            if body.endswith(",") and text[word_end:end].lstrip().startswith(","):  # the comma is there
                body, snippet = body[:-1], snippet[:-1] if snippet and snippet.endswith(",") else snippet
            return ClientEdit((start + 1, word_end), offset, body, snippet, filter_text)
        if body.endswith('"'):  # the item ends with a string: the quote standing there closes it
            word = re.fullmatch(r'(.*)\$\{1:"(.*)"\}', snippet or "")  # `${1:"agent"}`: `"${1:agent}`
            snippet = (snippet[:-1] if snippet and snippet.endswith('"')
                       else f'{word[1]}"${{1:{word[2]}}}' if word else None)
            return ClientEdit((start + 1, end - 1), offset, body[:-1], snippet, filter_text)
        if ranges:
            return ClientEdit((start + 1, end), end, body, snippet, filter_text)
        key_end = json.JSONDecoder().raw_decode(self.insert_text)[1]  # the member's key, as written
        return ClientEdit((start + 1, end - 1), offset, self.insert_text[1:key_end - 1], None, filter_text)


class ClientEdit(NamedTuple):
    """What a completion replaces and inserts as a client is given it (`Completion.client_edit`):
    `span` the range replaced, `insert_end` the end of the range a client inserting (rather than
    replacing) takes, from `span`'s start."""

    span: tuple[int, int]
    insert_end: int
    text: str
    snippet: str | None
    filter_text: str


_WORD_STOP = frozenset(' \t\r\n",:{}[]')


def _word_end(text: str, offset: int, limit: int) -> int:
    """The end of the word the cursor stands in, up to `limit`: the characters before a space, a
    quote or a JSON delimiter."""
    i = offset
    while i < limit and text[i] not in _WORD_STOP:
        i += 1
    return i


def _open_string_start(text: str, offset: int) -> int | None:
    """Offset of the opening quote when the cursor is inside a string on its line, else None."""
    line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
    in_str, start, i = False, None, line_start
    while i < offset:
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str, start = True, i
        i += 1
    return start if in_str else None


def _string_end(text: str, start: int) -> int:
    """Offset just past the closing quote of the string starting at `start` (or the line's end)."""
    i = start + 1
    while i < len(text) and text[i] not in "\r\n":
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return i


def _bare(ch: str) -> bool:
    return ch.isalnum() or ch in "_.+-"


def _bare_start(text: str, offset: int) -> int:
    """Where the bare word (letters, digits, `_.+-`) ending at the cursor starts."""
    i = offset
    while i > 0 and _bare(text[i - 1]):
        i -= 1
    return i


def _bare_end(text: str, offset: int) -> int:
    i = offset
    while i < len(text) and _bare(text[i]):
        i += 1
    return i


def _prev_significant(text: str, i: int) -> tuple[str, int]:
    while i > 0 and text[i - 1] in " \t\r\n":
        i -= 1
    return (text[i - 1], i - 1) if i > 0 else ("", -1)


def _key_before_colon(text: str, colon: int) -> str | None:
    ch, i = _prev_significant(text, colon)
    if ch != '"':
        return None
    j = i - 1
    while j >= 0 and not (text[j] == '"' and (j == 0 or text[j - 1] != "\\")):
        j -= 1
    if j < 0:
        return None
    try:
        return json.loads(text[j: i + 1])
    except ValueError:
        return None


def _container_open(text: str, i: int) -> tuple[str, int]:
    """The innermost unclosed `{` or `[` before offset i (skipping strings line by line)."""
    depth = 0
    while i > 0:
        i -= 1
        ch = text[i]
        if ch == '"':
            # skip back over a string on this line
            j = i - 1
            while j >= 0 and text[j] not in "\r\n" and not (text[j] == '"' and (j == 0 or text[j - 1] != "\\")):
                j -= 1
            if j >= 0 and text[j] == '"':
                i = j
            continue
        if ch in "}]":
            depth += 1
        elif ch in "{[":
            if depth == 0:
                return ch, i
            depth -= 1
    return "", -1


@dataclass(frozen=True)
class JsonCursor:
    """Where the cursor stands in a JSON text: at a key of the object at `pointer` (`bare`: inside a
    key's quotes, the colon already written), or at the value at `pointer` (`item_of`: a new item of
    the array there). `span` is what a completion replaces."""

    part: str  # "key" | "value"
    pointer: str
    span: tuple[int, int]
    quoted: bool = False
    bare: bool = False
    item_of: str | None = None


def json_cursor(analysis, offset: int) -> JsonCursor | None:
    """The cursor's place in a (possibly half-typed) JSON text, or None where nothing is completed."""
    text = analysis.text
    if analysis.value is None and text.strip():
        return None
    sm = analysis.parsed.source_map
    start = _open_string_start(text, offset)
    if start is not None:
        span = (start, _string_end(text, start))
        before = start
    else:  # a bare word typed (`tr` for `true`, `pl` before its quote) is replaced too
        span = (_bare_start(text, offset), _bare_end(text, offset))
        before = span[0]
    ch, at = _prev_significant(text, before)
    obj_ptr = sm.enclosing_object(offset) if hasattr(sm, "enclosing_object") else None
    if obj_ptr is None:
        obj_ptr = ""
    quoted = start is not None
    if ch == ":":
        key = _key_before_colon(text, at)
        if key is None:
            return None
        return JsonCursor("value", pointer_join(obj_ptr, key), span, quoted)
    open_ch, open_at = _container_open(text, before)
    if open_ch == "[":
        # an array item: the array's key precedes its `[`
        c2, at2 = _prev_significant(text, open_at)
        key = _key_before_colon(text, at2) if c2 == ":" else None
        if key is None:
            return None
        arr_ptr = pointer_join(obj_ptr, key)
        arr = value_at(analysis.value, arr_ptr)
        index = len(arr) if isinstance(arr, list) else 0
        return JsonCursor("value", f"{arr_ptr}/{index}", span, quoted, item_of=arr_ptr)
    if open_ch == "{":
        return JsonCursor("key", obj_ptr, span, quoted, bare=quoted and _followed_by_colon(text, span[1]))
    return None


def complete_at(analysis: Analysis, offset: int) -> list[Completion]:
    """The completions at the cursor, best first."""
    cur = json_cursor(analysis, offset)
    if cur is None:
        return []
    if cur.part == "value":
        return _value_completions(analysis, cur.pointer, cur.span, quoted=cur.quoted, item_of=cur.item_of)
    return _key_completions(analysis, cur.pointer, cur.span, bare=cur.bare)


def _followed_by_colon(text: str, i: int) -> bool:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i < len(text) and text[i] == ":"


_PLACEHOLDERS = {"object": "{}", "array": "[]", "number": "0", "integer": "0", "boolean": "true", "string": '""'}


def _key_completions(analysis: Analysis, obj_ptr: str, span: tuple[int, int], *, bare: bool) -> list[Completion]:
    shape = object_shape(analysis.kind, analysis.value, obj_ptr)
    if shape is None:
        return []  # not a declared object (a record such as layout, free JSON, an unknown key's value)
    return shape_key_completions(analysis.text, shape, span, bare=bare)


def shape_key_completions(text: str, shape, span: tuple[int, int], *, bare: bool) -> list[Completion]:
    """The JSON members an object of `shape` declares and lacks, required first."""
    comma_at, after = separators(text, span) if not bare else (None, "")
    out = []
    for f in shape.fields:
        if f.name in shape.present:
            continue
        placeholder = _PLACEHOLDERS.get(f.json_type, "null")
        if f.values and f.json_type == "string":
            placeholder = json.dumps(str(f.values[0]))
        elif f.values and f.json_type == "number":
            placeholder = str(f.values[0])
        key = json.dumps(f.name)
        detail = ("required" if f.required else "optional") + f" · {f.expected}"
        if bare:
            out.append(Completion(f.name, "key", key, span, detail, f.description, key))
            continue
        insert = f"{key}: {placeholder}{after}"
        snippet = f"{snippet_escape(key)}: {_snippet_value(placeholder)}{after}"
        out.append(Completion(f.name, "key", insert, span, detail, f.description, key, snippet, comma_at))
    out.sort(key=lambda c: 0 if c.detail.startswith("required") else 1)
    return out


def separators(text: str, span: tuple[int, int]) -> tuple[int | None, str]:
    """The commas a new member needs so the object stays valid JSON: one right after the member
    that ends before the cursor (an additional edit there), one after it when another member follows."""
    ch, at = _prev_significant(text, span[0])
    comma_at = None if ch in ("{", ",", "") else at + 1
    i = span[1]
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    after = "," if i < len(text) and text[i] == '"' else ""
    return comma_at, after


def snippet_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _snippet_value(placeholder: str) -> str:
    """A tab stop where the person types: inside the quotes, brackets or braces, or over the default."""
    if placeholder == '""':
        return '"$1"'
    if placeholder in ("[]", "{}"):
        return placeholder[0] + "$1" + placeholder[1]
    return "${1:" + snippet_escape(placeholder) + "}"


def _value_completions(analysis: Analysis, pointer: str, span: tuple[int, int], *, quoted: bool, item_of: str | None = None) -> list[Completion]:
    fs = field_info(analysis.kind, analysis.value, pointer)
    if fs is None:
        return []
    if fs.ref == "scope":
        return _scope_completions(analysis, span)
    if fs.ref:
        return _id_completions(analysis, fs.ref, span, item_of)
    return field_value_completions(fs, span, quoted=quoted)


def field_value_completions(fs, span: tuple[int, int], *, quoted: bool) -> list[Completion]:
    """A field's JSON words: its allowed values, its known values, true and false for a boolean."""
    out = []
    for v in fs.values:
        if isinstance(v, str):
            out.append(Completion(v, "value", json.dumps(v), span, fs.name, fs.description, json.dumps(v)))
        elif not quoted:
            out.append(Completion(str(v), "value", str(v), span, fs.name, fs.description))
    for v in fs.examples:
        if v not in fs.values:
            out.append(Completion(v, "value", json.dumps(v), span, f"{fs.name} (known value)", fs.description, json.dumps(v)))
    if fs.json_type == "boolean" and not quoted:
        out += [Completion(v, "value", v, span, fs.name, fs.description) for v in ("true", "false")]
    return out


def _id_completions(analysis: Analysis, ref: str, span, item_of: str | None) -> list[Completion]:
    wanted = accepted_kinds(ref)
    occs = [o for o in occurrences(analysis.value, analysis.kind) if o.definition and o.target in wanted]
    taken: set[str] = set()
    if item_of is not None:
        arr = value_at(analysis.value, item_of)
        if isinstance(arr, list):
            taken = {x for x in arr if isinstance(x, str)}
    out, seen = [], set()
    for o in occs:
        if o.id in seen or o.id in taken:
            continue
        seen.add(o.id)
        obj = value_at(analysis.value, o.pointer.rsplit("/", 1)[0])
        name = obj.get("name") if isinstance(obj, dict) else None
        detail = o.target + (f" — {name}" if isinstance(name, str) and name else "")
        out.append(Completion(o.id, "id", json.dumps(o.id), span, detail, "", json.dumps(o.id)))
    return out


def _scope_completions(analysis: Analysis, span) -> list[Completion]:
    out = [Completion("graph", "value", '"graph"', span, "the whole graph", "", '"graph"')]
    for o in occurrences(analysis.value, analysis.kind):
        if o.definition and o.target in ("node", "loop", "edge"):
            v = f"{o.target}:{o.id}"
            out.append(Completion(v, "value", json.dumps(v), span, f"this {o.target} only", "", json.dumps(v)))
    return out
