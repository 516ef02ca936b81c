"""Structure sources: where a document's sections start, and what is not content.

More: ``docs/design/structure.md``.
"""
