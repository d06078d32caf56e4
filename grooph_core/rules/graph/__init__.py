"""The semantic rules of the graph document, in the order of graph.md §3.3 (rules 1-23).

`graph_rule_issues` runs them on a document that passed the schema check. `W_UNKNOWN_KEY` and
`W_DOC_TOO_LARGE` (rules 24 and 25) are appended by the pipeline (`grooph_core.validate`), not here.
Each rule is a plain function `(doc, index) -> list[Issue]` over one shared `GraphIndex`.
"""

from __future__ import annotations

from typing import Callable

from grooph_core.issues import Issue
from grooph_core.rules.graph.agents import output_not_writable_issues, person_fields_not_read_issues
from grooph_core.rules.graph.critics import critic_not_isolated_issues, homogeneous_critics_issues
from grooph_core.rules.graph.cycles import cycle_no_stop_issues
from grooph_core.rules.graph.export import export_issues
from grooph_core.rules.graph.gates import irreversible_no_gate_issues
from grooph_core.rules.graph.groups import group_cycle_issues, group_overlap_issues
from grooph_core.rules.graph.ids import duplicate_id_issues
from grooph_core.rules.graph.leads import person_lead_issues, second_lead_issues
from grooph_core.rules.graph.loops import (
    aspiration_as_acceptance_issues,
    judgment_loop_no_bar_issues,
    long_loop_no_budget_issues,
    loop_back_edge_issues,
    only_max_iterations_issues,
    stop_not_inspectable_issues,
)
from grooph_core.rules.graph.ownership import fanout_on_coupled_issues, ownership_conflict_issues
from grooph_core.rules.graph.reach import no_terminal_issues, unreachable_node_issues
from grooph_core.rules.graph.references import dangling_ref_issues
from grooph_core.rules.graph.semantics import GraphIndex, build_index

Rule = Callable[[dict, GraphIndex], list[Issue]]

# graph.md §3.3, rules 1-9.
RULES_BEFORE_EXPORT: tuple[Rule, ...] = (
    duplicate_id_issues,  # 1 E_DUPLICATE_ID
    dangling_ref_issues,  # 2 E_DANGLING_REF
    loop_back_edge_issues,  # 3 E_LOOP_BACK_EDGE
    group_cycle_issues,  # 4 E_GROUP_CYCLE
    second_lead_issues,  # 5 E_SECOND_LEAD
    person_lead_issues,  # 6 E_PERSON_LEAD
    cycle_no_stop_issues,  # 7 E_CYCLE_NO_STOP
    judgment_loop_no_bar_issues,  # 8 E_JUDGMENT_LOOP_NO_BAR
    stop_not_inspectable_issues,  # 9 E_STOP_NOT_INSPECTABLE
)
# Rule 10 (export flag only): E_NO_TARGET, E_NO_GOAL, E_IS_TEMPLATE | E_UNFILLED_SLOT + E_PERSON_STEP_NOT_COMPILED.
EXPORT_RULE: Rule = export_issues
# graph.md §3.3, rules 11-23.
RULES_AFTER_EXPORT: tuple[Rule, ...] = (
    critic_not_isolated_issues,  # 11 E_CRITIC_NOT_ISOLATED
    ownership_conflict_issues,  # 12 E_OWNERSHIP_CONFLICT
    irreversible_no_gate_issues,  # 13 E_IRREVERSIBLE_NO_GATE
    homogeneous_critics_issues,  # 14 W_HOMOGENEOUS_CRITICS
    fanout_on_coupled_issues,  # 15 W_FANOUT_ON_COUPLED
    long_loop_no_budget_issues,  # 16 W_LONG_LOOP_NO_BUDGET
    aspiration_as_acceptance_issues,  # 17 W_ASPIRATION_AS_ACCEPTANCE
    only_max_iterations_issues,  # 18 W_ONLY_MAX_ITERATIONS
    unreachable_node_issues,  # 19 W_UNREACHABLE_NODE
    no_terminal_issues,  # 20 W_NO_TERMINAL
    output_not_writable_issues,  # 21 W_OUTPUT_NOT_WRITABLE
    person_fields_not_read_issues,  # 22 W_PERSON_FIELDS_NOT_READ
    group_overlap_issues,  # 23 W_GROUP_OVERLAP
)


def graph_rule_issues(doc: dict, *, export: bool = False) -> list[Issue]:
    """Rules 1-23 of graph.md §3.3 on a schema-valid graph document, concatenated in order."""
    if not isinstance(doc, dict):
        return []
    index = build_index(doc)
    issues: list[Issue] = []
    for rule in RULES_BEFORE_EXPORT:
        issues += rule(doc, index)
    if export:
        issues += EXPORT_RULE(doc, index)
    for rule in RULES_AFTER_EXPORT:
        issues += rule(doc, index)
    return issues


__all__ = ["graph_rule_issues", "build_index", "GraphIndex", "RULES_BEFORE_EXPORT", "RULES_AFTER_EXPORT"]
