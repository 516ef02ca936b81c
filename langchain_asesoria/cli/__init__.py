"""The ``asesoria-split`` command line: an adapter around the engine (see ``main``)."""

from langchain_asesoria.cli.main import main

__all__ = ["main"]
