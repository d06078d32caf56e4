"""The document kinds, one face each (DESIGN.md "Kinds"): `KINDS` is the one registration list.

A kind is one object (`ide.face.DocumentKind`) answering every request of the editor and the command
line for documents of that kind: `GRAPH` and `MAP` (`ide/grooph/face.py`), `WORKFLOW`, `BOARD` and
`EPISODES` (`ide/neighbours/face.py`). This module sits on top of `ide`: no module of `ide` imports it
(the package, `ide/__init__`, does). The shell and the commands ask a document's kind
(`DocumentAnalysis.document_kind`, `kind_named`, `kind_of_file`) and call its method; nothing else
compares a kind with a kind's name (tests/structure/test_kinds.py). ARCHITECTURE.md "Adding a document
kind" is the recipe for a sixth.
"""

from __future__ import annotations

from grooph_core.ide.face import DocumentKind
from grooph_core.ide.grooph.face import GRAPH, MAP
from grooph_core.ide.neighbours.face import BOARD, EPISODES, WORKFLOW
from grooph_core.source.kinds import any_kind_from_name

# The registration list: every kind the server and the command line read, once.
KINDS: tuple[DocumentKind, ...] = (GRAPH, MAP, WORKFLOW, BOARD, EPISODES)
BY_NAME: dict[str, DocumentKind] = {k.name: k for k in KINDS}


def kind_named(name: str) -> DocumentKind:
    """The kind of that name (`DocumentAnalysis.kind`, `Loaded.kind`)."""
    return BY_NAME[name]


def kind_of_file(name: str | None) -> DocumentKind | None:
    """The kind a file name says (`x.grooph.json`, `x.workflow.yaml` …), or None when it says none."""
    found = any_kind_from_name(name)
    return BY_NAME[found] if found is not None else None


def analyse(text: str, *, name: str | None = None, tolerant: bool = True, export: bool = False, resolver=None,
            max_chars: int | None = None, previous=None):
    """The analysis of a text by the kind its file name says; a text of no kind's name is a grooph
    document, a graph or a map by its content (map.md §1). `previous`: see `DocumentKind.read`."""
    kind = kind_of_file(name) or GRAPH
    return kind.read(text, name=name, tolerant=tolerant, export=export, resolver=resolver, max_chars=max_chars,
                     previous=previous)


__all__ = ["KINDS", "BY_NAME", "DocumentKind", "kind_named", "kind_of_file", "analyse"]
