"""The rules of an episode record (spec/episodes.md §3), in their order.

`structure_issues` is `E_EPISODES_SCHEMA` (the seed's schema through `jsonschema`; strict mode stops when
it finds any). `RULES` is the one registration list, in the order of §3's table, each code in document
order.
"""

from __future__ import annotations

from grooph_core.issues import whole_shape_codes
from grooph_core.rules.episodes import record
from grooph_core.rules.episodes.record import EpisodesDoc, read_episodes
from grooph_core.rules.episodes.schema import CODE as SCHEMA_CODE
from grooph_core.rules.episodes.schema import schema_issues as structure_issues
from grooph_core.rules.registration import Rule

read = read_episodes

# Findings about the whole document (the registry's `Code.whole_shape`): while part of a broken text is
# left out, they would be echoes of the omission, so the editor does not say them.
WHOLE_SHAPE_CODES = whole_shape_codes("episodes")

RULES: tuple[Rule, ...] = (
    Rule(record.current_not_listed, ("E_EPISODES_CURRENT_NOT_LISTED",)),
    Rule(record.standing, ("E_EPISODES_STANDING",)),
    Rule(record.empty_notes, ("E_EPISODES_EMPTY_NOTE",)),
    Rule(record.absent_store, ("E_EPISODES_ABSENT_STORE",)),
    Rule(record.duplicates, ("E_EPISODES_DUPLICATE",)),
    Rule(record.empty_fields, ("W_EPISODES_EMPTY_FIELD",)),
    Rule(record.order, ("W_EPISODES_ORDER",)),
    Rule(record.activity, ("W_EPISODES_ACTIVITY",)),
    Rule(record.worktree, ("W_EPISODES_WORKTREE",)),
    Rule(record.unknown_keys, ("W_UNKNOWN_KEY",)),
)

__all__ = ["RULES", "WHOLE_SHAPE_CODES", "SCHEMA_CODE", "EpisodesDoc", "read", "structure_issues"]
