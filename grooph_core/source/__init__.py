"""Reading text, the layer every other one stands on (DESIGN.md "Layers"; graph.md §0, §9 "Parsing").

`json_reader` reads JSON: `parse(text)` is the tolerant reader (never raises; value, source map,
syntax problems at exact spans), `parse_strict(text)` the same reader in strict mode for the command
line, and the reading limits (`MAX_CHARS`, `MAX_DEPTH`, `CLI_MAX_DEPTH`). Its parts: `json_strict`
(the C decoder with JSON.parse's rules), `json_recovery` (the tolerant reader proper), `source_map`
(JSON pointer <-> spans), `line_index` (offsets <-> LSP positions). `yaml_reader` is the YAML
counterpart (`parse_yaml`, same result shape), `yaml_libyaml` its C fast path. `load` reads a file
for the command line (bytes, the file byte limit, one clear issue); `kinds` says which kind of
document a file is (by name, else by content; `NEIGHBOURS` registers the neighbouring formats).
Below them all, the conventions of the JavaScript reference: `text` (whitespace, UTF-16 lengths,
numbers, JSON pointers, the one "did you mean" of §5.1), `keyorder` (§0.4 key order), `json_copy`
(a fast deep copy of a JSON value).
"""
