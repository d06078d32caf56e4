"""The task board kind (board.md): JSON, task names, the seed's written form."""

from __future__ import annotations

from grooph_core.ide.kinds.neighbour import NeighbourFace


class BoardKind(NeighbourFace):
    identified_by_slug = True  # board.md §2


BOARD = BoardKind("board")
