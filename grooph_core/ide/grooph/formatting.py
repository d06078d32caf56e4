"""Formatting for editors: the canonical form (graph.md §6, map.md §9) as minimal line edits.

Formatting never loses what the user wrote: text that is not valid JSON is not formatted; nor is a
document with a duplicated key (the first value would vanish) or a number that the canonical form
would rewrite (an integer beyond 2^53): the user is told why instead.

Line endings belong to the editor (`files.eol`, `fileformat`): the edits for a CRLF document are
written with CRLF, so only the lines that really change are replaced. The canonical form itself has
LF only (graph.md §6.1) and `grooph fmt --check` holds files to it, so the editor switches the file
to LF when it formats on save (the Neovim plugin sets 'fileformat'; docs/editors.md).
"""

from __future__ import annotations

from grooph_core.ide.refused import Refused, unreadable
from grooph_core.ide.text_edits import TextEdit, line_edits, uses_crlf
from grooph_core.schema.canonical import canonical_text


def format_edits(analysis) -> list[TextEdit] | Refused:
    """Edits turning the text into its kind's written form, or why it is left as it is (the kind's
    `format`: a graph or map `canonical_format_edits`, a neighbouring document `ide.neighbours.format`)."""
    return analysis.document_kind.format(analysis)


def canonical_format_edits(analysis) -> list[TextEdit] | Refused:
    """Edits turning a graph or map into its canonical form (graph.md §6, map.md §9), or why not."""
    parsed = analysis.parsed
    limit = analysis.over_limit
    if limit is not None:
        return Refused(f"Not formatted: {limit.message}. Nothing was changed.")
    refused = unreadable(analysis)
    if refused is not None:
        return refused
    for p in parsed.problems:
        if p.code == "W_NUMBER_PRECISION":
            return Refused(f"Not formatted: {p.message}; the canonical form would write that, not what you wrote. "
                           "Nothing was changed.")
    canonical = canonical_text(parsed.value, analysis.kind)
    if uses_crlf(analysis.text):
        canonical = canonical.replace("\n", "\r\n")
    return line_edits(analysis.text, canonical)
