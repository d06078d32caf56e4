"""`set` patches (operations.md §4): a shallow merge where `null` removes a key.

Values are copied into the document, so the op list and the result never share mutable parts.
"""

from __future__ import annotations

import copy

from grooph_core.source.text import js_key_order


def apply_patch(obj: dict, patch: dict) -> None:
    """Merge `patch` into `obj` in the patch's key order: null removes, anything else replaces whole.

    A key new to the object is added after the existing keys; an existing key keeps its place.
    """
    for key in js_key_order(patch.keys()):
        value = patch[key]
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = copy.deepcopy(value)


def merge_dropping_nulls(obj: dict, patch: dict) -> None:
    """addStop's rule (operations.md §4, §5.5): `null` values are ignored, never removals."""
    for key in js_key_order(patch.keys()):
        value = patch[key]
        if value is not None:
            obj[key] = copy.deepcopy(value)
