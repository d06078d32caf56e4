"""gitignore(5) matching without git: each case is (patterns, path, is_dir, ignored?), checked against
the rules of "PATTERN FORMAT"; then trees of nested .gitignore files walked as the scanner walks them."""

from __future__ import annotations

import os

import pytest

from grooph_core.workspace.discover import walk
from grooph_core.workspace.gitignore import IgnoreFile, IgnoreTree, parse_pattern

BASE = "/repo"

CASES = [
    # a name without a slash matches at any depth, files and folders alike
    ("*.log", "a.log", False, True),
    ("*.log", "deep/er/a.log", False, True),
    ("*.log", "a.log.txt", False, False),
    ("build", "build", True, True),
    ("build", "src/build", False, True),
    # a trailing slash: folders only
    ("build/", "build", True, True),
    ("build/", "build", False, False),
    ("build/", "src/build", True, True),
    # a slash at the start or in the middle anchors to the file's folder
    ("/build", "build", True, True),
    ("/build", "src/build", True, False),
    ("doc/frotz", "doc/frotz", False, True),
    ("doc/frotz", "a/doc/frotz", False, False),
    ("doc/frotz/", "doc/frotz", True, True),
    # `*`, `?` and brackets never cross a slash
    ("doc/*.txt", "doc/a.txt", False, True),
    ("doc/*.txt", "doc/x/a.txt", False, False),
    ("?.json", "a.json", False, True),
    ("?.json", "ab.json", False, False),
    ("[abc].json", "b.json", False, True),
    ("[abc].json", "d.json", False, False),
    ("[!abc].json", "d.json", False, True),
    ("[^abc].json", "a.json", False, False),
    ("[a-c]x", "bx", False, True),
    ("[a-c]x", "dx", False, False),
    ("a[/]b", "a/b", False, False),
    # `**`
    ("**/foo", "foo", False, True),
    ("**/foo", "x/y/foo", False, True),
    ("**/foo/bar", "x/foo/bar", False, True),
    ("abc/**", "abc/x", False, True),
    ("abc/**", "abc/x/y.json", False, True),
    ("abc/**", "abc", True, False),
    ("a/**/b", "a/b", False, True),
    ("a/**/b", "a/x/y/b", False, True),
    ("a/**/b", "ab", False, False),
    ("a**b", "axxb", False, True),  # not next to a slash: an ordinary star
    ("a**b", "ax/xb", False, False),
    # escapes, comments, spaces
    ("\\#notes", "#notes", False, True),
    ("\\!important", "!important", False, True),
    ("trailing   ", "trailing", False, True),
    ("trailing\\ ", "trailing ", False, True),
    ("trailing\\ ", "trailing", False, False),
    ("\\*literal", "*literal", False, True),
    ("\\*literal", "xliteral", False, False),
]


@pytest.mark.parametrize("pattern,path,is_dir,ignored", CASES)
def test_pattern(pattern, path, is_dir, ignored):
    rules = IgnoreFile.parse(BASE, pattern + "\n")
    assert (rules.decide(os.path.join(BASE, path), is_dir) is True) == ignored


def test_blank_lines_and_comments_are_not_patterns():
    assert parse_pattern("") is None and parse_pattern("# a comment") is None and parse_pattern("   ") is None
    assert IgnoreFile.parse(BASE, "\n# x\n\n").patterns == ()


def test_the_last_matching_pattern_wins_and_negation_re_includes():
    rules = IgnoreFile.parse(BASE, "*.json\n!keep.json\n")
    assert rules.decide(BASE + "/a.json", False) is True
    assert rules.decide(BASE + "/keep.json", False) is False
    rules = IgnoreFile.parse(BASE, "!keep.json\n*.json\n")
    assert rules.decide(BASE + "/keep.json", False) is True


def _tree(root, files: dict[str, str]) -> IgnoreTree:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return IgnoreTree(str(root))


def test_a_file_inside_an_ignored_folder_cannot_be_re_included(tmp_path):
    tree = _tree(tmp_path, {".gitignore": "build/\n!build/keep.grooph.json\n", "build/keep.grooph.json": "{}"})
    assert tree.is_ignored(str(tmp_path / "build" / "keep.grooph.json"))
    # ...but the folder's contents (not the folder) can be excluded and one file re-included
    tree = _tree(tmp_path / "two", {".gitignore": "out/*\n!out/keep.grooph.json\n",
                                   "out/keep.grooph.json": "{}", "out/drop.grooph.json": "{}"})
    assert not tree.is_ignored(str(tmp_path / "two" / "out" / "keep.grooph.json"))
    assert tree.is_ignored(str(tmp_path / "two" / "out" / "drop.grooph.json"))


def test_nested_gitignore_files_take_precedence_and_are_relative_to_their_folder(tmp_path):
    tree = _tree(tmp_path, {
        ".gitignore": "*.grooph.json\n",
        "sub/.gitignore": "!*.grooph.json\n/local.grooph.json\n",
        "a.grooph.json": "{}", "sub/b.grooph.json": "{}", "sub/local.grooph.json": "{}",
        "sub/deeper/local.grooph.json": "{}",
    })
    assert tree.is_ignored(str(tmp_path / "a.grooph.json"))
    assert not tree.is_ignored(str(tmp_path / "sub" / "b.grooph.json"))
    assert tree.is_ignored(str(tmp_path / "sub" / "local.grooph.json"))  # anchored to sub/
    assert not tree.is_ignored(str(tmp_path / "sub" / "deeper" / "local.grooph.json"))


def test_git_and_node_modules_are_always_skipped_and_info_exclude_counts(tmp_path):
    tree = _tree(tmp_path, {".git/info/exclude": "private/\n", "node_modules/x.grooph.json": "{}",
                            ".git/y.grooph.json": "{}", "private/z.grooph.json": "{}", "ok.grooph.json": "{}"})
    assert tree.is_ignored(str(tmp_path / "node_modules" / "x.grooph.json"))
    assert tree.is_ignored(str(tmp_path / ".git" / "y.grooph.json"))
    assert tree.is_ignored(str(tmp_path / "private" / "z.grooph.json"))
    assert [os.path.relpath(p, tmp_path) for p in walk(str(tmp_path), tree)] == ["ok.grooph.json"]


def test_ignore_files_above_the_folder_count_up_to_the_repository_top(tmp_path):
    _tree(tmp_path, {".git/HEAD": "ref", ".gitignore": "generated/\n", "proj/generated/a.grooph.json": "{}",
                     "proj/b.grooph.json": "{}"})
    tree = IgnoreTree(str(tmp_path / "proj"))
    assert [os.path.relpath(p, tmp_path) for p in walk(str(tmp_path / "proj"), tree)] == ["proj/b.grooph.json"]


def test_a_changed_gitignore_is_read_again(tmp_path):
    tree = _tree(tmp_path, {".gitignore": "a.grooph.json\n", "a.grooph.json": "{}"})
    assert tree.is_ignored(str(tmp_path / "a.grooph.json"))
    (tmp_path / ".gitignore").write_text("other.json\n# now longer\n", encoding="utf-8")
    assert not tree.is_ignored(str(tmp_path / "a.grooph.json"))


def test_walk_lists_candidates_in_a_stable_order_without_following_folder_links(tmp_path):
    _tree(tmp_path, {"b.grooph.json": "{}", "a/x.json": "{}", "a/readme.md": "", "c.txt": ""})
    os.symlink(tmp_path / "a", tmp_path / "loop")
    assert [os.path.relpath(p, tmp_path) for p in walk(str(tmp_path))] == ["b.grooph.json", "a/x.json"]
