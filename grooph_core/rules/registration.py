"""One registered rule: a plain function, the codes it raises, and how the pipeline takes its issues.

Every rules package (`rules/graph`, `rules/map`, `rules/workflow`, `rules/board`, `rules/episodes`) has
one `RULES` tuple of these, one line per rule, in the spec's rule order; that tuple is the one place
the order lives (the pipeline runs it, the tests read `rule_order(RULES)`).

`by_position` (neighbouring formats): the pipeline orders the rule's issues by their position in the
text (the spec's "all of one code, in document order") instead of keeping the rule's own order
(`Workflow::check()`'s). `export`: the rule runs only with the export flag (graph.md §3.3 rule 10).

`reads` (graphs and maps, issue 33): what of the document the rule's findings can depend on — the root's
members it reads (key `""`) and, per top-level list, the fields of its items (`"*"`: every field, or their
order), whether read directly or through the shared index. `rules/rule_memo.py` keeps a rule's findings
from one version to the next when none of these changed; None (the default) means "not declared": the rule
always runs. `tests/core/rules/test_rule_reads.py` proves each declaration by recording what the rule reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from grooph_core.issues import Issue


@dataclass(frozen=True)
class Rule:
    run: Callable[..., Iterable[Issue]]
    codes: tuple[str, ...]
    by_position: bool = True
    export: bool = False
    reads: Mapping[str, frozenset[str]] | None = None


def reads(root: Iterable[str] = (), **lists: Iterable[str]) -> dict[str, frozenset[str]]:
    """A rule's `reads`: the root's members, and per top-level list the fields of its items."""
    out = {"": frozenset(root)}
    out.update((name, frozenset(fields)) for name, fields in lists.items())
    return out


def rule_order(rules: Iterable[Rule], *, export: bool = True) -> tuple[str, ...]:
    """The codes in the order the rules raise them (a code two rules raise is listed once, first)."""
    return tuple(dict.fromkeys(c for r in rules if export or not r.export for c in r.codes))


def rule_of(rules: Iterable[Rule], code: str) -> Rule | None:
    """The registered rule that raises `code`, if any."""
    return next((r for r in rules if code in r.codes), None)


__all__ = ["Rule", "reads", "rule_order", "rule_of"]
