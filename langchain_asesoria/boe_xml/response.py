"""The BOE's answers parsed safely: no entity expansion, no network, no DTD, bounded trees.

Both answers (``/texto`` and ``/metadatos``) are ``<response>`` documents: a
``<status>`` (``<code>200</code>``) and a ``<data>``. Anything else (another XML, a web
page, the API's own error answer saved in place of a law) is refused with
``NotBoeResponseError``; XML cut short, with ``DamagedXmlError`` at its line and column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from langchain_asesoria.errors import DamagedXmlError, MissingDependencyError, NotBoeResponseError

if TYPE_CHECKING:
    from lxml.etree import _Element

#: The extra that installs lxml, which reads the BOE's XML.
LXML_EXTRA: Final = "reading the BOE's XML needs lxml: pip install 'langchain-asesoria[html]'"

#: The status the BOE gives a law it has.
_OK: Final = "200"


def _parse(data: bytes, source: str | None, law_id: str | None) -> _Element:
    """The root element of ``data``, parsed without expanding entities or reading a DTD.

    Raises:
        MissingDependencyError: lxml is not installed.
        DamagedXmlError: ``data`` is not well-formed XML (cut short...): at its line.
        NotBoeResponseError: ``data`` declares a document type (the BOE's never does).
    """
    try:
        from lxml import etree
    except ImportError as error:  # pragma: no cover - lxml comes with the dev extra
        raise MissingDependencyError(LXML_EXTRA, source=source) from error
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line, column = error.position
        name = source if source is not None else "the XML"
        raise DamagedXmlError(
            f"is not well-formed XML at line {line}, column {column} ({error.msg}): a "
            "download cut short, or not the BOE's XML; download it again.",
            source=f"{name}:{line}",
            position=max(column - 1, 0),
            line=line,
            law_id=law_id,
            expected="the BOE's XML, whole",
        ) from error
    tree = root.getroottree()
    if tree.docinfo.doctype:
        raise NotBoeResponseError(
            "declares a document type (<!DOCTYPE>), which no BOE answer does: it is not "
            "read, so that no entity it declares is ever expanded.",
            source=source,
            law_id=law_id,
            expected="the BOE's <response> XML",
        )
    return root


def parse_response(
    data: bytes, *, kind: str, source: str | None = None, law_id: str | None = None
) -> _Element:
    """The ``<response>`` element of a BOE answer, whatever its status.

    Raises:
        DamagedXmlError: ``data`` is not well-formed XML.
        NotBoeResponseError: its root is not ``<response>``, or it declares a DTD.
    """
    root = _parse(data, source, law_id)
    if root.tag != "response":
        tag = root.tag if isinstance(root.tag, str) else repr(root.tag)
        raise NotBoeResponseError(
            f"is XML whose root is <{tag}>, not the BOE's <response>: give the answer "
            f"of the BOE's open-data API for a law's {kind} (asesoria-fetch saves it).",
            source=source,
            law_id=law_id,
            expected="<response>",
        )
    return root


def response_status(root: _Element) -> tuple[str, str]:
    """The answer's status code ("200" when it gives none) and its text."""
    code = (root.findtext("status/code") or _OK).strip()
    return code, " ".join((root.findtext("status/text") or "").split())


def response_data(
    data: bytes, *, kind: str, source: str | None = None, law_id: str | None = None
) -> _Element:
    """The element ``<data>/<kind>`` of a BOE answer (``kind``: ``"texto"`` or
    ``"metadatos"``; a ``<documento>`` between them is allowed).

    Raises:
        DamagedXmlError: ``data`` is not well-formed XML.
        NotBoeResponseError: not a ``<response>``, a status other than 200 (the message
            gives the BOE's own text), or no ``<kind>`` in its data.
    """
    root = parse_response(data, kind=kind, source=source, law_id=law_id)
    code, said = response_status(root)
    if code != _OK:
        raise NotBoeResponseError(
            f"is the BOE's error answer {code} ({said!r}), saved in place of a law's "
            f"{kind}: check the identifier and download it again.",
            source=source,
            law_id=law_id,
            expected="status 200",
        )
    found = root.find(f"data/{kind}")
    if found is None:
        found = root.find(f"data/documento/{kind}")
    if found is None:
        other = "metadatos" if kind == "texto" else "texto"
        raise NotBoeResponseError(
            f"is a BOE answer with no <{kind}> in its <data> (the {other} answer, or "
            f"another query's?): give the law's /{kind} answer.",
            source=source,
            law_id=law_id,
            expected=f"<data><{kind}>",
        )
    return found
