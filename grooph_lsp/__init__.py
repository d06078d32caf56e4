"""grooph-lsp: the language server for grooph documents, a thin protocol shell over `grooph_core`."""

from grooph_core import __version__

__all__ = ["__version__"]
