"""The episode record kind (episodes.md): JSON described by its JSON Schema (not a pydantic model), so a
key's hover is the schema's description."""

from __future__ import annotations

from grooph_core.ide.kinds.neighbour import NeighbourFace
from grooph_core.source.text import pointer_split


class EpisodesKind(NeighbourFace):
    described_by_schema = True

    def key_hover(self, analysis, pointer):
        """episodes.md §2: the schema's description of the key."""
        from grooph_core.model import episodes as episodes_model

        desc = episodes_model.description(pointer_split(pointer))
        return f"**{pointer_split(pointer)[-1]}** — {desc}" if desc else None


EPISODES = EpisodesKind("episodes")
