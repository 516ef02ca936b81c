"""Benchmarks of langchain-asesoria against its peers: one package, run from the
repository root as ``python -m benchmarks.NAME`` (see ``README.md`` in this folder).

``bench`` (speed, memory, peers), ``breakdown`` (where the time goes), ``golden`` (the
digests every chunk is pinned to), ``quality`` (what a reader meets in the chunks),
``versus`` (two commits in one process), ``isolation_load`` (sessions under load);
``corpus``, ``families``, ``splitters`` and ``metrics`` are what they share, with the
tests' generators they import (``tests.standins``: the stand-in tokenizers). The peers
are wrapped once, in ``langchain_asesoria_eval.chunkers`` (the retrieval evaluation's
distribution, ``evaluation/``).
"""
