"""The neighbouring kinds' editor code (workflow.md, board.md, episodes.md): `face` (`WORKFLOW`, `BOARD`,
`EPISODES`), `analysis` (their one pipeline, tolerant and strict), `completion`, `hover`, `outline`,
`names` (definition, references and rename of their names), `repairs`, `format` (boards and episode
records in the seed's written form).
"""
