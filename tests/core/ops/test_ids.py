"""Ids: slug, unique, the id set, ids that follow their names (operations.md §3)."""

import pytest

from grooph_core.ops.ids import follows_name, id_set, slug, unique

from .helpers import base_doc


@pytest.mark.parametrize("text, expected", [
    ("Merge approval", "merge-approval"),
    ("  Éclair / Review!  ", "eclair-review"),
    ("42 things", "things"),
    ("!!!", "fallback"),
    ("Fix the flaky test", "fix-the-flaky-test"),
    ("Step 2: verify", "step-2-verify"),
    ("R2-D2", "r2-d2"),
    ("", "fallback"),
    ("1-2-3", "fallback"),
    ("ＡＢＣ", "abc"),  # NFKD folds full-width letters
])
def test_slug_examples_of_section_3_2(text, expected):
    assert slug(text, "fallback") == expected


def test_unique_skips_base_1():
    assert unique("done", []) == "done"
    assert unique("done", ["done"]) == "done-2"
    assert unique("done", ["done", "done-2", "done-3"]) == "done-4"
    assert unique("done", ["done-2"]) == "done"


def test_id_set_order_includes_run_notes_last():
    doc = base_doc()
    ids = id_set(doc)
    assert ids[0] == "review"
    assert ids[-1] == "n1"
    assert ids.index("builder") < ids.index("e-builder-tests") < ids.index("fix") < ids.index("work") < ids.index("iso")
    assert "n1" not in id_set(doc, notes=False)


@pytest.mark.parametrize("obj_id, name, follows", [
    ("merge-approval", "Merge approval", True),
    ("merge-approval-2", "Merge approval", True),
    ("merge-approval-x", "Merge approval", False),
    ("merge-gate", "Merge approval", False),
    ("anything", "!!!", True),          # empty slug: taken to follow
    ("anything", None, True),           # absent name counts as ""
    ("anything", 5, True),              # a name that is not a string counts as ""
    ("human-gate", "Human gate", True),
])
def test_follows_name(obj_id, name, follows):
    assert follows_name(obj_id, name) is follows
