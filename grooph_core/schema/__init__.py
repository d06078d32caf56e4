"""The model applied to a JSON value (graph.md §4, §6; map.md §2.9, §5, §9).

`check` is the structural check (`E_SCHEMA`), compiled once from the model's descriptors;
`canonical` writes the canonical form (field order from the model, numbers as ECMAScript writes
them). The published JSON Schemas: those of the graph, the operation map, the workflow and the
board are generated from the models by `python -m grooph_core.schema.generate` and committed beside
this file; the episode record's is the seed's own, shipped unchanged (episodes.md §2).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = {
    "graph": HERE / "grooph-0.schema.json",
    "map": HERE / "grooph-map-0.schema.json",
    "workflow": HERE / "workflow.schema.json",
    "board": HERE / "board.schema.json",
}
SHIPPED = {"episodes": HERE / "episodes.schema.json"}


def load_schema(kind: str) -> dict:
    """The committed JSON Schema of a kind ("graph", "map", "workflow", "board", "episodes")."""
    path = FILES.get(kind) or SHIPPED.get(kind) or FILES["graph"]
    return json.loads(path.read_text("utf-8"))
