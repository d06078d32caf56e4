"""E_EPISODES_SCHEMA (episodes.md §2): the seed's own `Episodes` schema, applied with `jsonschema`
(draft 2020-12; the schema names no draft), one issue per schema error at the failing value, with the
schema's message made readable (which property, which type or word was expected)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from jsonschema import Draft202012Validator

from grooph_core.issues import Facts, Issue, make
from grooph_core.model.episodes import episodes_schema
from grooph_core.schema.check import found_json
from grooph_core.source.text import did_you_mean, json_type, pointer_join

CODE = "E_EPISODES_SCHEMA"


@dataclass(frozen=True)
class EpisodesSchemaProblem(Facts):
    """E_EPISODES_SCHEMA: the schema keyword that failed (`problem`: "required" is "missing", else the
    validator's name, e.g. "type", "enum") and, for a missing property, its `field`."""

    code = CODE
    problem: str
    field: str | None = None


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(episodes_schema())


def schema_issues(value: object) -> list[Issue]:
    """One E_EPISODES_SCHEMA per schema error (the pipeline orders them by position)."""
    out = []
    for e in _validator().iter_errors(value):
        p = pointer_join("", *e.absolute_path)
        path = list(e.absolute_path)
        name = "the record" if not path else (f"{path[-2]}[{path[-1]}]" if type(path[-1]) is int and len(path) > 1
                                              else str(path[-1]))
        if e.validator == "required":
            missing = next((r for r in e.validator_value if type(e.instance) is dict and r not in e.instance), "")
            out.append(make(CODE, f'missing the required property "{missing}"', (pointer_join(p, missing),), (p,),
                            on_key=True, facts=EpisodesSchemaProblem("missing", missing)))
            continue
        out.append(make(CODE, _readable(e, name), (p,), (p,), facts=EpisodesSchemaProblem(e.validator)))
    return out


def _readable(e, name: str) -> str:
    if e.validator == "type":
        return f"{name}: expected {e.validator_value}, got {json_type(e.instance)}"
    if e.validator == "minimum":
        return f"{name}: expected at least {e.validator_value}, got {found_json(e.instance)}"
    if e.validator == "oneOf" and all("const" in b for b in e.validator_value):
        words = [b["const"] for b in e.validator_value]
        hint = did_you_mean(e.instance, words) if type(e.instance) is str else None
        return (f"{name}: expected one of {', '.join(words)}, got {found_json(e.instance)}"
                + (f"; did you mean {hint}?" if hint else ""))
    return f"{name}: {e.message}"
