"""The rules of an operation map (map.md §4.2, codes 2–9), on a map that passed the structural check.

`map_rule_issues` runs them in rule order and concatenates their issues (no de-duplication, no
re-sorting). `W_UNKNOWN_KEY` and `W_DOC_TOO_LARGE` (codes 10–11) are appended by the pipeline
(`grooph_core.validate.rule_issues`).
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
from grooph_core.rules.map.semantics import MapIndex, map_index

__all__ = [
    "FOUND", "NOT_A_GRAPH", "UNKNOWN", "GraphResolver", "MapIndex",
    "file_graph_resolver", "is_checked_pointer", "map_index", "map_rule_issues",
]


def map_rule_issues(doc: dict, *, resolver: GraphResolver | None = None) -> list[Issue]:
    """map.md §4.2 codes 2–9 in order: E_DUPLICATE_ID, E_DANGLING_REF, E_HANDOFF_NO_CARRIER,
    W_CARRIER_CANNOT_CROSS, W_NOTIFY_NOT_PERSON, W_SESSION_ISLAND, W_NO_RETURN, W_GRAPH_UNRESOLVED
    (the last only with a graph resolver, map.md §4.4)."""
    index = map_index(doc)
    issues: list[Issue] = []
    issues += duplicate_id_issues(index)
    issues += dangling_ref_issues(index)
    issues += handoff_no_carrier_issues(index)
    issues += carrier_cannot_cross_issues(index)
    issues += notify_not_person_issues(index)
    issues += session_island_issues(index)
    issues += no_return_issues(index)
    issues += graph_unresolved_issues(index, resolver)
    return issues
