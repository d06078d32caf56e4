"""The flow in the text (issue 31 items 1 and 2), what every kind's answer is made of: a highlight of a name
(its definition written, each use read) and the call hierarchy of a document's flow (a graph's nodes and
edges, a map's ends and handoffs, a workflow's statuses and transitions), as plain values the shell converts.

A `FlowItem` is one thing of the flow (a node, a session, a status, an entry such as a workflow's `initial`);
its `kind` and `id` say which, so that a later request (incoming, outgoing) finds it again in the newest
analysis: an item whose id is gone there answers no calls. A `FlowCall` is one other item with the places
(`spans`) where the flow between the two is written and what the link says (`detail`: an edge's `when`, a
handoff's carrier, a transition's event and guard).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Highlight:
    """One place of a name: `write` at its definition, else a use (read)."""

    span: tuple[int, int]
    write: bool


@dataclass(frozen=True)
class FlowItem:
    """One thing of a document's flow. `kind` is the kind's own word ("node", "session", "person",
    "status", "run state", "entry"); `id` finds it again; `span` is all of it, `selection` its name."""

    kind: str
    id: str
    name: str
    detail: str
    span: tuple[int, int]
    selection: tuple[int, int]


@dataclass(frozen=True)
class FlowCall:
    """A link of the flow to or from an item: the item at the other end, where the links are written
    (`spans`, in text order) and what they say (`detail`)."""

    item: FlowItem
    spans: tuple[tuple[int, int], ...]
    detail: str


def grouped(links: list[tuple[FlowItem, tuple[int, int], str]]) -> list[FlowCall]:
    """One call per other item (in order of first appearance), its links' spans and details joined: two
    edges from the same node are one caller with two places."""
    order: dict[tuple[str, str], tuple[FlowItem, list, list]] = {}
    for item, span, detail in links:
        _, spans, details = order.setdefault((item.kind, item.id), (item, [], []))
        spans.append(span)
        if detail and detail not in details:
            details.append(detail)
    return [FlowCall(item, tuple(spans), "; ".join(details)) for item, spans, details in order.values()]


class FlowFace:
    """The flow requests of a kind's face (`DocumentKind.highlights`, `call_items`, `incoming_calls`,
    `outgoing_calls`) answered by its family's flow module (`flow_module`: `highlights_at`, `call_items_at`,
    `incoming_calls`, `outgoing_calls`), imported when first asked. Listed before `DocumentKind` among a
    face's bases."""

    flow_module: str = ""

    def _flow(self):
        return importlib.import_module(self.flow_module)

    def highlights(self, analysis, offset):
        return self._flow().highlights_at(analysis, offset)

    def call_items(self, analysis, offset):
        return self._flow().call_items_at(analysis, offset)

    def incoming_calls(self, analysis, kind, ident):
        return self._flow().incoming_calls(analysis, kind, ident)

    def outgoing_calls(self, analysis, kind, ident):
        return self._flow().outgoing_calls(analysis, kind, ident)
