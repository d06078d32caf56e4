"""grooph_core: everything that knows grooph documents (graphs and operation maps).

A library first: no LSP import anywhere in it. The command line (`grooph_core.cli`) and the
language server (`grooph_lsp`) are thin faces over it.
"""

__version__ = "0.1.0"
