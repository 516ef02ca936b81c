"""``python -m langchain_asesoria``: the same as ``asesoria-split``."""

from langchain_asesoria.cli.main import main

raise SystemExit(main())
