"""Stand-in tokenizers of the families an embedding model may use, rebuilt offline.

The engine must be exact and fast with any tokenizer, not only WordPiece. The
specification's model (multilingual-e5) and many others cannot be downloaded here, so
two stand-ins are trained with the ``tokenizers`` library on the texts of the
repository's ``corpus/``: each Markdown law as one text, then each PDF page as ``pypdf``
extracts it (``training_texts``; the benchmarks' ``real`` corpus reads the same):

* ``unigram``: a SentencePiece-style **Unigram** shaped like XLM-RoBERTa's (used by
  intfloat/multilingual-e5). Its normaliser is SentencePiece's ``nmt_nfkc`` (XLM-R's
  precompiled map) rebuilt from ``tokenizers``' own normalizers: NFKC; ASCII control
  characters but NUL (and DEL, U+008F, U+009F) dropped; tab, line breaks, zero-width
  space and non-joiner, BOM, LRM/RLM, "▁" and U+FFFD read as a space; then, as
  ``transformers`` converts it, trailing spaces stripped and runs of spaces collapsed.
  So a zero-width space splits a word, where Python sees no whitespace. A ``Metaspace``
  pre-tokenizer ("▁", prepend scheme ``always``: the space belongs to the next token);
  ``<s> $A </s>``; special tokens ``<s>``, ``<pad>``, ``</s>``, ``<unk>`` (ids 0-3, as
  XLM-R). Asked for 16,000 pieces, the trainer keeps the ~7,100 that this
  0.8 M-character corpus supports.
* ``bpe``: a **byte-level BPE** shaped like RoBERTa's (and GTE's, ModernBERT's): a
  ``ByteLevel`` pre-tokenizer (no prefix space) and decoder, ``RobertaProcessing``
  (``<s> $A </s>``, offsets trimmed), special tokens ``<s>``, ``<pad>``, ``</s>``,
  ``<unk>``, ``<mask>``. Asked for 16,000 merges, the corpus gives ~14,700.

Other members of each family, for estimates that must hold for all of them:
``unigram-nfkc`` (NFKC as the only normaliser, ``Metaspace()`` defaults),
``unigram-first`` (``prepend_scheme="first"``), ``unigram-4k`` (4,000 pieces),
``bpe-prefix`` (a space added before the text), and two BERT-style **WordPiece**
(lower case; ``wordpiece-stripped`` strips accents, ``wordpiece-accents`` keeps them).

Each is saved as a model folder, ``tokenizer.json`` plus ``sentence_bert_config.json``
declaring ``max_seq_length`` 512, so that
``load_tokenization(Settings(embedding_model=folder))`` finds the limit 512.

Deterministic: the same corpus text and ``tokenizers`` version give the same bytes on
every run and every machine. Training runs single-threaded
(``TOKENIZERS_PARALLELISM=false`` while it lasts). Unigram training still sums in the
order of a Rust hash map, which changes from process to process: its scores differ in
their last bits, and the characters it adds back after pruning get scores 1e-4 apart
in that order. So the Unigram's scores are rounded to ``SCORE_DIGITS`` decimals, those
added characters share one score, and pieces are numbered by score, then text.

Folders are cached in ``tests/.cache/standins/`` (git-ignored) under a key of this
file, the ``tokenizers`` version and the training text: ``standin_folder(name)`` builds
one on first use (about a second) and returns it. The training text is cached there too,
under a key of the corpus files' bytes (``pypdf`` takes seconds to read the PDFs). The
tests' helper, as ``pdf_layouts.py``: the benchmarks import it (``tests.standins``),
never the other way. From the repository root::

    python -m tests.standins                 # build (or find) every one; folders and hashes
    python -m tests.standins --check         # train each twice more; the bytes must match
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from tokenizers import (
    Regex,
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

HERE = Path(__file__).resolve().parent
#: The repository's corpus: ``markdown/*.md`` and ``pdf/*.pdf``.
CORPUS = HERE.parent / "corpus"
CACHE = HERE / ".cache" / "standins"

#: The real input limit every stand-in declares (XLM-R's and RoBERTa's).
MAX_SEQ_LENGTH = 512

#: What the trainers are asked for (both get fewer from this corpus; see above).
UNIGRAM_PIECES = 16_000
BPE_MERGES = 16_000
WORDPIECE_PIECES = 16_000

#: Decimals kept of a Unigram score: enough to order every piece the corpus supports,
#: few enough that the trainer's last-bit noise never shows.
SCORE_DIGITS = 6

#: The trainer adds each character that pruning dropped with a score this far below
#: the previous one (``tokenizers``' ``UnigramTrainer::finalize``).
_ADDED_CHARACTER_STEP = 1e-4

UNIGRAM_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")
BPE_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")


@contextmanager
def _single_threaded() -> Iterator[None]:
    """``tokenizers`` runs serially inside (it reads the variable on every call)."""
    before = os.environ.get("TOKENIZERS_PARALLELISM")
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    try:
        yield
    finally:
        if before is None:
            del os.environ["TOKENIZERS_PARALLELISM"]
        else:
            os.environ["TOKENIZERS_PARALLELISM"] = before


# -- unigram ------------------------------------------------------------------------------


#: What SentencePiece's ``nmt_nfkc`` rules drop, and what they read as a space (on
#: top of NFKC, which already maps no-break and typographic spaces to U+0020).
NMT_DROPPED = "".join(map(chr, [*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F, 0x8F, 0x9F]))
NMT_SPACES = "\t\n\x0c\r\u1680\u200b\u200c\u200e\u200f\u2028\u2029\u2581\ufeff\ufffd"


def _xlmr_like_normalizer() -> normalizers.Normalizer:
    return normalizers.Sequence(
        [
            normalizers.NFKC(),
            normalizers.Replace(Regex(f"[{NMT_DROPPED}]"), ""),
            normalizers.Replace(Regex(f"[{NMT_SPACES}]"), " "),
            normalizers.Strip(left=False, right=True),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )


def flatten_added_characters(scores: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The characters the trainer added below its lowest piece, all at one score.

    They are the lowest scores, each ``_ADDED_CHARACTER_STEP`` below the previous in an
    order that changes from run to run; they never compete with one another (each is
    a different character), so one shared score changes no segmentation they decide.
    """
    ascending = sorted(score for _, score in scores)
    top = ascending[0]
    for score in ascending[1:]:
        if score - top > 1.5 * _ADDED_CHARACTER_STEP:
            break
        top = score
    return [(piece, top if len(piece) == 1 and score <= top else score) for piece, score in scores]


def _canonical_unigram(vocab: list[tuple[str, float]]) -> models.Unigram:
    """The trained Unigram with run-independent scores and ids (specials first)."""
    specials = [(piece, 0.0) for piece in UNIGRAM_SPECIALS]
    rest = [(piece, round(score, SCORE_DIGITS)) for piece, score in vocab[len(specials) :]]
    rest = flatten_added_characters(rest)
    rest.sort(key=lambda item: (-item[1], item[0]))
    unk_id = UNIGRAM_SPECIALS.index("<unk>")
    return models.Unigram([*specials, *rest], unk_id, False)


def build_unigram(
    texts: Sequence[str],
    *,
    pieces: int = UNIGRAM_PIECES,
    xlmr_normalizer: bool = True,
    prepend_scheme: str = "always",
) -> Tokenizer:
    """A Metaspace + Unigram tokenizer shaped like XLM-R's, trained on ``texts``: asked
    for ``pieces``, with the XLM-R-like normaliser sequence or NFKC alone."""
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = _xlmr_like_normalizer() if xlmr_normalizer else normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="▁", prepend_scheme=prepend_scheme
    )
    tokenizer.decoder = decoders.Metaspace(replacement="▁", prepend_scheme=prepend_scheme)
    trainer = trainers.UnigramTrainer(
        vocab_size=pieces,
        special_tokens=list(UNIGRAM_SPECIALS),
        unk_token="<unk>",
        show_progress=False,
    )
    with _single_threaded():
        tokenizer.train_from_iterator(texts, trainer)
    vocab = [(piece, score) for piece, score in json.loads(tokenizer.to_str())["model"]["vocab"]]
    tokenizer.model = _canonical_unigram(vocab)
    ids = {piece: tokenizer.token_to_id(piece) for piece in ("<s>", "</s>")}
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=list(ids.items())
    )
    return tokenizer


# -- byte-level BPE -------------------------------------------------------------------------


def build_bpe(texts: Sequence[str], *, prefix_space: bool = False) -> Tokenizer:
    """A byte-level BPE tokenizer shaped like RoBERTa's, trained on ``texts`` (with a
    space added before the text when ``prefix_space``, as GPT-2-style options allow)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=prefix_space)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=len(BPE_SPECIALS) + 256 + BPE_MERGES,
        special_tokens=list(BPE_SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    with _single_threaded():
        tokenizer.train_from_iterator(texts, trainer)
    tokenizer.post_processor = processors.RobertaProcessing(
        ("</s>", tokenizer.token_to_id("</s>")),
        ("<s>", tokenizer.token_to_id("<s>")),
        trim_offsets=True,
        add_prefix_space=prefix_space,
    )
    return tokenizer


# -- WordPiece --------------------------------------------------------------------------------


WORDPIECE_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def build_wordpiece(texts: Sequence[str], *, strip_accents: bool) -> Tokenizer:
    """A BERT-style WordPiece (lower case, accents stripped or kept), trained on ``texts``."""
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=strip_accents)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(
        vocab_size=WORDPIECE_PIECES, special_tokens=list(WORDPIECE_SPECIALS), show_progress=False
    )
    with _single_threaded():
        tokenizer.train_from_iterator(texts, trainer)
    ids = {piece: tokenizer.token_to_id(piece) for piece in ("[CLS]", "[SEP]")}
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=list(ids.items())
    )
    return tokenizer


# -- the folders ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandIn:
    """One stand-in: what it imitates, and how it is trained."""

    name: str
    label: str
    build: Callable[[Sequence[str]], Tokenizer]


STANDINS: dict[str, StandIn] = {
    "unigram": StandIn("unigram", "SentencePiece Unigram + Metaspace (XLM-R-like)", build_unigram),
    "bpe": StandIn("bpe", "byte-level BPE (RoBERTa-like)", build_bpe),
    # Other members of each family: the estimate must hold for all of them. (No 64k
    # Unigram: asked for 64,000 pieces, this corpus gives the same ~7,100 as for 16,000.)
    "unigram-nfkc": StandIn(
        "unigram-nfkc",
        "Unigram + Metaspace, NFKC only",
        partial(build_unigram, xlmr_normalizer=False),
    ),
    "unigram-first": StandIn(
        "unigram-first",
        "Unigram + Metaspace, prepend_scheme first",
        partial(build_unigram, prepend_scheme="first"),
    ),
    "unigram-4k": StandIn(
        "unigram-4k", "Unigram + Metaspace, 4k pieces", partial(build_unigram, pieces=4_000)
    ),
    "bpe-prefix": StandIn(
        "bpe-prefix", "byte-level BPE, prefix space", partial(build_bpe, prefix_space=True)
    ),
    "wordpiece-stripped": StandIn(
        "wordpiece-stripped",
        "WordPiece, accents stripped",
        partial(build_wordpiece, strip_accents=True),
    ),
    "wordpiece-accents": StandIn(
        "wordpiece-accents",
        "WordPiece, accents kept",
        partial(build_wordpiece, strip_accents=False),
    ),
}


def corpus_files(source: Path) -> list[Path]:
    """The Markdown laws, then the PDFs, each in name order (the benchmarks' ``real``
    corpus reads them too)."""
    files = [*sorted((source / "markdown").glob("*.md")), *sorted((source / "pdf").glob("*.pdf"))]
    if not files:
        raise SystemExit(f"no .md or .pdf documents under {source}")
    return files


def file_pages(path: Path) -> list[str]:
    """A Markdown law as one text, or a PDF's pages (the AEAT manual is AES-encrypted
    with an empty password)."""
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    if reader.is_encrypted:
        reader.decrypt("")
    return [page.extract_text() or "" for page in reader.pages]


def _write_atomically(path: Path, text: str) -> None:
    """``text`` at ``path``, renamed into place (test workers may write it at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    building = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    building.write_text(text, encoding="utf-8")
    building.replace(path)


def training_texts(source: Path = CORPUS, cache: Path = CACHE) -> list[str]:
    """The texts of ``source`` (the repository's ``corpus/``): each Markdown law, then each
    PDF page, in name order; cached under a key of the files' names and bytes."""
    files = corpus_files(source)
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.relative_to(source).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    cached = cache / f"texts-{digest.hexdigest()[:16]}.json"
    if cached.is_file():
        texts: list[str] = json.loads(cached.read_text(encoding="utf-8"))
        return texts
    texts = [text for path in files for text in file_pages(path)]
    _write_atomically(cached, json.dumps(texts))  # ASCII: lone surrogates kept
    return texts


def recipe_key(name: str, texts: Sequence[str]) -> str:
    """What a stand-in's bytes depend on: this file, ``tokenizers``, the training text."""
    import tokenizers

    digest = hashlib.sha256()
    digest.update(Path(__file__).read_bytes())
    digest.update(f"\0{name}\0{tokenizers.__version__}\0".encode())
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()[:16]


def tokenizer_json(name: str, texts: Sequence[str]) -> str:
    """The trained stand-in's ``tokenizer.json`` text."""
    return STANDINS[name].build(texts).to_str()


def write_folder(folder: Path, serialized: str) -> Path:
    """Writes a model folder (``tokenizer.json``, ``sentence_bert_config.json``) atomically:
    built beside ``folder`` and renamed into place; a folder already there is kept."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    building = folder.with_name(f"{folder.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    (building / "tokenizer.json").write_text(serialized, encoding="utf-8")
    config = {"max_seq_length": MAX_SEQ_LENGTH, "do_lower_case": False}
    (building / "sentence_bert_config.json").write_text(json.dumps(config), encoding="utf-8")
    try:
        building.rename(folder)
    except OSError:  # another process built it first: the same bytes
        shutil.rmtree(building, ignore_errors=True)
    return folder


def standin_folder(name: str, cache: Path = CACHE) -> Path:
    """The model folder of stand-in ``name`` (``unigram`` or ``bpe``), built on first use."""
    if name not in STANDINS:
        raise SystemExit(f"unknown stand-in {name!r}: use {', '.join(STANDINS)}")
    texts = training_texts()
    folder = cache / f"{name}-{recipe_key(name, texts)}"
    if not (folder / "tokenizer.json").is_file():
        write_folder(folder, tokenizer_json(name, texts))
    return folder


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("names", nargs="*", default=list(STANDINS), help=", ".join(STANDINS))
    parser.add_argument(
        "--check", action="store_true", help="train each twice more and compare the bytes"
    )
    args = parser.parse_args(argv)
    failed = 0
    for name in args.names:
        started = time.perf_counter()
        folder = standin_folder(name)
        seconds = time.perf_counter() - started
        cached = sha256(folder / "tokenizer.json")
        print(f"{name}: {folder} ({seconds:.1f} s) tokenizer.json sha256 {cached}")
        if args.check:
            texts = training_texts()
            again = [tokenizer_json(name, texts) for _ in range(2)]
            hashes = {hashlib.sha256(s.encode("utf-8")).hexdigest() for s in again}
            same = hashes == {cached}
            failed += not same
            print(f"  trained twice more: {'same bytes' if same else 'DIFFERENT: ' + str(hashes)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
