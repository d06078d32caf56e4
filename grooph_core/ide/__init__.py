"""What an editor asks of a document, on one version of its text (DESIGN.md "Layers"); the language
server (grooph_lsp) only translates these to LSP and back.

Every request goes through the document's kind, its face (DESIGN.md "Kinds"). One package per family of
kinds holds that family's editor code and faces: `grooph/` (graphs and maps), `neighbours/` (workflows,
boards, episode records). Shared by all: `face` (`DocumentKind`, the face every kind shows),
`document` (`DocumentAnalysis`, every kind's analysis's base), `text_edits` (a value change as small
text edits, byte for byte elsewhere), `code_docs` (the page of every code that diagnostics link to),
`refused` (`Refused`: the one "cannot, and why" result). On top, `kinds` registers the faces (`KINDS`,
`kind_named`, `kind_of_file`, `analyse`); no module of `ide` imports it, but this package makes it, so
that an analysis made by any entry (`analyze`, `analyze_neighbour` …) finds its face (`face.face_of`).
"""

from grooph_core.ide import kinds  # noqa: F401  (the faces made: `DocumentAnalysis.document_kind`)
