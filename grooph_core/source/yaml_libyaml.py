"""The fast path of the YAML reader: libyaml's C parser (PyYAML's `CParser`) and an iterative composer.

`compose(text, max_depth)` returns the node tree `yaml_reader` builds values and spans from, shaped as
ruamel.yaml's (`id`, `tag`, `value`, `style`, `flow_style`, `start_mark.index`, `end_mark.index`), with
the YAML 1.2 core schema for untagged plain scalars, or `None` when this path does not answer: an empty
value other than `key:` in a block mapping, `key: ` in a flow one and `- ` in a block sequence (whose
marks are put where ruamel puts them), an undefined alias, nesting past `max_depth`, directives, a BOM,
the line breaks U+0085, U+2028, U+2029. A parser complaint gives a `Refused`: the whole lines
before the complaint that ruamel may skip to find it (see `Refused`), or `None` when anchors were read.
`yaml_reader` then asks ruamel.yaml (made to read as the engine's libyaml by `yaml_engine_rules`,
spec/workflow.md §0), so every message and mark is ruamel's; where libyaml answers it gives the same
tree (tests/core/test_yaml_libyaml.py proves it differentially).
"""

from __future__ import annotations

import re

try:
    from yaml import CBaseLoader, MarkedYAMLError
    from yaml.events import (AliasEvent, DocumentEndEvent, DocumentStartEvent, MappingStartEvent,
                             ScalarEvent, SequenceStartEvent, StreamEndEvent)
except ImportError:  # PyYAML without libyaml: ruamel.yaml reads everything
    CBaseLoader = None

_TAG = "tag:yaml.org,2002:"
_STR_TAG = _TAG + "str"
# Texts this path leaves to ruamel: directives (`%YAML 1.1` changes nothing for serde, but libyaml and
# ruamel disagree on which versions they accept) and byte-order marks.
_DIRECTIVE = re.compile(r"(?:^|[\r\n])%")
_ODD_BREAKS = "\x85\u2028\u2029"


_TAGS: dict[str, str] = {}


def _tag(name: str) -> str:
    """The core-schema tag of this name, one string for every scalar of it."""
    tag = _TAGS.get(name)
    if tag is None:
        tag = _TAGS[name] = _TAG + name
    return tag


class Node:
    """One node, with the attributes of ruamel.yaml's nodes that the value builder reads."""

    __slots__ = ("id", "tag", "value", "style", "flow_style", "start_mark", "end_mark")

    def __init__(self, id, tag, value, style, flow_style, start_mark, end_mark):
        self.id = id
        self.tag = tag
        self.value = value
        self.style = style
        self.flow_style = flow_style
        self.start_mark = start_mark
        self.end_mark = end_mark


class Mark:
    """A position put where ruamel.yaml puts it (libyaml's differs)."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


class Refused:
    """libyaml refused the text (ruamel will too, or read it: `yaml_reader` asks). `cuts`: spans of whole
    lines, all before the complaint, that ruamel may skip and still say exactly what it says about the
    whole text: in each block collection open at the complaint, the complete entries after its first and
    before the one being read (or the last complete one), and the first entry's value when it stands on
    lines of its own. The parser's state after them is the state before them (the collection, its
    indentation, a new line), and they hold no anchor (there was none)."""

    __slots__ = ("cuts",)

    def __init__(self, cuts: tuple[tuple[int, int], ...]):
        self.cuts = cuts


def available() -> bool:
    return CBaseLoader is not None


def compose(text: str, max_depth: int, resolve_plain):
    """(root node or None when the text is empty, offset of a second document or None), a `Refused`, or
    `None` when libyaml does not answer (see the module docstring). `resolve_plain(value)` names the
    core-schema tag of an untagged plain scalar."""
    if (CBaseLoader is None or "\ufeff" in text or _DIRECTIVE.search(text)
            or any(c in text for c in _ODD_BREAKS)):
        return None
    try:
        return _compose(text, max_depth, resolve_plain)
    except _Differs:
        return None
    except Exception:  # libyaml's complaint (or a text it cannot encode): ruamel tells the user
        return None


class _Differs(Exception):
    """A text on which libyaml and ruamel are known to disagree: ruamel reads it."""


_BLANK_LINE = re.compile(r"\n[ ]+\n")


def _compose(text: str, max_depth: int, resolve_plain):
    loader = CBaseLoader(text)
    try:
        get = loader.get_event
        event = get()  # stream start
        event = get()
        if isinstance(event, StreamEndEvent):
            return None, None
        if not isinstance(event, DocumentStartEvent):
            return None
        anchors: dict = {}
        plain_tags: dict[str, str] = {}  # a plain scalar's text -> its tag (one string per tag, not per scalar)
        stack: list[Node] = []  # open collections
        keys: list = []  # per open mapping: the pending key node (None when the next scalar is a key)
        root = None
        while True:
            try:
                event = get()
            except MarkedYAMLError:
                return None if anchors else Refused(_skippable(text, stack, keys))
            cls = type(event)
            if cls is ScalarEvent:
                if len(stack) + 1 > max_depth:
                    return None
                tag = event.tag
                style = event.style or None
                start_mark = end_mark = event.start_mark
                if style is None and (start_mark.index == event.end_mark.index or not event.value):
                    at = _empty_at(text, stack, keys, event)
                    if at is None:
                        return None  # an empty value whose mark libyaml and ruamel place differently
                    start_mark = end_mark = Mark(at)
                else:
                    end_mark = event.end_mark
                if not stack:
                    raise _Differs  # a scalar document (no workflow is one): edge cases differ, ruamel decides
                if style in ("|", ">") and (not stack or not event.value
                                            or _BLANK_LINE.search(text, event.start_mark.index, event.end_mark.index + 1)):
                    # block scalars where the two are known to differ: one at the root (`|\n#`), an empty
                    # one, one with a line of spaces only (ruamel refuses some that libyaml reads: "more
                    # indented follow up line than first"); ruamel decides
                    raise _Differs
                if tag is None or tag == "!":
                    if style is None and event.implicit[0]:  # a plain scalar's tag, asked once per text
                        tag = plain_tags.get(event.value)
                        if tag is None:
                            tag = plain_tags[event.value] = _tag(resolve_plain(event.value))
                    else:
                        tag = _STR_TAG
                node = Node("scalar", tag, event.value, style, None, start_mark, end_mark)
                if event.anchor is not None:
                    anchors[event.anchor] = node
            elif cls is AliasEvent:
                node = anchors.get(event.anchor)
                if node is None:
                    return None
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                if len(stack) + 1 > max_depth:
                    return None
                is_map = cls is MappingStartEvent
                node = Node("mapping" if is_map else "sequence", event.tag, [], None, event.flow_style,
                            event.start_mark, None)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                _add(stack, keys, node)
                stack.append(node)
                keys.append(None)
                continue
            elif cls is DocumentEndEvent:
                break
            else:  # the end of a collection
                done = stack.pop()
                keys.pop()
                done.end_mark = event.end_mark
                if not stack:
                    root = done
                continue
            if not stack:
                root = node
            else:
                _add(stack, keys, node)
        event = get()
        second = event.start_mark.index if isinstance(event, DocumentStartEvent) else None
        return root, second
    finally:
        loader.dispose()


# What lies between a block mapping's `:` and the next token: spaces and tabs, line breaks, comments.
_GAP = re.compile(r"(?:[ \t\r\n]+|#[^\r\n]*)*")


def _empty_at(text: str, stack: list, keys: list, event) -> int | None:
    """Where ruamel puts an empty plain value that libyaml reads (None when that is not known):

    - `key:` in a block mapping: libyaml just after the `:`, ruamel at the end of the next token (a key,
      the mapping's end: where the next one starts; an explicit `?` or a lone `:` of this mapping, one
      character on);
    - `key: ` in a flow mapping (or a one-pair mapping in a flow sequence), before `,` `}` `]` on the same
      line: libyaml at that character, ruamel just after the `:`;
    - `- ` in a block sequence: both just after the `-`.
    Anything else (an empty key, a tag or anchor with no value, a value whose `:` is lines away) is left
    to ruamel."""
    at = event.start_mark.index
    if event.value or at != event.end_mark.index or not stack:
        return None
    parent = stack[-1]
    if parent.id == "sequence":
        return at if not parent.flow_style and text[at - 1:at] == "-" else None
    if keys[-1] is None:  # an empty key
        return None
    if not parent.flow_style:
        if text[at - 1:at] != ":":
            return None
        j = _GAP.match(text, at).end()
        if j < len(text) and text[j] in "?:" and text[j + 1:j + 2] in ("", " ", "\r", "\n"):
            # a `?`/`:` of this mapping is the next token; one of a mapping further out (`? x:\n: b`, the
            # `:` left of this mapping's column) comes after the block's end, which ruamel marks at it
            mapping_at = parent.start_mark.index
            if j - _line_start(text, j) >= mapping_at - _line_start(text, mapping_at):
                return j + 1
        return j
    q = at - 1
    while q >= 0 and text[q] in " \t":
        q -= 1
    return q + 1 if q >= 0 and text[q] == ":" else None


_KEY_PREFIX = re.compile(r"[ ]*(?:\?[ ]+)?\Z")  # what may stand before a block mapping's later key
_ITEM_PREFIX = re.compile(r"[ ]*-[ ]+\Z")  # before a block sequence's later item


def _line_start(text: str, i: int) -> int:
    return max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1


def _skippable(text: str, stack: list, keys: list) -> tuple[tuple[int, int], ...]:
    """The `Refused.cuts` of a complaint met with these collections open (outermost first)."""
    cuts = []
    for i, node in enumerate(stack):
        if node.flow_style:  # in a flow collection lines mean nothing: keep it and what it holds
            break
        # the entries so far, the one being read included when it is a value (an open collection is
        # added to its parent when it starts), or a key read whole whose value is being read
        inner = stack[i + 1] if i + 1 < len(stack) else None
        if node.id == "mapping":
            starts = [k.start_mark.index for k, _ in node.value]
            if keys[i] is not None and keys[i] is not inner:
                starts.append(keys[i].start_mark.index)
            prefix = _KEY_PREFIX
        else:
            starts = [n.start_mark.index for n in node.value]
            prefix = _ITEM_PREFIX
        if len(starts) < 2:
            continue
        end = _line_start(text, starts[-1])
        if not prefix.match(text, end, starts[-1]):
            continue
        begin = None
        if len(starts) > 2 and prefix.match(text, _line_start(text, starts[1]), starts[1]):
            begin = _line_start(text, starts[1])
        if node.id == "mapping":  # the first value too, when it has lines of its own
            key, value = node.value[0]
            v = value.start_mark.index
            own = _line_start(text, v)
            if own > key.end_mark.index and not text[own:v].strip(" "):
                begin = own
        if begin is not None and begin < end:
            cuts.append((begin, end))
    return tuple(cuts)


def _add(stack: list, keys: list, node: Node) -> None:
    if not stack:
        return
    parent = stack[-1]
    if parent.id == "sequence":
        parent.value.append(node)
    elif keys[-1] is None:
        keys[-1] = node
    else:
        parent.value.append((keys[-1], node))
        keys[-1] = None
