"""Themes (pictures.md §1.4), escaping and safety (§1.2), refusals and PNG (§11)."""

import re
import struct

import pytest

from grooph_core.picture import PictureError, render_png, render_svg
from grooph_core.picture.theme import PALETTE

from .helpers import ROOT, bakery, essay, parse, tag, with_attr

VIEWS = [("map", {}), ("map", {"layout": "wide"}), ("map", {"view": "sequence"}), ("graph", {})]


def doc_for(kind):
    return bakery() if kind == "map" else essay()


@pytest.mark.parametrize("kind,kw", VIEWS)
def test_light_and_dark_write_hex_colours_auto_writes_variables(kind, kw):
    doc = doc_for(kind)
    light = render_svg(doc, kind, theme="light", **kw)
    dark = render_svg(doc, kind, theme="dark", **kw)
    auto = render_svg(doc, kind, theme="auto", **kw)
    for svg in (light, dark):
        assert "var(--" not in svg and "<style>" not in svg
    assert "#f1f4f3" in light and "#111514" not in light
    assert "#111514" in dark and "#f1f4f3" not in dark
    assert "prefers-color-scheme:dark" in auto and "var(--gp-ink)" in auto
    assert not re.search(r"fill:#|stroke:#", auto), "auto names every colour through a variable"
    # the same geometry in every theme: only colours differ
    strip = lambda s: re.sub(r"(#[0-9a-f]{6}|var\(--gp-[a-z0-9-]+\))", "C", re.sub(r"<style>.*?</style>", "", s))
    assert strip(light) == strip(dark) == strip(auto)


def test_auto_style_block_lists_both_palettes_in_table_order():
    auto = render_svg(bakery(), "map", theme="auto")
    block = re.search(r"<style>(.*?)</style>", auto).group(1)
    light_vars = ";".join(f"--gp-{n}:{v}" for n, v, _ in PALETTE)
    dark_vars = ";".join(f"--gp-{n}:{v}" for n, _, v in PALETTE)
    assert block == (".grooph-picture{" + light_vars + "}@media (prefers-color-scheme:dark){.grooph-picture:not("
                     '[data-theme="light"]){' + dark_vars + '}}.grooph-picture[data-theme="dark"]{' + dark_vars + "}")
    # title, then the style block, then the background
    assert re.search(r"</title><style>.*</style><rect x=\"0\" y=\"0\"", auto)


HOSTILE = '</text><script>alert("x")</script> & <a href="https://evil.example">'


@pytest.mark.parametrize("kind,kw", VIEWS)
def test_document_text_stays_text(kind, kw):
    doc = doc_for(kind)
    if kind == "map":
        doc["name"] = HOSTILE
        doc["sessions"][0]["name"] = HOSTILE
        doc["sessions"][0]["role"] = HOSTILE
        doc["handoffs"][0]["what"] = HOSTILE
        doc["lanes"][0]["machine"] = HOSTILE
    else:
        doc["name"] = HOSTILE
        doc["goal"] = HOSTILE
        doc["nodes"][0]["name"] = HOSTILE
        doc["edges"][-1]["label"] = HOSTILE
        doc["loops"][0]["name"] = HOSTILE
    svg = render_svg(doc, kind, **kw)
    root = parse(svg)  # still well-formed XML
    assert not any(tag(el) in ("script", "a", "foreignObject", "image", "use") for el in root.iter())
    assert "<script" not in svg
    assert not any("href" in k for el in root.iter() for k in el.attrib)
    assert "evil.example" not in re.sub(r">[^<]*<", "><", svg)  # only ever inside text content
    all_text = " ".join((el.text or "") for el in root.iter())
    assert "<script>" in all_text  # shown to the reader as the words it is


def test_ids_cannot_carry_markup_and_data_attributes_are_escaped():
    from grooph_core.picture.map_parts import attr

    doc = bakery()
    doc["handoffs"][0]["id"] = 'h"><script>'
    with pytest.raises(PictureError, match="/handoffs/0/id"):  # ids are patterned: refused, never drawn
        render_svg(doc, "map")
    assert attr('a"<b>&') == "a&quot;&lt;b&gt;&amp;"


@pytest.mark.parametrize("kind,kw", VIEWS)
def test_no_external_reference_and_no_script(kind, kw):
    svg = render_svg(doc_for(kind), kind, **kw)
    assert "<script" not in svg and "href" not in svg and "url(" not in svg and "@import" not in svg
    assert svg.count("http://www.w3.org/2000/svg") == 1  # only the namespace


def test_refusals_name_the_fault():
    with pytest.raises(PictureError) as e:
        render_svg({"groophMap": 0, "id": "m", "name": "M", "version": 1, "lanes": [], "sessions": [{"id": "s"}],
                    "handoffs": []}, "map")
    assert "not an operation map grooph can read" in e.value.message and "/sessions/0" in e.value.message
    assert e.value.issues and e.value.issues[0].code == "E_SCHEMA"
    with pytest.raises(PictureError, match="not a JSON object"):
        render_svg([1, 2], "graph")
    with pytest.raises(PictureError, match="not a graph document"):
        render_svg({"nodes": "x"}, "graph")
    with pytest.raises(PictureError, match="only for operation maps"):
        render_svg(essay(), "graph", layout="wide")
    with pytest.raises(PictureError, match="only for operation maps"):
        render_svg(essay(), "graph", view="sequence")
    with pytest.raises(PictureError, match="only one layout"):
        render_svg(bakery(), "map", view="sequence", layout="wide")
    with pytest.raises(PictureError, match="unknown theme"):
        render_svg(bakery(), "map", theme="sepia")
    with pytest.raises(PictureError, match="too narrow"):
        render_svg(bakery(), "map", width=50)


def test_a_document_with_rule_errors_is_still_drawn():
    doc = bakery()
    doc["handoffs"][1]["to"] = "nobody"  # E_DANGLING_REF
    doc["sessions"].append(dict(doc["sessions"][0]))  # E_DUPLICATE_ID
    root = parse(render_svg(doc, "map"))
    assert len(with_attr(root, "data-handoff-row")) == 6
    assert [g.attrib["data-session"] for g in with_attr(root, "data-session")] == ["chef", "bakers", "taster"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_png_is_three_pixels_per_unit_by_default():
    svg = render_svg(bakery(), "map", theme="dark")
    assert png_size(render_png(svg)) == (1200, 892 * 3)
    assert png_size(render_png(svg, scale=1)) == (400, 892)


def test_png_refuses_auto_and_bad_scales():
    with pytest.raises(PictureError, match="one palette"):
        render_png(render_svg(bakery(), "map", theme="auto"))
    for bad in (0, -1, 9, float("nan")):
        with pytest.raises(PictureError, match="scale"):
            render_png(render_svg(bakery(), "map"), scale=bad)
    with pytest.raises(PictureError, match="could not make a PNG"):
        render_png("<svg")


def test_same_bytes_in_another_process_with_another_hash_seed():
    """Determinism does not hang on Python's per-process string hashing (set and dict orders)."""
    import os
    import subprocess
    import sys

    code = ("import json,sys; from grooph_core.picture import render_svg; "
            "from tests.core.picture.helpers import bakery, example, long_map; "
            "sys.stdout.write(render_svg(bakery(),'map',layout='wide') + render_svg(long_map(),'map') + "
            "render_svg(example('essay-week-kits.grooph.json'),'graph', open_groups=['checks']))")
    outs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), env=env, capture_output=True,
                                text=True, check=True).stdout)
    assert len(outs) == 1
    assert outs.pop().startswith(render_svg(bakery(), "map", layout="wide"))
