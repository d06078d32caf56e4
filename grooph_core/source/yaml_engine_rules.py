"""ruamel.yaml's scanner and parser, made to read as the engine's libyaml (serde_yaml 0.9's unsafe-libyaml)
reads where the two differ (spec/workflow.md §0 "The engine's reader decides"; issue 30):

- a tab is white space between tokens in a flow collection and wherever a simple key cannot start (after
  a key's `:`, after a scalar, a tag or an anchor), and inside a plain scalar (`re<TAB>ady` is one
  scalar, the tab kept); only where it would be indentation is it refused (at the start of a line, after
  `-` or `?`, or on a plain scalar's next line left of its indentation: "found a tab character that
  violates indentation");
- a byte-order mark at the start of a later line is skipped before a token but takes a column
  (`<BOM>initial:` is one column in: the block mapping refuses it, "did not find expected key"); one at the
  very start stays as ruamel reads it (`ide.neighbour_analysis` refuses that file as the engine does);
- a tag is `!`, `!!` or `!name!` then URI characters without `,` `[` `]` `#` (`!<…>` may hold `,[]`), and
  may stand right before a tab or, in a flow collection, a `,` (`{tick: !!str, start: x}`); an anchor's or
  an alias's name is letters, digits, `_` and `-` (`&working:` is the anchor `working` and a `:`);
- in a flow collection a `:` where a token starts is a value indicator whatever follows it (`["a":x]`,
  `[{a: 1}:]` are pairs; ruamel reads a plain scalar `:x` there and refuses the text);
- in a flow collection a plain scalar's `:` right before `,` `?` `[` `]` `{` `}` is refused ("found
  unexpected ':'"; ruamel reads `{target:, x}` as the key "target:");
- a mapping entry with no key (`: {}` in a block mapping, `{: x}`) is refused, as libyaml refuses it
  ("did not find expected key" / "did not find expected node content"); ruamel reads an empty key in YAML
  1.2. An explicit `?` with nothing after it is an empty key for both.

`yaml_reader` composes with these (`install`): the libyaml fast path leaves every text with a tab or a
mark to them, and where it answers, it gives what they give (tests/core/test_yaml_libyaml.py)."""

from __future__ import annotations

from ruamel.yaml.error import StringMark
from ruamel.yaml.parser import Parser, ParserError
from ruamel.yaml.scanner import Scanner, ScannerError
from ruamel.yaml.tokens import FlowEntryToken, TagToken, ValueToken

_THE_END = "\0\r\n\x85\u2028\u2029"
_BREAKS = "\r\n\x85\u2028\u2029"
_BLANKZ = " \t" + _THE_END
_ALPHA = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")  # libyaml's IS_ALPHA
_URI = _ALPHA | frozenset(";/?:@&=+$.%!~*'()")
_VERBATIM_URI = _URI | frozenset(",[]")
_AFTER_ANCHOR = frozenset(_BLANKZ + "?:,]}%@`")
_NO_FLOW_VALUE = frozenset(",?[]{}")  # what may not follow a plain scalar's `:` in a flow collection


class EngineScanner(Scanner):
    """ruamel's scanner with libyaml's tabs, later byte-order marks, tags, anchors and `:` in a flow
    collection (see the module docstring)."""

    def scan_to_next_token(self) -> None:
        """Spaces, line breaks and comments up to the next token, as libyaml's `scan_to_next_token`: a tab
        is skipped in a flow collection or where no simple key may start; a mark at a line's start is
        skipped and counts as a column (ruamel's reader counts none)."""
        reader = self.reader
        srp, srf = reader.peek, reader.forward
        if reader.index == 0 and srp() == "\ufeff":
            srf()
        while True:
            if reader.index > 0 and reader.column == 0 and srp() == "\ufeff":
                srf()
                reader.column += 1
            while srp() == " " or (srp() == "\t" and (self.flow_level or not self.allow_simple_key)):
                srf()
            if srp() == "#":
                while srp() not in _THE_END:
                    srf()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                return

    def scan_plain_spaces(self, indent: int, start_mark) -> list[str] | None:
        """The white space after a plain scalar's chunk (`None` at a document marker), as libyaml's
        `scan_plain_scalar` reads it: spaces and tabs within the line (kept when the scalar goes on), and
        after a line break the next lines' spaces and tabs, a tab left of `indent` refused."""
        reader = self.reader
        srp, srf = reader.peek, reader.forward
        length = 0
        while srp(length) in " \t":
            length += 1
        whitespaces = reader.prefix(length)
        srf(length)
        if srp() not in _BREAKS:
            return [whitespaces] if whitespaces else []
        line_break = self.scan_line_break()
        self.allow_simple_key = True
        if _at_document_marker(reader):
            return None
        breaks: list[str] = []
        while srp() in " \t" or srp() in _BREAKS:
            if srp() in _BREAKS:
                breaks.append(self.scan_line_break())
                if _at_document_marker(reader):
                    return None
            elif srp() == "\t" and reader.column < indent:
                raise ScannerError("while scanning a plain scalar", start_mark,
                                   "found a tab character that violates indentation", reader.get_mark())
            else:
                srf()
        chunks: list[str] = []
        if line_break != "\n":
            chunks.append(line_break)
        elif not breaks:
            chunks.append(" ")
        chunks.extend(breaks)
        return chunks


    def check_value(self) -> bool:
        """A `:` is a value indicator in a flow collection, and in a block one before white space or the end."""
        return bool(self.flow_level) or self.reader.peek(1) in _BLANKZ

    def scan_plain(self):
        """ruamel's plain scalar, refused as libyaml refuses it in a flow collection: a `:` in it right
        before `,` `?` `[` `]` `{` `}` (ruamel takes such a `:` into the scalar)."""
        token = super().scan_plain()
        if self.flow_level:
            buffer = self.reader.buffer
            start, end = token.start_mark.pointer, token.end_mark.pointer
            at = buffer.find(":", start, end)
            while at >= 0:
                if buffer[at + 1:at + 2] in _NO_FLOW_VALUE:
                    mark = token.start_mark
                    problem = StringMark(mark.name, mark.index + at - start, mark.line, mark.column + at - start,
                                         buffer, at)
                    raise ScannerError("while scanning a plain scalar", mark, "found unexpected ':'", problem)
                at = buffer.find(":", at + 1, end)
        return token

    def scan_anchor(self, TokenClass):
        """An anchor or an alias as libyaml scans it: a name of letters, digits, `_`, `-`, then white space,
        the end, or one of `?:,]}%@` and a backquote."""
        reader = self.reader
        srp = reader.peek
        start_mark = reader.get_mark()
        name = "alias" if srp() == "*" else "anchor"
        reader.forward()
        length = 0
        while srp(length) in _ALPHA:
            length += 1
        if not length or srp(length) not in _AFTER_ANCHOR:
            reader.forward(length)
            raise ScannerError(f"while scanning an {name}", start_mark,
                               "did not find expected alphabetic or numeric character", reader.get_mark())
        value = reader.prefix(length)
        reader.forward(length)
        return TokenClass(value, start_mark, reader.get_mark())

    def scan_tag(self):
        """A tag as libyaml scans it (`yaml_parser_scan_tag`): its handle and suffix, then white space, the
        end, or in a flow collection a `,`."""
        reader = self.reader
        srp = reader.peek
        start_mark = reader.get_mark()
        if srp(1) == "<":  # a verbatim tag
            reader.forward(2)
            handle, suffix = None, self._tag_uri(start_mark, _VERBATIM_URI, "")
            if srp() != ">":
                raise ScannerError("while scanning a tag", start_mark, "did not find the expected '>'",
                                   reader.get_mark())
            reader.forward()
        else:
            length = 1
            while srp(length) in _ALPHA:
                length += 1
            if srp(length) == "!":  # `!!` or `!name!`, then the suffix
                handle = reader.prefix(length + 1)
                reader.forward(length + 1)
                suffix = self._tag_uri(start_mark, _URI, "")
            else:  # `!` and its suffix (the letters read above are its start); `!` alone is non-specific
                reader.forward()
                handle, suffix = "!", self._tag_uri(start_mark, _URI, "!")
                if not suffix:
                    handle, suffix = None, "!"
        ch = srp()
        if ch not in _BLANKZ and not (self.flow_level and ch == ","):
            raise ScannerError("while scanning a tag", start_mark, "did not find expected whitespace or line break",
                               reader.get_mark())
        return TagToken((handle, suffix), start_mark, reader.get_mark())

    def _tag_uri(self, start_mark, allowed: frozenset, head: str) -> str:
        """The URI characters from here (`%` escapes decoded); refused when they and `head` are empty."""
        reader = self.reader
        chunks: list[str] = []
        length = 0
        while reader.peek(length) in allowed:
            if reader.peek(length) == "%":
                chunks.append(reader.prefix(length))
                reader.forward(length)
                length = 0
                chunks.append(self.scan_uri_escapes("tag", start_mark))
            else:
                length += 1
        chunks.append(reader.prefix(length))
        reader.forward(length)
        uri = "".join(chunks)
        if not uri and not head:
            raise ScannerError("while parsing a tag", start_mark, "did not find expected tag URI", reader.get_mark())
        return uri


def _at_document_marker(reader) -> bool:
    prefix = reader.prefix(3)
    return (prefix == "---" or prefix == "...") and reader.peek(3) in _THE_END + " \t"


class EngineParser(Parser):
    """ruamel's parser refusing a mapping entry without a key, as libyaml does (the module docstring)."""

    def parse_block_mapping_key(self):
        if self.scanner.check_token(ValueToken):
            raise ParserError("while parsing a block mapping", self.marks[-1], "did not find expected key",
                              self.scanner.peek_token().start_mark)
        return super().parse_block_mapping_key()

    def parse_flow_mapping_key(self, first: bool = False):
        scanner = self.scanner
        if not first and scanner.check_token(FlowEntryToken):  # the `,`: then as before the first key
            scanner.get_token()
            first = True
        if first and scanner.check_token(ValueToken):
            mark = scanner.peek_token().start_mark
            raise ParserError("while parsing a flow node", mark, "did not find expected node content", mark)
        return super().parse_flow_mapping_key(first)


def install(yaml) -> None:
    """Make a `ruamel.yaml.YAML(pure=True)` read with these rules."""
    yaml.Scanner = EngineScanner
    yaml.Parser = EngineParser
