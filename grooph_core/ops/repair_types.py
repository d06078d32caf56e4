"""The data of a repair (operations.md §8.2): what the editor shows (`Repair`) and what the repair
builders hand to the checks (`Candidate`)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, Literal

RepairClass = Literal["safe", "preferred", "offered"]
CLASS_ORDER = {"safe": 0, "preferred": 1, "offered": 2}
# operations.md §1: operations change graphs; every other kind is repaired by document edits only.
OPERATED_KINDS = frozenset({"graph"})
# operations.md §8.1: the brakes (approval, stops, bars …) are a graph's; a repair never loosens one (§8.2 item 5).
BRAKED_KINDS = frozenset({"graph"})


@dataclass(frozen=True)
class Repair:
    """One code action: a title saying what changes, the op list (or document edits, entries with an
    `"edit"` key) that carries it out, its class, and `fill`: the JSON pointer, in the result, of an
    empty field the person must type (the action inserted it instead of inventing a value), else None."""

    title: str
    ops: tuple[dict, ...]
    kind: RepairClass
    fill: str | None = None

    @property
    def is_edit(self) -> bool:
        """True when `ops` are document edits rather than operations."""
        return bool(self.ops) and all("edit" in o for o in self.ops)


@dataclass
class Candidate:
    """A repair before the §8.2 checks.

    `renames`: ids the repair gives to existing objects (old → new), so that brakes are compared
    under the new ids; `aliases`: new ids → the ids the issues before the change used (for objects
    that split from a duplicated id, only this direction is unambiguous). `keeps_code`: a fill-in repair, after which the issue's code stays
    until the person types the value. `gone`: a relaxed "issue gone" test on the issues after the
    change (E_IRREVERSIBLE_NO_GATE with open stops), replacing the exact one; `continues` tells the
    issue that remains of it after such a partial repair (not counted as a new error)."""

    title: str
    ops: list[dict]
    kind: RepairClass
    fill: str | None = None
    renames: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    list_renames: dict[str, dict[str, str]] = field(default_factory=dict)
    keeps_code: bool = False
    gone: Callable[[list], bool] | None = None
    continues: Callable[[object], bool] | None = None

    def repair(self) -> Repair:
        return Repair(self.title, tuple(copy.deepcopy(self.ops)), self.kind, self.fill)
