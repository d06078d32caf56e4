"""Copy a node and paste it: the usual way an `E_DUPLICATE_ID` is born (issue 13). Every node of every
valid fixture, pasted right after itself in the text, gets the documented fix of operations.md §8.4
`E_DUPLICATE_ID` (offered, document edit: the later copy gets unique(X, id set), references keep naming
the first), and the fix applies cleanly to the text.

Before issue 13 the brake check of §8.2 read the renamed copy as the original ("member taken out of
loop", "edge leaving check changed") and 13 of the 28 pastes had no fix at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grooph_core.ide.grooph.actions import quick_fixes
from grooph_core.ide.grooph.analysis import analyze
from grooph_core.ide.text_edits import apply_edits
from grooph_core.ops.ids import id_set, unique

FIXTURES = sorted((Path(__file__).parents[3] / "fixtures" / "valid").glob("*.grooph.json"))
CASES = [(path, i) for path in FIXTURES for i in range(len(json.loads(path.read_text())["nodes"]))]


def _pasted(text: str, doc: dict, index: int) -> str:
    """The text with node `index` copied and pasted right after itself (its text, as a person copies it)."""
    parsed = analyze(text, name="x.grooph.json").parsed
    start, end = parsed.source_map.value_span(f"/nodes/{index}")
    return text[:end] + ",\n    " + text[start:end] + text[end:]


@pytest.mark.parametrize(("path", "index"), CASES, ids=[f"{p.name.split('.')[0]}-{i}" for p, i in CASES])
def test_a_pasted_node_gets_the_documented_fix_and_it_applies(path, index):
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text)
    ident = doc["nodes"][index]["id"]
    pasted = _pasted(text, doc, index)
    analysis = analyze(pasted, name=path.name)
    dup = [i for i in analysis.issues if i.code == "E_DUPLICATE_ID"]
    assert len(dup) == 1 and dup[0].at[0] == ident
    fixes = [f for f in quick_fixes(analysis, dup) if f.issue is dup[0]]
    fresh = unique(ident, set(id_set(json.loads(pasted))))
    assert [f.title for f in fixes] == [
        f'Give node nodes[{index + 1}] the id "{fresh}"; other references to "{ident}" keep naming the node nodes[{index}]'
    ]
    assert fixes[0].repair_class == "offered"  # §8.4: a referable copy is only offered
    fixed_text = apply_edits(pasted, list(fixes[0].edits))
    fixed = json.loads(fixed_text)
    expected = json.loads(pasted)
    expected["nodes"][index + 1]["id"] = fresh
    assert fixed == expected  # only the copy's id changed; every reference still names the first
    after = analyze(fixed_text, name=path.name)
    assert after.parsed.ok
    assert not [i for i in after.issues if i.code == "E_DUPLICATE_ID"]
    # no error about anything but the copy: the original document's errors (none: it is valid) only
    assert not [i for i in after.issues if i.severity == "error" and fresh not in i.at]
