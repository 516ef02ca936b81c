"""The evaluation's tests, run from the repository root with the library's
(``python -m pytest``: the root ``pyproject.toml`` lists this folder). They share the
library tests' offline MiniLM fixtures, defined once in ``tests/conftest.py``, and its
helpers (``tests/pdfs.py``), importable by name: ``tests`` is on pytest's
``pythonpath``."""

from conftest import minilm, minilm_folder

__all__ = ["minilm", "minilm_folder"]
