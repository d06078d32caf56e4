"""Which kind of document a text is by content (kinds.py; cli.md §0.4, map.md §1): the one claim test
the workspace scan and the server's open documents both ask, and which names leave the kind to it."""

from __future__ import annotations

from grooph_core.source.kinds import CLAIM_WINDOW, claims_grooph, content_decides


def test_a_top_level_grooph_or_groophmap_key_claims():
    assert claims_grooph('{"grooph": 0, "id": "g"}')
    assert claims_grooph('{"name": "studio", "groophMap" : 0}')
    assert claims_grooph('{"grooph": 0, "id": "g", "nodes": [')  # typed into a broken text: still a claim


def test_other_json_does_not_claim():
    assert not claims_grooph('{"name": "x", "version": "1.0.0"}')
    assert not claims_grooph('{"config": {"grooph": 0}}')  # not at the top level
    assert not claims_grooph('[{"grooph": 0}]')
    assert not claims_grooph('{"note": "the \\"grooph\\": key"}')
    assert not claims_grooph("")


def test_the_claim_is_looked_for_in_the_first_window_only():
    padding = '"pad": "' + "x" * CLAIM_WINDOW + '", '
    assert claims_grooph('{"grooph": 0, ' + padding + '"id": "g"}')
    assert not claims_grooph("{" + padding + '"grooph": 0}')


def test_only_a_json_name_or_no_extension_leaves_the_kind_to_the_content():
    assert content_decides("graph.json") and content_decides("package.JSON")
    assert content_decides("Untitled-1") and content_decides("")  # VS Code's untitled buffer, an unnamed one
    assert not content_decides("config.yaml") and not content_decides("notes.md")
    assert not content_decides("settings.jsonc") and not content_decides("graph.json.bak")
