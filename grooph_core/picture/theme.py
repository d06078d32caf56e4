"""The Paper palettes and how a picture names its colours (pictures.md §1.4).

`light` and `dark` write each colour as its hex value, so the file looks the same anywhere and can
become a PNG; `auto` writes `var(--gp-<name>)` and the frame carries a style block defining both
palettes, so the picture follows the viewer's colour scheme.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ThemeName = Literal["light", "dark", "auto"]
THEMES: tuple[str, ...] = ("light", "dark", "auto")

# (name, light, dark) in palette order: the order of the table, which the `auto` style block follows.
PALETTE: tuple[tuple[str, str, str], ...] = (
    ("bg", "#f1f4f3", "#111514"),
    ("surface", "#fdfefe", "#1b201e"),
    ("surface-2", "#e8edeb", "#242a27"),
    ("ink", "#1a201e", "#ebefed"),
    ("ink-2", "#454c49", "#c0c7c4"),
    ("ink-3", "#5f6764", "#99a19e"),
    ("line", "#dce1df", "#2d3331"),
    ("line-strong", "#b9c1be", "#4a524f"),
    ("accent", "#1f5f4a", "#5dbb94"),
    ("accent-soft", "#dcefe6", "#1e3a30"),
    ("gate", "#b25e09", "#eb9a45"),
    ("gate-soft", "#fcf0d9", "#362a15"),
    ("check", "#2b5f9e", "#6fa3e0"),
    ("merge", "#6b4fa0", "#a88be0"),
    ("stop", "#5b5f66", "#9ba0a8"),
    ("ok", "#1f7a4d", "#6fcf9d"),
    ("ok-soft", "#dff3e6", "#1c3a2a"),
    ("warning", "#955500", "#f0b35a"),
    ("error", "#b42318", "#ff8f80"),
    ("error-soft", "#fceae7", "#3a1e1b"),
    ("loop-0", "#7a4cc2", "#a883f0"),
    ("loop-1", "#0f7c8c", "#3cc0d0"),
    ("loop-2", "#c2410c", "#f0874f"),
    ("loop-3", "#b5306e", "#ee6fa6"),
)
_LIGHT = {n: lt for n, lt, _ in PALETTE}
_DARK = {n: dk for n, _, dk in PALETTE}

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
MONO_FONT = "ui-monospace, 'SF Mono', Menlo, Consolas, 'Roboto Mono', monospace"


@dataclass(frozen=True)
class Theme:
    """A chosen theme: turns a palette name into what the SVG writes for it."""

    name: str

    def __call__(self, colour: str) -> str:
        """The written form of a palette colour (`#hex`, or `var(--gp-name)` for auto)."""
        if colour not in _LIGHT:
            # Not a palette name (`none`, `transparent`): written as is.
            return colour
        if self.name == "auto":
            return f"var(--gp-{colour})"
        return (_DARK if self.name == "dark" else _LIGHT)[colour]

    def style_block(self) -> str:
        """The frame's style block: both palettes for `auto`, nothing for `light` and `dark`."""
        if self.name != "auto":
            return ""
        light = ";".join(f"--gp-{n}:{v}" for n, v, _ in PALETTE)
        dark = ";".join(f"--gp-{n}:{v}" for n, _, v in PALETTE)
        return (
            "<style>.grooph-picture{" + light + "}"
            "@media (prefers-color-scheme:dark){.grooph-picture:not([data-theme=\"light\"]){" + dark + "}}"
            ".grooph-picture[data-theme=\"dark\"]{" + dark + "}</style>"
        )


def loop_colour(i: int) -> str:
    """Loop i's palette name: `loop-(i mod 4)`."""
    return f"loop-{i % 4}"
