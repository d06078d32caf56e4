"""The rules of an operation map (map.md §4.2, codes 2–9), on a map that passed the structural check.

`map_rule_issues` runs them in rule order and concatenates their issues (no de-duplication, no
re-sorting). `W_UNKNOWN_KEY` and `W_DOC_TOO_LARGE` (codes 10–11) are appended by the pipeline
(`grooph_core.rules.validate.rule_issues`).
"""

from __future__ import annotations

from grooph_core.issues import Issue
from grooph_core.rules.map.carriers import (
    carrier_cannot_cross_issues,
    handoff_no_carrier_issues,
    notify_not_person_issues,
)
from grooph_core.rules.map.connections import no_return_issues, session_island_issues
from grooph_core.rules.map.graph_pointers import (
    FOUND,
    NOT_A_GRAPH,
    UNKNOWN,
    GraphResolver,
    file_graph_resolver,
    graph_unresolved_issues,
    is_checked_pointer,
)
from grooph_core.rules.map.ids import duplicate_id_issues
from grooph_core.rules.map.references import dangling_ref_issues
from grooph_core.semantics.map_index import MapIndex, map_index, updated_map_index
from grooph_core.semantics.references import ID_LISTS
from grooph_core.rules.registration import Rule, reads, rule_order
from grooph_core.rules.rule_memo import RuleMemo

__all__ = [
    "FOUND", "NOT_A_GRAPH", "UNKNOWN", "GraphResolver", "MapIndex",
    "RULES", "RULE_ORDER", "file_graph_resolver", "is_checked_pointer", "map_index", "map_rule_issues",
]


# map.md §4.2 codes 2–9: one registration line per rule, in the spec's order. Each rule is
# `(index, resolver) -> list[Issue]`; W_GRAPH_UNRESOLVED says nothing without a resolver (map.md §4.4).
RULES: tuple[Rule, ...] = (
    Rule(lambda index, resolver: duplicate_id_issues(index), ("E_DUPLICATE_ID",),  # 2
         reads=reads(root=("id",), lanes=("id",), people=("id",), sessions=("id",), handoffs=("id",))),
    Rule(lambda index, resolver: dangling_ref_issues(index), ("E_DANGLING_REF",),  # 3
         reads=reads(lanes=("id",), people=("id",), sessions=("id", "lane"), handoffs=("id", "from", "to"))),
    Rule(lambda index, resolver: handoff_no_carrier_issues(index), ("E_HANDOFF_NO_CARRIER",),  # 4
         reads=reads(lanes=("id", "account"), people=("id", "name"), sessions=("id", "lane", "harness", "repo"),
                     handoffs=("id", "from", "to", "carrier"))),
    Rule(lambda index, resolver: carrier_cannot_cross_issues(index), ("W_CARRIER_CANNOT_CROSS",),  # 5
         reads=reads(lanes=("id", "account"), people=("id",), sessions=("id", "lane", "harness", "repo"),
                     handoffs=("id", "from", "to", "carrier"))),
    Rule(lambda index, resolver: notify_not_person_issues(index), ("W_NOTIFY_NOT_PERSON",),  # 6
         reads=reads(lanes=("id", "account"), people=("id",), sessions=("id", "lane", "harness"),
                     handoffs=("id", "from", "to", "carrier"))),
    Rule(lambda index, resolver: session_island_issues(index), ("W_SESSION_ISLAND",),  # 7
         reads=reads(people=("id",), sessions=("id",), handoffs=("from", "to"))),
    Rule(lambda index, resolver: no_return_issues(index), ("W_NO_RETURN",),  # 8
         reads=reads(sessions=("id",), handoffs=("from", "to"))),
    # 9 asks the resolver about other documents, whose answers change while this one does not: no `reads`,
    # so it always runs (without a resolver it finds nothing at once).
    Rule(graph_unresolved_issues, ("W_GRAPH_UNRESOLVED",)),  # 9
)
# The codes of rules 2–9 in the order they come out.
RULE_ORDER: tuple[str, ...] = rule_order(RULES)


def map_rule_issues(doc: dict, *, resolver: GraphResolver | None = None, memo: RuleMemo | None = None) -> list[Issue]:
    """map.md §4.2 codes 2–9, the rules of `RULES` in order, their issues concatenated. `memo`: the
    editor's, handed from the version before (`rules/rule_memo.py`)."""
    return (memo or RuleMemo()).run(RULES, doc, lists=ID_LISTS["map"], export=False,
                                    args=lambda index: (index, resolver), build=map_index, update=updated_map_index,
                                    index_root=frozenset())
