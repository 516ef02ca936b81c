"""The benchmarks' tests: the package tests' offline MiniLM tokenizer, defined once in
``tests/conftest.py`` (importable by name: ``tests`` is on pytest's ``pythonpath``)."""

from conftest import minilm, minilm_folder

__all__ = ["minilm", "minilm_folder"]
