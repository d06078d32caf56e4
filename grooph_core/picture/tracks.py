"""Packing intervals onto tracks, so lines running side by side never overlap (pictures.md §1.7)."""

from __future__ import annotations

from typing import Sequence


def pack(intervals: Sequence[tuple[float, float]], gap: float = 0) -> tuple[list[int], int]:
    """Each interval's track (in input order) and the number of tracks used.

    Shortest first (then lowest start, then input position), each on the lowest track where it
    overlaps nothing already placed; touching counts as overlapping, and `gap` widens the test.
    Short arcs therefore take the inner tracks and long ones go round them.
    """
    spans = [(min(a, b), max(a, b)) for a, b in intervals]
    order = sorted(range(len(spans)), key=lambda i: (spans[i][1] - spans[i][0], spans[i][0], i))
    placed: list[list[tuple[float, float]]] = []
    track = [0] * len(spans)
    for i in order:
        lo, hi = spans[i]
        t = 0
        while t < len(placed) and any(lo <= bhi + gap and blo <= hi + gap for blo, bhi in placed[t]):
            t += 1
        if t == len(placed):
            placed.append([])
        placed[t].append((lo, hi))
        track[i] = t
    return track, len(placed)
