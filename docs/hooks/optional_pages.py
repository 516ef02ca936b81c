"""MkDocs hook: the nav names pages that other branches add, and drops them until then.

``mkdocs build --strict`` fails on a nav entry whose page does not exist. The guides in
``OPTIONAL`` are written on their own branches; the nav places them where they belong,
and this hook leaves out those not present yet (saying so), so the site builds before
and after they arrive. Any other missing page still fails the build.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

#: Pages the nav names before they exist (relative to ``docs/``).
OPTIONAL = frozenset({"guides/conventions.md", "guides/pdfs-with-any-loader.md"})

log = logging.getLogger("mkdocs.hooks.optional_pages")


def _present(entries: list[Any], docs: Path) -> list[Any]:
    kept: list[Any] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(value, list):
            title = next(iter(entry))
            kept.append({title: _present(value, docs)})
        elif isinstance(value, str) and value in OPTIONAL and not (docs / value).is_file():
            log.info("%s is not written yet: left out of the nav", value)
        else:
            kept.append(entry)
    return kept


def on_config(config: Any) -> Any:
    """Drops the ``OPTIONAL`` pages that are missing from the nav."""
    config["nav"] = _present(config["nav"], Path(config["docs_dir"]))
    return config
