"""Selection ranges that follow the structure (issue 31 item 4), for every kind, JSON and YAML alike: from
the cursor outwards, a string's text, the value, its member (key to end of value), the object or list
holding it, that container's member, … up to the whole document. Read off the reading's source map
(`source.source_map.SourceMap`, `source.yaml_reader.YamlSourceMap`: the same questions, the spans of
workflow.md §0 for YAML: a block mapping's entry from its key, a flow collection bracket to bracket)."""

from __future__ import annotations

Span = tuple[int, int]


def selection_chain(analysis, offset: int) -> list[Span]:
    """The spans around `offset`, innermost first, each containing the one before, the last the whole text."""
    text = analysis.text
    sm = analysis.parsed.source_map
    chain: list[Span] = []

    def add(span: Span | None) -> None:
        if span is None or not span[0] <= offset <= span[1]:
            return  # none, or not around the cursor (after the root value, in a broken text's odd spans)
        if chain:
            last = chain[-1]
            if span == last or not (span[0] <= last[0] and last[1] <= span[1]):
                return  # the same again, or not around what is selected
        chain.append(span)

    offset = max(0, min(offset, len(text)))
    if sm.value_span("") is not None:
        pointer, part = sm.pointer_at(offset)
        if part == "key":
            add(_inside_quotes(text, sm.key_span(pointer), offset))
            add(sm.key_span(pointer))
        else:
            vs = sm.value_span(pointer)
            add(_inside_quotes(text, vs, offset))
            add(vs)
        while True:
            ks = sm.key_span(pointer) if pointer else None
            vs = sm.value_span(pointer)
            if ks is not None:  # an object's member: from its key to the end of its value
                add((ks[0], max(ks[1], vs[1] if vs is not None else ks[1])))
            if not pointer:
                break
            pointer = _parent(pointer)
            add(sm.value_span(pointer))
    add((0, len(text)))
    return chain


def _inside_quotes(text: str, span: Span | None, offset: int) -> Span | None:
    """A quoted scalar's text without its quotes, when the cursor is in it and it has any."""
    if span is None:
        return None
    s, e = span
    if e - s >= 3 and text[s] in "\"'" and text[e - 1] == text[s] and s < offset < e:
        return (s + 1, e - 1)
    return None


def _parent(pointer: str) -> str:
    """The pointer of the container (an escaped segment holds no "/")."""
    return pointer[: pointer.rfind("/")]


def selection_ranges(analysis, offsets: list[int]) -> list[list[Span]]:
    """`DocumentKind.selection_ranges`: each offset's chain."""
    return [selection_chain(analysis, o) for o in offsets]
