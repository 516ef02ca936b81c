"""Splits a small text with the installed wheel (``.ci/run`` runs it in a clean environment).

Only the wheel and its declared dependencies are installed there: the package must come
from that environment's ``site-packages`` (never this checkout), import its LangChain
adapter, and give chunks that keep their promises with a fake tokenizer.
"""

import langchain_asesoria
from langchain_asesoria import ChunkingConfig, ChunkMetadata, LoadedPage, chunk_document
from langchain_asesoria.langchain import AsesoriaTextSplitter, original_text
from langchain_asesoria.testing import ByteTokenization

assert "site-packages" in langchain_asesoria.__file__, langchain_asesoria.__file__
text = "Artículo 1. El impuesto grava la renta.\n\nArtículo 2. Sujeto pasivo. " * 20
tokenization = ByteTokenization(64)
config = ChunkingConfig(max_tokens=64, overlap_tokens=8)
pages = [LoadedPage(text, 1)]
metadata = ChunkMetadata(doc_id="wheel")
chunks = chunk_document(pages, metadata, config=config, tokenization=tokenization)
assert len(chunks) > 1
assert all(text[c.start : c.end] == c.text and c.token_count <= 64 for c in chunks)
splitter = AsesoriaTextSplitter(tokenization, chunk_size=64, chunk_overlap=8)
documents = splitter.create_documents([text])
for document in documents:
    start, end = document.metadata["start_index"], document.metadata["end_index"]
    assert text[start:end] == original_text(document)
print(f"the wheel splits in a clean environment: {len(chunks)} chunks, {len(documents)} documents")
