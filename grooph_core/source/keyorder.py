"""The order in which JavaScript enumerates an object's keys (graph.md §0.4).

Array-index keys (the canonical decimal spelling of 0..4294967294) come first in ascending numeric
order, the other keys after them in insertion order. The check is exact: `"1\\n"`, `"01"`, `"-1"` and
non-ASCII digits are ordinary keys.
"""

from __future__ import annotations


def is_index_key(key: str) -> bool:
    """True for a key JavaScript treats as an array index: "0", "7", "42" but not "007", "1\\n"."""
    return (
        key.isascii()
        and key.isdigit()
        and (len(key) == 1 or key[0] != "0")
        and int(key) <= 4294967294
    )


def keys_in_js_order(obj) -> list[str]:
    """The keys of `obj` (a dict, or any iterable of keys) as JavaScript enumerates them; cheap when no
    key starts with a digit."""
    keys = list(obj)
    for k in keys:
        if k[:1].isdigit():
            break
    else:
        return keys
    idx = sorted((k for k in keys if is_index_key(k)), key=int)
    if not idx:
        return keys
    return idx + [k for k in keys if not is_index_key(k)]
