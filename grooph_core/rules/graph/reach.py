"""Reachability rules (graph.md §2.7, §2.8, §5: `W_UNREACHABLE_NODE`, `W_NO_TERMINAL`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import GraphIndex, str_id
from grooph_core.source.text import quoted


@dataclass(frozen=True)
class UnreachableNode(Facts):
    """W_UNREACHABLE_NODE: the `node` and the `entries` (the entry ids; empty for "no entry node")."""

    code = "W_UNREACHABLE_NODE"
    node: str
    entries: tuple[str, ...]


@dataclass(frozen=True)
class NoTerminal(Facts):
    """W_NO_TERMINAL: `variant`."""

    code = "W_NO_TERMINAL"
    variant: Literal["no stop node", "unreachable"]


def unreachable_node_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning per node (document order) whose id is not reached from the entry nodes.

    Pointer: the node's id. Facts: `UnreachableNode`."""
    entries = index.entries
    reached = index.reached
    out = []
    for i, n in enumerate(index.nodes):
        nid = str_id(n)
        if nid is None or nid in reached:
            continue
        if entries:
            msg = (f'node "{nid}" cannot be reached from any entry node ({quoted(dict.fromkeys(entries))}); connect '
                   f"it from a node the run gets to, or remove it")
        else:
            msg = (f'node "{nid}" cannot be reached: the graph has no entry node (each node is entered by a '
                   f"non-back edge or by another loop's stop)")
        out.append(make("W_UNREACHABLE_NODE", msg, [nid], [f"/nodes/{i}/id"],
                        facts=UnreachableNode(nid, tuple(entries))))
    return out


def no_terminal_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One warning when the graph has nodes, is not a fragment template, and no stop node is reached.

    Pointer: `/nodes`. Facts: `NoTerminal`."""
    if not index.nodes:
        return []
    template = doc.get("template")
    if isinstance(template, dict) and template.get("kind") == "fragment":
        return []
    stops = [str_id(n) for n in index.nodes if isinstance(n, dict) and n.get("kind") == "stop"]
    reached = index.reached
    if any(s in reached for s in stops if s is not None):
        return []
    gid = index.graph_id
    if not stops:
        msg = ("the graph has no stop node, so nothing marks where the run finishes: it would simply stop once "
               "no edge remains to follow; add a stop node where the work is done")
        variant = "no stop node"
    else:
        one = len(stops) == 1
        msg = (f"stop {'node' if one else 'nodes'} {quoted(s or '' for s in stops)} "
               f"{'exists, but it is not' if one else 'exist, but none is'} reachable from an entry node, so "
               f"nothing marks where the run finishes: it would simply stop once no edge remains to follow; "
               f"connect {'it' if one else 'one'}")
        variant = "unreachable"
    return [make("W_NO_TERMINAL", msg, [gid], ["/nodes"], facts=NoTerminal(variant))]
