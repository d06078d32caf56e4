"""The validation pipeline (graph.md §3.2, map.md §4.3).

`validate_value` is the reference's pipeline on a parsed value: the structural check alone when it
finds anything, else every rule in order. The command line uses it (strict mode). The editor uses
`grooph_core.ide.grooph.analysis`, which runs the same rules tolerantly on the sound parts of a broken document.
"""

from __future__ import annotations

from typing import Callable

from grooph_core.issues import Issue
from grooph_core.rules.doc_size import doc_size_issues
from grooph_core.rules.document_walk import DocumentWalk
from grooph_core.rules.graph import graph_rule_issues
from grooph_core.rules.map import map_rule_issues
from grooph_core.rules.rule_memo import RuleMemo
from grooph_core.rules.unknown_keys import unknown_key_issues
from grooph_core.schema.check import schema_issues
from grooph_core.source.kinds import Kind

Resolver = Callable[[str], str]


def _graph_rules(value: dict, *, export: bool, resolver: Resolver | None, memo: RuleMemo | None) -> list[Issue]:
    """graph.md §3.3 (a graph reads no other document)."""
    return graph_rule_issues(value, export=export, memo=memo)


def _map_rules(value: dict, *, export: bool, resolver: Resolver | None, memo: RuleMemo | None) -> list[Issue]:
    """map.md §4.2 (`export` is the graph's; a map's rules read the graphs its sessions name)."""
    return map_rule_issues(value, resolver=resolver, memo=memo)


_RULES = {"graph": _graph_rules, "map": _map_rules}


def rule_issues(value: dict, kind: Kind, *, export: bool = False, resolver: Resolver | None = None,
                memo: RuleMemo | None = None, walk: DocumentWalk | None = None) -> list[Issue]:
    """Every rule after the structural check, in rule order (graph.md §3.3, map.md §4.2). `memo`: the
    editor's rule memo for this version, made from the version before's (`rules/rule_memo.py`); `walk`:
    the value's `document_walk`, when the caller has it, gives the unknown keys and the size."""
    own_rules = _RULES.get(kind, _graph_rules)  # any other JSON is read as a graph (map.md §1)
    issues = list(own_rules(value, export=export, resolver=resolver, memo=memo))
    issues += walk.unknown_key_issues() if walk is not None else unknown_key_issues(value, kind)
    issues += walk.size_issues() if walk is not None else doc_size_issues(value, kind)
    return issues


def validate_value(value: object, kind: Kind, *, export: bool = False, resolver: Resolver | None = None) -> list[Issue]:
    """The reference pipeline on a parsed JSON value: E_SCHEMA alone, or the rules (graph.md §3.2)."""
    schema = schema_issues(value, kind)
    if schema:
        return list(schema)
    return rule_issues(value, kind, export=export, resolver=resolver)  # type: ignore[arg-type]
