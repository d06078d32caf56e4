"""`grooph-lsp` / `python -m grooph_lsp`: start the language server (stdio by default)."""

from __future__ import annotations

import argparse
import logging
import sys

from grooph_core import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grooph-lsp", description="Language server for grooph graphs and operation maps.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead of stdio")
    parser.add_argument("--log-file", metavar="FILE", help="write the server's log to FILE")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = parser.parse_args(argv)
    if args.version:
        print(f"grooph-lsp {__version__}")
        return 0
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=getattr(logging, args.log_level),
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    else:
        logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    from grooph_lsp.collector import hold_full_passes
    from grooph_lsp.server import create_server

    hold_full_passes()  # the server's process only: its full collector passes come when it is idle
    server = create_server()
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit():
            parser.error("--tcp expects HOST:PORT, e.g. 127.0.0.1:2087")
        server.start_tcp(host, int(port))
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
