"""Orthogonal polylines with rounded corners: simplifying, corner radii, segments (pictures.md §4.9, §7.5)."""

from __future__ import annotations

import math

Point = tuple[float, float]


def simplify(points: list[Point]) -> list[Point]:
    """Remove repeated points and the middle points of straight runs."""
    out: list[Point] = []
    for p in points:
        if out and out[-1] == p:
            continue
        out.append(p)
    changed = True
    while changed and len(out) > 2:
        changed = False
        for k in range(1, len(out) - 1):
            a, b, c = out[k - 1], out[k], out[k + 1]
            if (a[0] == b[0] == c[0]) or (a[1] == b[1] == c[1]):
                del out[k]
                changed = True
                break
    return out


def seg_len(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def corner_radii(points: list[Point], limit: float = 6) -> list[float]:
    """Radius at each point: min(limit, half of each neighbouring segment), 0 at the ends."""
    n = len(points)
    radii = [0.0] * n
    for k in range(1, n - 1):
        radii[k] = min(limit, seg_len(points[k - 1], points[k]) / 2, seg_len(points[k], points[k + 1]) / 2)
    return radii


def unit(a: Point, b: Point) -> Point:
    d = seg_len(a, b)
    if d == 0:
        return (0.0, 0.0)
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d)


def sign(v: float) -> int:
    return (v > 0) - (v < 0)
