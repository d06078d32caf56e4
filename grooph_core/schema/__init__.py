"""The published JSON Schemas of the two document kinds (map.md §2.9), generated from the models by
`python -m grooph_core.schema.generate` and committed beside this file."""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = {"graph": HERE / "grooph-0.schema.json", "map": HERE / "grooph-map-0.schema.json"}


def load_schema(kind: str) -> dict:
    """The committed JSON Schema of a graph ("graph") or an operation map ("map")."""
    return json.loads(FILES["map" if kind == "map" else "graph"].read_text("utf-8"))
