"""Structure sources: where a document's sections start, and what is not content.

Pure functions over text and pages, one concept per module, no I/O (the reading stage,
``langchain_asesoria.reading``, chooses them by the document's kind):

- ``anchors``: ``SectionStart`` (a section's start as page and offset) and the spans of
  any joined text;
- ``markdown``: ATX headings as CommonMark defines them, fenced code ignored, and HTML
  comment blocks;
- ``front_matter``: a Markdown file's YAML front matter, blanked, never chunked;
- ``headings``: ``Heading`` and ``sections_of``, the one nesting rule;
- ``legal_grammar``: the grammar of Spanish legal form (units, ranks, numerals, the
  enacting formula, the royal title, heading lines, quotation marks), the only patterns;
- ``legal``: the ranks of those units, which re-level any heading list;
- ``html``: a web page's main content as text, its ``<hN>`` headings and tables, and
  what was left out (site navigation, menus, forms...);
- ``leads``: the lists and tables whose continuation chunks carry their lead-in or
  header row (``LeadSpan``), found in the joined text the chunker reads.
"""
