"""What the workflow rules found in each status, kept from one version of a document to the next
(workflow.md §3.1, §3.2; issue 24: a keystroke in a 1,000,000-character workflow).

The reader of a keystroke's version re-reads only the edited status: every other status is the same
value object (`is`) as in the previous version. `read_workflow(value, previous)` hands the previous
version's memo on (`following`), and a rule asks `per_status` for its results status by status: a
status's result is reused when

- the status is the same object under the same name (the memo holds the object, so `is` stays
  meaningful),
- the rule's `context` is equal: everything else the result read (the roles' names, the params' names,
  the run machine's specifications …), and
- the statuses' names are the same (in order: a did-you-mean takes the first closest name), or the
  result did not rest on them (`names_read`: the status names it found; None when one was not found, so
  its did-you-mean was among all the names) and each name it found is still a status.

Otherwise the rule computes the status's result again. Either way the result is exactly the one the
rule would compute without a memo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Hashable, TypeVar

if TYPE_CHECKING:
    from grooph_core.rules.workflow.semantics import WorkflowDoc

R = TypeVar("R")


@dataclass(frozen=True)
class RuleMemo:
    """One rule's results for one version: `entries` holds each status's result in the order of `names`
    (a tuple: a mapping per rule was 0.1 MB at 1M), `statuses` is that version's statuses (name ->
    value: the value each result was computed from; one mapping for every rule, where a pair per status
    and rule was 2 MB at 1M)."""

    context: Hashable
    names: tuple[str, ...]
    statuses: dict
    entries: tuple


@dataclass(frozen=True)
class Memo:
    """A version's memo: the previous version's rule memos (each taken once, as its rule runs, so that no
    version keeps an older one alive) and this version's, filled as the rules run."""

    previous: dict[str, RuleMemo] = field(default_factory=dict)
    current: dict[str, RuleMemo] = field(default_factory=dict)

    def take(self, rule: str) -> RuleMemo | None:
        """The memo to reuse for `rule`: the previous version's, else this version's (a rule run again)."""
        return self.previous.pop(rule, None) or self.current.get(rule)


def following(previous: Memo | None) -> Memo:
    """The memo of the version after the one `previous` is of (a fresh one without a previous version)."""
    return Memo(dict(previous.current)) if previous is not None else Memo()


def per_status(doc: WorkflowDoc, rule: str, context: Hashable, compute: Callable[[str, object], R],
               names_read: Callable[[R], tuple[str, ...] | None] | None = None) -> tuple[R, ...]:
    """`compute(name, status)` for every status of `doc.statuses` (a mapping), in document order (that of
    `doc.status_names`), reusing the previous version's results where they stand (the module's
    docstring). `names_read`: for a rule whose results look status names up."""
    statuses = doc.statuses or {}
    names = doc.status_names
    old = doc.memo.take(rule)
    if old is None or old.context != context:
        entries = tuple(compute(name, s) for name, s in statuses.items())
    else:
        same_names = old.names == names
        before, was = old.entries, old.statuses
        # where each name stood in the previous version: the same place, unless a status was added,
        # removed or renamed
        at = None if same_names else {n: i for i, n in enumerate(old.names)}
        out: list = []
        for k, (name, s) in enumerate(statuses.items()):
            if was.get(name, _NONE) is s:
                i = k if at is None else at.get(name)
                if i is not None:
                    r = before[i]
                    if same_names or names_read is None or _still_found(names_read(r), statuses):
                        out.append(r)
                        continue
            out.append(compute(name, s))
        entries = tuple(out)
    doc.memo.current[rule] = RuleMemo(context, names, statuses, entries)
    return entries


_NONE = object()


def _still_found(found: tuple[str, ...] | None, statuses: dict) -> bool:
    return found is not None and all(n in statuses for n in found)


def keys(d: dict | None) -> tuple | None:
    """A mapping's keys as a context (None: not readable)."""
    return None if d is None else tuple(d)


__all__ = ["Memo", "RuleMemo", "following", "keys", "per_status"]
