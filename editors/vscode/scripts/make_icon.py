"""Draws the extension's icon (icon.png, 128 x 128): a graph as grooph pictures draw one, three cards, an
edge between each and a loop back, in the pictures' dark palette (grooph_core/picture/theme.py).

    python3 scripts/make_icon.py      # with grooph_core and cairosvg importable (the project's venv)
"""

from __future__ import annotations

from pathlib import Path

import cairosvg

from grooph_core.picture.theme import Theme

HERE = Path(__file__).resolve().parent.parent


def icon_svg() -> str:
    c = Theme("dark")
    cards = [(20, 18, "accent"), (20, 56, "check"), (20, 94, "stop")]
    parts = [f'<rect width="128" height="128" rx="24" fill="{c("bg")}"/>']
    for (_, y, _), (_, y2, _) in zip(cards, cards[1:]):
        parts.append(f'<path d="M52 {y + 16} V{y2}" stroke="{c("ink-3")}" stroke-width="4" fill="none"/>')
    # the loop: from the check card back up to the first, on the right
    parts.append(f'<path d="M86 64 H104 Q110 64 110 58 V32 Q110 26 104 26 H92" stroke="{c("loop-0")}" '
                 'stroke-width="5" fill="none" stroke-linecap="round"/>')
    parts.append(f'<path d="M94 18 L84 26 L94 34 Z" fill="{c("loop-0")}"/>')
    for x, y, colour in cards:
        parts.append(f'<rect x="{x}" y="{y}" width="66" height="16" rx="5" fill="{c("surface-2")}" '
                     f'stroke="{c(colour)}" stroke-width="3"/>')
        parts.append(f'<rect x="{x + 6}" y="{y + 6}" width="30" height="4" rx="2" fill="{c("ink-2")}"/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">'
            + "".join(parts) + "</svg>\n")


def main() -> None:
    cairosvg.svg2png(bytestring=icon_svg().encode(), write_to=str(HERE / "icon.png"), output_width=128,
                     output_height=128)
    print(f"wrote {HERE / 'icon.png'}")


if __name__ == "__main__":
    main()
