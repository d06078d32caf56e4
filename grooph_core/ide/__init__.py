"""What an editor asks of a document, on one version of its text (DESIGN.md "Layers"); the language
server (grooph_lsp) only translates these to LSP and back.

`analysis` (the analysis of a text: parse, every rule, a span per issue), `completion`, `hover`,
`navigation` (occurrences of ids, the outline), `refactor` (definition, references, rename),
`formatting` (the canonical form as minimal line edits), `actions` (operations as edits, quick fixes,
fix-all, preview), `text_edits` (a value change as small text edits, byte for byte elsewhere),
`code_docs` (the page of every code that diagnostics link to), and `refused` (`Refused`: the one
"cannot, and why" result). `kinds` is the one face per document kind that every request goes through
(DESIGN.md "Kinds"): each kind's face delegates to the modules here. The neighbouring formats (workflow, board, episode record):
`neighbour_analysis` (their one pipeline, tolerant and strict), `neighbour_completion`,
`neighbour_hover`, `neighbour_outline`, `neighbour_names` (definition, references and rename of
their names), `neighbour_repairs`, `neighbour_format` (boards and episode
records in the seed's written form).
"""
