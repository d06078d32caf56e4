"""The validator (graph.md §3, §5; map.md §4, §6): `validate` is the pipeline (the structural check,
then the rules in the spec's order); one package per document kind (`graph/`, `map/`, `workflow/`,
`board/`, `episodes/`), one module per family, each rule a plain function document -> issues; and
the rules the kinds share (`unknown_keys`, `doc_size`, `timestamps`, `serde_*`).
"""
