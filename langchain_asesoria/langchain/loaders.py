"""Small LangChain loaders: a PDF one ``Document`` per page, a text file one ``Document``,
a BOE consolidated law's XML one ``Document`` per law.

Their metadata follows LangChain's PDF loaders, so the transformer treats them like
``PyPDFLoader``'s output: ``source`` (the path as given), ``page`` (0-based),
``page_label`` (the label the PDF prints) and ``total_pages``; a PDF's pages also carry
its sections and what was removed (``page_structure``). ``pypdf`` is imported
only when a PDF is read (the ``pdf`` extra; AES-encrypted PDFs also need
``cryptography``). ``BoeLawLoader`` gives the BOE's own answer, which the LangChain
classes read as the law on a day (``reading.law_xml``); it downloads a law by its
identifier, for users with a network.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any, Literal

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from langchain_asesoria.boe_xml.fetch import FetchOptions, fetch_law
from langchain_asesoria.boe_xml.files import LAW_ID
from langchain_asesoria.langchain.page_structure import page_structure
from langchain_asesoria.langchain.sources import AS_OF, LAW_VERSIONS
from langchain_asesoria.pdf.open import open_pdf, page_text
from langchain_asesoria.reading import ReadOptions, read_pdf, read_text
from langchain_asesoria.reading.options import LawVersions


class PdfPageLoader(BaseLoader):
    """Loads a PDF, one ``Document`` per page, in page order.

    By default each page's running headers and footers are removed and the PDF's
    outline gives sections: pages carry the keys of
    ``langchain_asesoria.langchain.page_structure`` (where sections start, the section
    a page continues, the lines removed, the outline report), which
    ``AsesoriaDocumentTransformer`` and ``AsesoriaTextSplitter`` turn into chunk
    sections. Both need every page, so the whole PDF is read before the first page is
    yielded; with both switched off, pages are read one at a time, as extracted.

    Args:
        file_path: The PDF file; ``metadata["source"]`` is ``str(file_path)``.
        password: Decrypts an encrypted PDF (``""`` for an empty user password).
        extraction_mode: pypdf's ``"plain"`` (default) or ``"layout"`` text extraction.
        outline_sections: Give pages the sections of the PDF's outline.
        remove_page_furniture: Remove running headers and footers from the text.
        paragraphs: Read the text as paragraphs, not printed lines, and give the
            headings set in bold below the outline their sections
            (``ReadOptions.pdf_paragraphs``; only with the outline or the furniture
            asked for). Off, a page's text is its printed lines, as LangChain's own
            PDF loaders give it.

    Raises (when loading): the errors of ``langchain_asesoria.pdf.open_pdf`` and
        ``page_text``: ``DocumentReadError`` and its subclasses (no such file, damaged,
        encrypted with another password) and ``MissingDependencyError`` (pypdf, or
        cryptography for an AES-encrypted PDF).
    """

    def __init__(
        self,
        file_path: str | Path,
        *,
        password: str | None = None,
        extraction_mode: Literal["plain", "layout"] = "plain",
        outline_sections: bool = True,
        remove_page_furniture: bool = True,
        paragraphs: bool = True,
    ) -> None:
        self.file_path = file_path
        self.password = password
        self.extraction_mode = extraction_mode
        self.outline_sections = outline_sections
        self.remove_page_furniture = remove_page_furniture
        self.paragraphs = paragraphs

    def lazy_load(self) -> Iterator[Document]:
        """One ``Document`` per page: ``page`` 0-based, ``page_label``, ``total_pages``,
        and the structure keys when the outline or the furniture is asked for."""
        source = str(self.file_path)
        reader = open_pdf(self.file_path, self.password)
        labels = reader.page_labels
        total = len(reader.pages)
        texts: Iterator[tuple[str, dict[str, Any]]]
        if self.outline_sections or self.remove_page_furniture:
            options = ReadOptions(
                self.outline_sections,
                self.remove_page_furniture,
                extraction_mode=self.extraction_mode,
                pdf_paragraphs=self.paragraphs,
            )
            document = read_pdf(reader, source, options)
            pages = [page.text for page in document.pages]
            texts = zip(pages, page_structure(document), strict=True)
        else:
            texts = (
                (page_text(reader, index, source, self.extraction_mode), {})
                for index in range(total)
            )
        for index, (text, structure) in enumerate(texts):
            metadata: dict[str, Any] = {
                "source": source,
                "page": index,
                "page_label": str(labels[index]) if index < len(labels) else str(index + 1),
                "total_pages": total,
                **structure,
            }
            yield Document(page_content=text, metadata=metadata)


class TextFileLoader(BaseLoader):
    """Loads a text file (Markdown, plain text) as one ``Document``.

    Its text is ``files.read_text``'s, as on the command line: a leading byte-order mark
    dropped and line endings kept as in the file, so the chunks' offsets are positions
    in ``read_text(file_path)``.

    Args:
        file_path: The file; ``metadata["source"]`` is ``str(file_path)``, so a
            ``.md`` file is recognised as Markdown by the transformer.
        encoding: The file's encoding.

    Raises (when loading): ``DocumentReadError`` (the file cannot be read) and
        ``TextEncodingError`` (its bytes are not valid in ``encoding``).
    """

    def __init__(self, file_path: str | Path, *, encoding: str = "utf-8") -> None:
        self.file_path = file_path
        self.encoding = encoding

    def lazy_load(self) -> Iterator[Document]:
        """The whole file as one ``Document`` without a page number."""
        text = read_text(self.file_path, self.encoding)
        yield Document(page_content=text, metadata={"source": str(self.file_path)})


class BoeLawLoader(BaseLoader):
    """Loads BOE consolidated laws' XML, one ``Document`` per law, for the LangChain
    classes to chunk as the law stood on a day (or with every wording).

    Each ``Document`` is the BOE's ``/texto`` answer as saved (``page_content``: its
    XML), with ``metadata``: ``source`` (the ``ID.xml`` path; its ``ID.metadatos.xml``
    beside it is read for the law's ELI, status and last update), ``as_of`` (ISO day)
    or ``law_versions="all"``. ``AsesoriaTextSplitter`` and ``AsesoriaDocumentTransformer``
    read a ``….xml`` source so (``reading.law_xml``): sections from the law's blocks,
    each chunk with ``block_id``, ``valid_from``, ``url``... To read the text yourself,
    use ``boe_xml.read_law_file`` and ``law_as_of``.

    Args:
        laws: Laws by path (an ``ID.xml`` file) or by BOE identifier
            ("BOE-A-2003-23514"), downloaded into ``folder`` from the BOE's open-data
            API when not already there (``boe_xml.fetch_law``: needs a network).
        folder: Where identifiers are downloaded (and looked up first): required when
            one is given.
        as_of: The day to read each law as of; ``None``: the day it is chunked.
        versions: ``"as-of"`` (default) or ``"all"``: every wording of every block.
        fetch_options: How to ask the BOE (a mirror, timeouts, retries).

    Raises (when built): ``ConfigurationError`` for an identifier without ``folder``,
    ``as_of`` with ``versions="all"``, or an unknown ``versions``. When loading: the
    errors of ``fetch_law`` (``LawNotFoundError``, ``BoeUnreachableError``...) naming
    the law, and ``DocumentReadError`` for a file that cannot be read.
    """

    def __init__(
        self,
        laws: str | Path | Sequence[str | Path],
        *,
        folder: str | Path | None = None,
        as_of: date | None = None,
        versions: LawVersions = "as-of",
        fetch_options: FetchOptions | None = None,
    ) -> None:
        ReadOptions(as_of=as_of, law_versions=versions)  # checked now, not when loading
        self.laws = [laws] if isinstance(laws, str | Path) else list(laws)
        ids = [law for law in self.laws if _is_law_id(law)]
        if ids and folder is None:
            from langchain_asesoria.errors import ConfigurationError

            raise ConfigurationError(
                f"{ids[0]!r} is a BOE identifier: give folder= to download it into "
                "(a second load reuses what is there).",
                expected="folder=",
            )
        self.folder = folder
        self.as_of = as_of
        self.versions = versions
        self.fetch_options = fetch_options

    def lazy_load(self) -> Iterator[Document]:
        """One ``Document`` per law, in the order given; a law by identifier is
        downloaded first when its files are not in ``folder``."""
        for law in self.laws:
            path = self._path(law)
            metadata: dict[str, Any] = {"source": str(path)}
            if self.versions == "all":
                metadata[LAW_VERSIONS] = "all"
            elif self.as_of is not None:
                metadata[AS_OF] = self.as_of.isoformat()
            yield Document(page_content=read_text(path), metadata=metadata)

    def _path(self, law: str | Path) -> Path:
        if not _is_law_id(law):
            return Path(law)
        assert self.folder is not None  # checked when built
        return fetch_law(str(law), self.folder, options=self.fetch_options).texto


def _is_law_id(law: str | Path) -> bool:
    return isinstance(law, str) and LAW_ID.fullmatch(law) is not None
