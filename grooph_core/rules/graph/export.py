"""The export-only ("complete") check (graph.md §3.4, §5: `E_NO_TARGET`, `E_NO_GOAL`, `E_IS_TEMPLATE`,
`E_UNFILLED_SLOT`, `E_PERSON_STEP_NOT_COMPILED`). Only run with the export flag."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grooph_core.issues import Facts, Issue, make
from grooph_core.semantics.graph_index import KNOWN_HARNESSES, GraphIndex, find_slots, is_person_step, str_id
from grooph_core.source.text import is_blank, quoted


@dataclass(frozen=True)
class NoTarget(Facts):
    """E_NO_TARGET: `variant`, `harness` (the value written there, or None)."""

    code = "E_NO_TARGET"
    variant: Literal["missing", "unknown"]
    harness: object


def no_target_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """`target` absent or its harness blank ("missing"); else a harness with no compiler ("unknown").

    Pointer: `/target/harness`, or the root when `target` is absent. Facts: `NoTarget`."""
    gid = index.graph_id
    target = doc.get("target")
    harness = target.get("harness") if isinstance(target, dict) else None
    if not isinstance(target, dict) or not isinstance(harness, str) or is_blank(harness):
        ptr = "/target/harness" if isinstance(target, dict) and "harness" in target else ("/target" if isinstance(target, dict) else "")
        msg = ("no target harness is named: set target.harness (claude-code or codex) to export a package "
               "for a harness")
        return [make("E_NO_TARGET", msg, [gid], [ptr], facts=NoTarget("missing", harness))]
    if harness in KNOWN_HARNESSES:
        return []
    msg = (f'the target harness "{harness}" has no compiler (known: {quoted(KNOWN_HARNESSES)}), so no package '
           f"can be produced; the document remains usable as a plan")
    return [make("E_NO_TARGET", msg, [gid], ["/target/harness"], facts=NoTarget("unknown", harness))]


def no_goal_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """`goal` absent or blank. Pointer: `/goal`, or the root when absent."""
    goal = doc.get("goal")
    if isinstance(goal, str) and not is_blank(goal):
        return []
    msg = ("exporting requires a goal, since the lead's instructions start from it; set the goal in the "
           "person's words")
    return [make("E_NO_GOAL", msg, [index.graph_id], ["/goal" if "goal" in doc else ""])]


def is_template_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """The document has a `template` block. Pointer: `/template`."""
    if "template" not in doc:
        return []
    gid = index.graph_id
    msg = (f'"{gid}" is a template and cannot be exported; instantiate it first (for example with the '
           f"template use command and a graph name), giving every slot a value")
    return [make("E_IS_TEMPLATE", msg, [gid], ["/template"])]


@dataclass(frozen=True)
class UnfilledSlot(Facts):
    """E_UNFILLED_SLOT: the slot `key` and the `holders` whose text holds it."""

    code = "E_UNFILLED_SLOT"
    key: str
    holders: tuple[str, ...]


def unfilled_slot_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue per distinct slot key (§2.12), in discovery order.

    Pointers: every string value containing the slot. Facts: `UnfilledSlot`."""
    out = []
    for use in find_slots(doc):
        msg = (f"the slot {{{{{use.key}}}}} is still in the text of {quoted(use.holders)}; replace it with the "
               f"real value before export")
        out.append(make("E_UNFILLED_SLOT", msg, use.holders, use.pointers,
                        facts=UnfilledSlot(use.key, tuple(use.holders))))
    return out


@dataclass(frozen=True)
class PersonStepNotCompiled(Facts):
    """E_PERSON_STEP_NOT_COMPILED: the person's `steps` (ids, document order)."""

    code = "E_PERSON_STEP_NOT_COMPILED"
    steps: tuple[str, ...]


def person_step_not_compiled_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """One issue listing every person's step (§2.2). Pointers: each step's `by`. Facts: `PersonStepNotCompiled`."""
    steps = [(i, str_id(n) or "") for i, n in enumerate(index.nodes) if is_person_step(n)]
    if not steps:
        return []
    ids = [s for _, s in steps]
    if len(ids) == 1:
        which = f'step "{ids[0]}" is performed by a person'
        them, it = "it", "an agent's step"
    else:
        which = f"steps {quoted(ids)} are performed by a person"
        them, it = "them", "agents' steps"
    msg = (f"{which}, and no harness package can contain a step performed by a person yet, so none is "
           f"produced; the document can still be exported as a plan; running it in a harness would take "
           f"turning {them} into {it}")
    return [make("E_PERSON_STEP_NOT_COMPILED", msg, ids, [f"/nodes/{i}/by" for i, _ in steps],
                 facts=PersonStepNotCompiled(tuple(ids)))]


def export_issues(doc: dict, index: GraphIndex) -> list[Issue]:
    """Rule 10 of graph.md §3.3: E_NO_TARGET, E_NO_GOAL, then E_IS_TEMPLATE when the document has a
    `template` block, else every E_UNFILLED_SLOT followed by E_PERSON_STEP_NOT_COMPILED."""
    out = no_target_issues(doc, index) + no_goal_issues(doc, index)
    if "template" in doc:
        return out + is_template_issues(doc, index)
    return out + unfilled_slot_issues(doc, index) + person_step_not_compiled_issues(doc, index)
