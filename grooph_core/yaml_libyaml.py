"""The fast path of the YAML reader: libyaml's C parser (PyYAML's `CParser`) and an iterative composer.

`compose(text, max_depth)` returns the node tree `yaml_source` builds values and spans from, shaped as
ruamel.yaml's (`id`, `tag`, `value`, `style`, `flow_style`, `start_mark.index`, `end_mark.index`), with
the YAML 1.2 core schema for untagged plain scalars, or `None` when this path does not answer: any
parser complaint, an empty value (`key:`; the two place its mark differently), an undefined alias, nesting past `max_depth`, directives, a BOM, a tab (ruamel refuses
some that libyaml takes). `yaml_source` then
asks ruamel.yaml (the reference, spec/workflow.md §0), so every message and mark is ruamel's; where
libyaml answers it gives the same tree (tests/core/test_yaml_libyaml.py proves it differentially).
"""

from __future__ import annotations

import re

try:
    from yaml import CBaseLoader
    from yaml.events import (AliasEvent, DocumentEndEvent, DocumentStartEvent, MappingStartEvent,
                             ScalarEvent, SequenceStartEvent, StreamEndEvent)
except ImportError:  # PyYAML without libyaml: ruamel.yaml reads everything
    CBaseLoader = None

_TAG = "tag:yaml.org,2002:"
# Texts this path leaves to ruamel: directives (`%YAML 1.1` changes nothing for serde, but libyaml and
# ruamel disagree on which versions they accept) and byte-order marks.
_DIRECTIVE = re.compile(r"(?:^|[\r\n])%")


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


def available() -> bool:
    return CBaseLoader is not None


def compose(text: str, max_depth: int, resolve_plain):
    """(root node or None when the text is empty, offset of a second document or None), or `None` when
    libyaml does not answer (see the module docstring). `resolve_plain(value)` names the core-schema
    tag of an untagged plain scalar."""
    if CBaseLoader is None or "\ufeff" in text or "\t" in text or _DIRECTIVE.search(text):
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
        stack: list[Node] = []  # open collections
        keys: list = []  # per open mapping: the pending key node (None when the next scalar is a key)
        root = None
        while True:
            event = get()
            cls = type(event)
            if cls is ScalarEvent:
                if len(stack) + 1 > max_depth:
                    return None
                tag = event.tag
                style = event.style or None
                if style is None and (event.start_mark.index == event.end_mark.index or not event.value):
                    return None  # an empty value: libyaml and ruamel place its mark differently
                if not stack:
                    raise _Differs  # a scalar document (no workflow is one): edge cases differ, ruamel decides
                if style in ("|", ">") and (not stack or not event.value
                                            or _BLANK_LINE.search(text, event.start_mark.index, event.end_mark.index + 1)):
                    # block scalars where the two are known to differ: one at the root (`|\n#`), an empty
                    # one, one with a line of spaces only (ruamel refuses some that libyaml reads: "more
                    # indented follow up line than first"); ruamel decides
                    raise _Differs
                if tag is None or tag == "!":
                    tag = _TAG + (resolve_plain(event.value) if style is None and event.implicit[0] else "str")
                node = Node("scalar", tag, event.value, style, None, event.start_mark, event.end_mark)
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
