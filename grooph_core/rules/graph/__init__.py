"""The semantic rules of the graph document, in the order of graph.md §3.3 (rules 1-23).

`graph_rule_issues` runs them on a document that passed the schema check. `W_UNKNOWN_KEY` and
`W_DOC_TOO_LARGE` (rules 24 and 25) are appended by the pipeline (`grooph_core.rules.validate`), not here.
Each rule is a plain function `(doc, index) -> list[Issue]` over one shared `GraphIndex`, registered
by one line of `RULES` (its codes, its place in the order).
"""

from __future__ import annotations

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
from grooph_core.semantics.graph_index import INDEX_PARTS, GraphIndex, build_index, updated_index
from grooph_core.semantics.references import ID_LISTS
from grooph_core.rules.registration import Rule, reads, rule_order
from grooph_core.rules.rule_memo import RuleMemo

# graph.md §3.3, rules 1-23: one registration line per rule, in the spec's order (the issues come out
# in this order; rule 10 runs only with the export flag). Each rule is `(doc, index) -> list[Issue]`.
RULES: tuple[Rule, ...] = (
    Rule(duplicate_id_issues, ("E_DUPLICATE_ID",),  # 1
         reads=reads(root=("id",), nodes=("id",), edges=("id",), loops=("id",), groups=("id",), policies=("id",),
                     notes=("id",))),
    Rule(dangling_ref_issues, ("E_DANGLING_REF",),  # 2
         reads=reads(nodes=("id",), edges=("id", "from", "to"), loops=("id", "members", "back", "bar", "stops"),
                     groups=("id", "members"), policies=("id", "scope"))),
    Rule(loop_back_edge_issues, ("E_LOOP_BACK_EDGE",),  # 3
         reads=reads(edges=("id", "from", "to"), loops=("id", "members", "back", "stops"))),
    Rule(group_cycle_issues, ("E_GROUP_CYCLE",),  # 4
         reads=reads(groups=("id", "members"))),
    Rule(second_lead_issues, ("E_SECOND_LEAD",),  # 5
         reads=reads(nodes=("id", "kind", "role"))),
    Rule(person_lead_issues, ("E_PERSON_LEAD",),  # 6
         reads=reads(nodes=("id", "kind", "role", "by"))),
    Rule(cycle_no_stop_issues, ("E_CYCLE_NO_STOP",),  # 7
         reads=reads(nodes=("id",), edges=("id", "from", "to"), loops=("back", "stops"))),
    Rule(judgment_loop_no_bar_issues, ("E_JUDGMENT_LOOP_NO_BAR",),  # 8
         reads=reads(nodes=("id", "kind"), edges=("id", "from"), loops=("id", "back", "bar", "mode"))),
    Rule(stop_not_inspectable_issues, ("E_STOP_NOT_INSPECTABLE",),  # 9
         reads=reads(nodes=("id",), loops=("id", "bar", "stops"))),
    Rule(export_issues, ("E_NO_TARGET", "E_NO_GOAL", "E_IS_TEMPLATE", "E_UNFILLED_SLOT", "E_PERSON_STEP_NOT_COMPILED"),
         export=True, reads=reads(root=("*",), **{name: ("*",) for name in ID_LISTS["graph"]})),  # 10: every text
    Rule(critic_not_isolated_issues, ("E_CRITIC_NOT_ISOLATED",),  # 11
         reads=reads(nodes=("id", "kind", "role", "by"), edges=("id", "from", "to", "isolation", "evidence"),
                     loops=("id", "members", "back", "stops"), policies=("id", "kind", "scope"))),
    Rule(ownership_conflict_issues, ("E_OWNERSHIP_CONFLICT",),  # 12
         reads=reads(nodes=("id", "kind", "role", "owns", "merges"))),
    Rule(irreversible_no_gate_issues, ("E_IRREVERSIBLE_NO_GATE",),  # 13
         reads=reads(nodes=("id", "kind", "by", "irreversible"), edges=("id", "from", "to", "approval"),
                     loops=("id", "members", "back", "stops"))),
    Rule(homogeneous_critics_issues, ("W_HOMOGENEOUS_CRITICS",),  # 14
         reads=reads(root=("target",), nodes=("id", "kind", "role", "by", "model"), edges=("id", "from", "to"),
                     loops=("members", "back", "stops"))),
    Rule(fanout_on_coupled_issues, ("W_FANOUT_ON_COUPLED",),  # 15
         reads=reads(nodes=("id", "kind", "owns", "coupled"), edges=("id", "to", "concurrency"),
                     groups=("id", "members", "coupled"))),
    Rule(long_loop_no_budget_issues, ("W_LONG_LOOP_NO_BUDGET",),  # 16
         reads=reads(loops=("id", "stops"))),
    Rule(aspiration_as_acceptance_issues, ("W_ASPIRATION_AS_ACCEPTANCE",),  # 17
         reads=reads(loops=("id", "bar"))),
    Rule(only_max_iterations_issues, ("W_ONLY_MAX_ITERATIONS",),  # 18
         reads=reads(nodes=("id", "kind"), edges=("id", "from"), loops=("id", "back", "mode", "stops"))),
    Rule(unreachable_node_issues, ("W_UNREACHABLE_NODE",),  # 19
         reads=reads(nodes=("id",), edges=("id", "from", "to"), loops=("members", "back", "stops"))),
    Rule(no_terminal_issues, ("W_NO_TERMINAL",),  # 20
         reads=reads(root=("id", "template"), nodes=("id", "kind"), edges=("id", "from", "to"),
                     loops=("members", "back", "stops"))),
    Rule(output_not_writable_issues, ("W_OUTPUT_NOT_WRITABLE",),  # 21
         reads=reads(nodes=("id", "kind", "role", "by", "allow", "outputs"))),
    Rule(person_fields_not_read_issues, ("W_PERSON_FIELDS_NOT_READ",),  # 22
         reads=reads(nodes=("id", "kind", "by", "model", "effort", "allow", "deny", "skills"))),
    Rule(group_overlap_issues, ("W_GROUP_OVERLAP",),  # 23
         reads=reads(groups=("id", "members"))),
)
# The codes of rules 1-23 in the order they come out (with the export flag on).
RULE_ORDER: tuple[str, ...] = rule_order(RULES)


def graph_rule_issues(doc: dict, *, export: bool = False, memo: RuleMemo | None = None) -> list[Issue]:
    """Rules 1-23 of graph.md §3.3 on a schema-valid graph document, concatenated in order. `memo`: the
    editor's, handed from the version before (`rules/rule_memo.py`)."""
    if not isinstance(doc, dict):
        return []
    return (memo or RuleMemo()).run(RULES, doc, lists=ID_LISTS["graph"], export=export,
                                    args=lambda index: (doc, index), build=build_index, update=updated_index,
                                    index_root=_INDEX_ROOT)


# The root's members the index is built from.
_INDEX_ROOT = frozenset(f for part in INDEX_PARTS for f in part.reads.get("", ()))


__all__ = ["graph_rule_issues", "build_index", "GraphIndex", "RULES", "RULE_ORDER"]
