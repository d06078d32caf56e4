"""`W_UNKNOWN_KEY` for a serde model (workflow.md §3.2, board.md §3): a key the type does not have, where
serde ignores it (every type but those that refuse unknown keys, whose unknown keys are structural
errors). Did-you-mean among the type's own keys. Keys of the open maps (`statuses`, `roles`, `params`,
`tasks`, `on`, …) are names, never unknown; values of free JSON (`params`, `residue`,
`handoff.metadata`, an action's arguments) are not walked.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grooph_core.issues import Issue, make
from grooph_core.model.compiled import AltType, ArrayType, ObjectType, RecordType, TypeDesc
from grooph_core.rules.serde_shape import accepts
from grooph_core.rules.unknown_keys import UnknownKey
from grooph_core.source.text import did_you_mean, pointer_join


# The types whose values hold keys; below any other, nothing is walked.
_HOLDERS = (ObjectType, ArrayType, RecordType, AltType)


def unknown_key_issues(value: Any, root: ObjectType) -> list[Issue]:
    """Every key serde ignores in `value` read as the model `root`, in walk (text) order."""
    out: list[Issue] = []
    _walk(root, value, "", out)
    return out


@lru_cache(maxsize=1024)
def _hint(key: str, names: tuple[str, ...]) -> str | None:
    """The did-you-mean of an unknown key (the same key is often unknown many times: a `note` in
    every status of a 1M workflow, 1,293 times)."""
    return did_you_mean(key, names)


def _walk(t: TypeDesc, v: Any, p: str, out: list[Issue]) -> None:
    if isinstance(t, ObjectType):
        if type(v) is not dict:
            return
        for k, x in v.items():
            f = t.by_name.get(k)
            if f is not None:
                if isinstance(f.type, _HOLDERS):
                    _walk(f.type, x, pointer_join(p, k), out)
            elif not t.closed:
                kp = pointer_join(p, k)
                hint = _hint(k, t.names)
                out.append(make("W_UNKNOWN_KEY", f'{t.title} has no key "{k}"; the engine ignores it'
                                + (f"; did you mean {hint}?" if hint else ""), (kp,), (kp,), on_key=True,
                                facts=UnknownKey(k, hint, p, hint is not None and hint in v)))
    elif isinstance(t, ArrayType):
        if type(v) is list:
            for i, x in enumerate(v):
                _walk(t.item, x, f"{p}/{i}", out)
    elif isinstance(t, RecordType):
        if type(v) is dict:
            for k, x in v.items():
                _walk(t.value, x, pointer_join(p, k), out)
    elif isinstance(t, AltType):
        for o in t.options:
            if isinstance(o, (ObjectType, ArrayType, RecordType)) and accepts(o, v):
                _walk(o, v, p, out)
                return
