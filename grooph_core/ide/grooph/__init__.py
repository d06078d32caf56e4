"""The grooph kinds' editor code (graph.md, map.md): `face` (`GRAPH`, `MAP`), `analysis` (the analysis of
a text: parse, every rule, a span per issue), `completion`, `hover`, `navigation` (occurrences of ids,
the outline), `refactor` (definition, references, rename), `formatting` (the canonical form as minimal
line edits), `actions` (operations as edits, quick fixes, fix-all, preview).
"""
