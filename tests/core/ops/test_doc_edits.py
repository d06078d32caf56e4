"""Document edits (the repairs no op can express, operations.md §8.2 item 1)."""

from grooph_core.ops.doc_edits import apply_edits, is_edit_list, remove, rename_key, set_value


def doc():
    return {"a": {"lable": "x", "b": 1, "c": 2}, "list": [1, 2, 3]}


def test_set_remove_rename_keep_places():
    d = doc()
    r = apply_edits(d, [rename_key("/a/lable", "label"), set_value("/a/new", [1]), set_value("/list/1", 9),
                        remove("/list/0"), remove("/a/c")])
    assert r.ok
    assert r.doc == {"a": {"label": "x", "b": 1, "new": [1]}, "list": [9, 3]}
    assert list(r.doc["a"]) == ["label", "b", "new"]     # the renamed key kept its place
    assert d == doc()                                     # the input is never modified


def test_all_or_nothing():
    d = doc()
    r = apply_edits(d, [set_value("/a/b", 5), remove("/missing/x")])
    assert not r.ok and r.doc is None and "nothing at /missing/x" in r.error
    assert d == doc()


def test_refusals():
    assert not apply_edits(doc(), [rename_key("/a/lable", "b")]).ok        # would clobber a key
    assert not apply_edits(doc(), [set_value("/list/7", 1)]).ok
    assert not apply_edits(doc(), [{"edit": "frob", "at": "/a"}]).ok
    assert not apply_edits(doc(), [set_value("", 1)]).ok


def test_pointer_escapes():
    r = apply_edits({"a/b": {"~": 1}}, [set_value("/a~1b/~0", 2)])
    assert r.ok and r.doc == {"a/b": {"~": 2}}


def test_is_edit_list():
    assert is_edit_list([remove("/a")]) and not is_edit_list([]) and not is_edit_list([{"op": "removeNode"}])
