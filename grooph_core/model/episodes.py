"""The episode record (`*.episodes.json`, spec/episodes.md §2): the seed's own `Episodes` JSON Schema.

The schema is shipped unchanged (`grooph_core/schema/episodes.schema.json`, the seed's JSON text of its
second schema, `seeds/002_0e685013f9e26888.txt`) and is the structural contract, applied with
`jsonschema` (draft 2020-12). Everything else the rules and the editor need about the record's fields
(which are optional strings, which words a standing takes, what each field means) is read from it here,
never restated.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema" / "episodes.schema.json"


@lru_cache(maxsize=1)
def episodes_schema() -> dict:
    """The seed's `Episodes` schema, as shipped."""
    return json.loads(SCHEMA_FILE.read_text("utf-8"))


def record_schema() -> dict:
    """The schema of the record's top level."""
    return episodes_schema()


def episode_schema() -> dict:
    """The schema of one row of `episodes` (`$defs/Episode`)."""
    return episodes_schema()["$defs"]["Episode"]


def standings() -> tuple[str, ...]:
    """The words a row's `standing` takes, in the schema's order (`current`, `open`, `foreign`, `stranded`)."""
    return tuple(b["const"] for b in episodes_schema()["$defs"]["EpisodeStanding"]["oneOf"])


def optional_strings(schema: dict) -> tuple[str, ...]:
    """The string properties of an object schema that are not required, in the schema's order: the
    fields "skipped on the wire" when empty (episodes.md §3 W_EPISODES_EMPTY_FIELD)."""
    required = set(schema.get("required", ()))
    return tuple(k for k, p in schema.get("properties", {}).items() if p.get("type") == "string" and k not in required)


def schema_at(pointer_segments: list[str]) -> tuple[dict, str | None] | None:
    """The schema of the place a pointer names (`["episodes", "0"]`: an `Episode`), `$ref` followed, with
    its description (a property's own, else its schema's); None for a place the schema does not name."""
    schema = record_schema()
    desc = schema.get("description")
    for seg in pointer_segments:
        if schema.get("type") == "array" and seg.isdigit():
            schema = deref(schema.get("items", {}))
            desc = schema.get("description")
            continue
        prop = schema.get("properties", {}).get(seg)
        if prop is None:
            return None
        desc = prop.get("description")
        schema = deref(prop)
    return schema, desc


def description(pointer_segments: list[str]) -> str | None:
    """The schema's description of the field a pointer names (`["episodes", "0", "note"]`), for hover."""
    at = schema_at(pointer_segments)
    return at[1] if at is not None else None


def deref(s: dict) -> dict:
    ref = s.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return episodes_schema()["$defs"][ref[len("#/$defs/"):]]
    return s
