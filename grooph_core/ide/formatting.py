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

from grooph_core.ide.refused import Refused
from grooph_core.ide.text_edits import TextEdit, line_edits


def format_edits(analysis) -> list[TextEdit] | Refused:
    """Edits turning the text into its canonical form, or why it is left as it is. A neighbouring
    document (workflow, board, episode record) has its own written form (`neighbour_format`)."""
    if getattr(analysis, "neighbour", None) is not None:
        from grooph_core.ide.neighbour_format import neighbour_format_edits

        return neighbour_format_edits(analysis)
    from grooph_core.schema.canonical import canonical_text

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


def unreadable(analysis) -> Refused | None:
    """Why a JSON text is not formatted as it reads: not valid JSON (where and why), or a key written
    twice (one value would vanish); None when it reads."""
    parsed = analysis.parsed
    if not parsed.ok or parsed.value is None:
        first = next((p for p in parsed.problems if p.code in ("E_SYNTAX", "E_DOC_LIMIT")), None)
        where = ""
        if first is not None and first.span:
            line, col = analysis.line_index.position(first.span[0])
            where = f" (line {line + 1}, column {col + 1}: {first.message})"
        return Refused(f"Not formatted: the text is not valid JSON{where}. Nothing was changed.")
    for p in parsed.problems:
        if p.code == "W_DUPLICATE_KEY":
            return Refused(f"Not formatted: {p.message}. Formatting would drop one of the two values; remove one copy first.")
    return None


def uses_crlf(text: str) -> bool:
    """The document's own line ending is CRLF (its first line break is one)."""
    i = text.find("\n")
    return i > 0 and text[i - 1] == "\r"
