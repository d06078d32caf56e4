"""A deep copy of a parsed JSON value, several times faster than `copy.deepcopy` (issue 8).

Operations and repairs work on a copy of the whole document (operations.md §1.2: the input is never
modified), and a quick fix checks each candidate on its own copy, so the copy is paid per candidate
on every code-action request. `copy.deepcopy` keeps a memo of every object for aliasing; a value from
`json.loads` has no aliasing, so dicts and lists are rebuilt directly and the immutable scalars are
shared. Anything else found inside (never in a parsed document) is handed to `copy.deepcopy`.
"""

from __future__ import annotations

import copy

_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value):
    """A copy of `value` whose dicts and lists are new objects (same keys, same order)."""
    t = type(value)
    if t is dict:
        return {k: (v if type(v) in _SCALARS else copy_json(v)) for k, v in value.items()}
    if t is list:
        return [(v if type(v) in _SCALARS else copy_json(v)) for v in value]
    if t in _SCALARS:
        return value
    return copy.deepcopy(value)
