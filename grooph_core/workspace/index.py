"""The workspace index: every grooph document found on disk, checked without being opened (issue 17).

`check_file` reads and analyses one file (safe to run off the event loop: it touches nothing shared): a
graph or map, or a neighbouring document by its name (a workflow, board or episode record, kinds.NEIGHBOURS,
analysed as the editor does, neighbours.py);
`WorkspaceIndex` keeps the results by path and answers the cross-file questions: which maps name a
graph, which documents hold a symbol. An editor's open texts are laid over the disk's by the caller
(`overlay`): an open editor's text always wins over the file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from grooph_core.ide.document import DocumentAnalysis
from grooph_core.ide.grooph.analysis import Analysis
from grooph_core.ide.kinds import analyse, kind_named
from grooph_core.ide.neighbours.analysis import NeighbourAnalysis
from grooph_core.issues import make
from grooph_core.rules.map.graph_pointers import NOT_A_GRAPH, file_graph_resolver, graph_answer_for_text
from grooph_core.source.json_reader import parse
from grooph_core.source.kinds import CLAIM_KEYS, CLAIM_WINDOW, claims_grooph, kind_from_name, neighbour_from_name
from grooph_core.source.load import decode
from grooph_core.workspace.discover import walk
from grooph_core.workspace.facts import DocumentFacts, GraphLink, SymbolFact, document_facts
from grooph_core.workspace.gitignore import IgnoreTree
from grooph_core.workspace.symbol_search import ranked

OpenText = Callable[[str], "str | None"]
Stamp = tuple[int, int]


@dataclass(frozen=True)
class Checked:
    """One file as checked: its analysis (the shell turns it into diagnostics, then lets it go), its
    facts, and the (mtime, size) it was read at."""

    path: str
    analysis: DocumentAnalysis
    facts: DocumentFacts
    stamp: Stamp
    graph_answer: str = NOT_A_GRAPH  # what a map naming this file is told (map.md §6.8)


def file_stamp(path: str) -> Stamp | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size)


def _unread(path: str, issue, stamp: Stamp) -> Checked:
    name = os.path.basename(path)
    neighbour = neighbour_from_name(name)
    analysis: DocumentAnalysis
    if neighbour is not None:
        analysis = NeighbourAnalysis("", neighbour, parse(""), (issue,))
    else:
        analysis = Analysis("", kind_from_name(name) or "graph", parse(""), (issue,))
    return Checked(path, analysis, document_facts(path, analysis), stamp)


def check_text(path: str, text: str, stamp: Stamp, *, max_chars: int, export: bool = False,
               open_text: OpenText | None = None) -> Checked:
    """Analyse a document's text as the editor would (tolerant), with the map resolver of map.md §6.8
    (open texts winning over files); a neighbouring document by its name, with its own rules (the kind
    its name says reads it: `ide.kinds.analyse`)."""
    analysis = analyse(text, name=os.path.basename(path), export=export, max_chars=max_chars,
                       resolver=file_graph_resolver(path, open_text))
    answer = graph_answer_for_text(text) if analysis.document_kind.named_by_maps else NOT_A_GRAPH
    return Checked(path, analysis, document_facts(path, analysis), stamp, answer)


def check_file(path: str, *, max_chars: int, export: bool = False, open_text: OpenText | None = None) -> Checked | None:
    """Read and analyse one file; None when it is gone, not a regular file, or a `.json` that does not
    claim to be a grooph document (nor is named as a neighbouring one). A file over `max_chars` bytes is
    not read: one E_DOC_LIMIT says so."""
    stamp = file_stamp(path)
    if stamp is None or not os.path.isfile(path):
        return None
    name = os.path.basename(path)
    named = kind_from_name(name) is not None or neighbour_from_name(name) is not None
    if stamp[1] > max_chars:
        if not named and not _head_claims(path):
            return None
        return _unread(path, make("E_DOC_LIMIT", f"the file is {stamp[1]:,} bytes, more than the {max_chars:,} the "
                                  "editor analyses (grooph.maxDocumentSize); it was not read", span=(0, 0)), stamp)
    try:
        with open(path, "rb") as f:
            data = f.read(max_chars + 1)
    except OSError:
        return None
    text, err = decode(data)
    if text is None and neighbour_from_name(name) is not None:  # as the command line says it (neighbours.py)
        err = make("E_SYNTAX", err.message, span=(0, 0))
    if text is None:
        return _unread(path, err, stamp) if named else None
    if not named and not claims_grooph(text):
        return None
    return check_text(path, text, stamp, max_chars=max_chars, export=export, open_text=open_text)


def _head_claims(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(CLAIM_WINDOW).decode("utf-8", errors="replace")
    except OSError:
        return False
    return CLAIM_KEYS.search(head) is not None


def discover(folders: Iterable[str], trees: dict[str, IgnoreTree] | None = None) -> list[str]:
    """Every candidate file under the folders (gitignore respected), each once, in folder order."""
    seen: set[str] = set()
    out: list[str] = []
    for folder in folders:
        tree = trees.get(folder) if trees is not None else None
        for path in walk(folder, tree):
            if path not in seen:
                seen.add(path)
                out.append(path)
    return out


@dataclass(frozen=True)
class Entry:
    """A checked file: its facts, its text as read (kept as UTF-8: a quarter of the memory of a str
    holding one emoji), and the stamp it was read at."""

    facts: DocumentFacts
    data: bytes
    stamp: Stamp

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="surrogatepass")


class WorkspaceIndex:
    """The documents found on disk, by absolute path, and the folders they were found under."""

    def __init__(self, folders: Iterable[str] = ()) -> None:
        self.folders = [os.path.abspath(f) for f in folders]
        self.trees = {f: IgnoreTree(f) for f in self.folders}
        self.entries: dict[str, Entry] = {}

    # --- which files belong ------------------------------------------------------------------
    def folder_of(self, path: str) -> str | None:
        best = None
        for f in self.folders:
            if (path == f or path.startswith(f.rstrip(os.sep) + os.sep)) and (best is None or len(f) > len(best)):
                best = f
        return best

    def is_watched(self, path: str) -> bool:
        """Under a workspace folder and not ignored by `.gitignore`."""
        folder = self.folder_of(path)
        return folder is not None and not self.trees[folder].is_ignored(path)

    def discover(self) -> list[str]:
        return discover(self.folders, self.trees)

    def forget_ignore_files(self) -> None:
        """After a `.gitignore` changed: read them afresh (the stamps catch most changes; this is sure)."""
        self.trees = {f: IgnoreTree(f) for f in self.folders}

    # --- contents -----------------------------------------------------------------------------
    def put(self, checked: Checked) -> None:
        self.entries[checked.path] = Entry(checked.facts, checked.analysis.text.encode("utf-8", errors="surrogatepass"),
                                           checked.stamp)

    def remove(self, path: str) -> Entry | None:
        return self.entries.pop(path, None)

    def get(self, path: str) -> Entry | None:
        return self.entries.get(path)

    def stale(self, path: str) -> bool:
        """True when the file changed on disk since it was checked (or was never checked)."""
        e = self.entries.get(path)
        return e is None or e.stamp != file_stamp(path)

    def all_facts(self, overlay: dict[str, DocumentFacts]) -> Iterator[DocumentFacts]:
        """Every document's facts, an open document's (`overlay`) instead of its file's."""
        yield from overlay.values()
        for path, e in self.entries.items():
            if path not in overlay:
                yield e.facts

    # --- cross-file questions -----------------------------------------------------------------
    def links_to(self, graph: str, overlay: dict[str, DocumentFacts]) -> list[tuple[DocumentFacts, GraphLink]]:
        """Every map session whose `graph` names the file `graph` (map.md §6.8 resolution)."""
        graph = os.path.normpath(graph)
        return [(f, link) for f in self.all_facts(overlay) if kind_named(f.kind).names_graphs
                for link in f.links if link.target == graph]

    def dependents(self, graphs: Iterable[str], overlay: dict[str, DocumentFacts]) -> list[str]:
        """The maps naming any of these graph files."""
        wanted = {os.path.normpath(g) for g in graphs}
        return sorted({f.path for f in self.all_facts(overlay) if kind_named(f.kind).names_graphs
                       for link in f.links if link.target in wanted})

    def search(self, query: str, overlay: dict[str, DocumentFacts], limit: int = 200) -> list[tuple[DocumentFacts, SymbolFact]]:
        """workspace/symbol: objects of every document whose id or name matches, best first."""
        pairs = [(f, s) for f in self.all_facts(overlay) for s in f.symbols]
        return ranked(query, pairs, lambda fs: (fs[1].ident, fs[1].name), limit=limit)
