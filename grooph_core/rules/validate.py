"""The validation pipeline (graph.md §3.2, map.md §4.3).

`validate_value` is the reference's pipeline on a parsed value: the structural check alone when it
finds anything, else every rule in order. The command line uses it (strict mode). The editor uses
`grooph_core.ide.analysis`, which runs the same rules tolerantly on the sound parts of a broken document.
"""

from __future__ import annotations

from typing import Callable

from grooph_core.issues import Issue
from grooph_core.rules.doc_size import doc_size_issues
from grooph_core.rules.graph import graph_rule_issues
from grooph_core.rules.map import map_rule_issues
from grooph_core.rules.unknown_keys import unknown_key_issues
from grooph_core.schema.check import schema_issues
from grooph_core.source.kinds import Kind

Resolver = Callable[[str], str]


def rule_issues(value: dict, kind: Kind, *, export: bool = False, resolver: Resolver | None = None) -> list[Issue]:
    """Every rule after the structural check, in rule order (graph.md §3.3, map.md §4.2)."""
    if kind == "map":
        issues = map_rule_issues(value, resolver=resolver)
    else:
        issues = graph_rule_issues(value, export=export)
    issues = list(issues)
    issues += unknown_key_issues(value, kind)
    issues += doc_size_issues(value, kind)
    return issues


def validate_value(value: object, kind: Kind, *, export: bool = False, resolver: Resolver | None = None) -> list[Issue]:
    """The reference pipeline on a parsed JSON value: E_SCHEMA alone, or the rules (graph.md §3.2)."""
    schema = schema_issues(value, kind)
    if schema:
        return list(schema)
    return rule_issues(value, kind, export=export, resolver=resolver)  # type: ignore[arg-type]
