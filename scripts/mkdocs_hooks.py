"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

mtscore's docstrings name other objects with Sphinx roles (:func:`name`, :mod:`name`, …), which the
API reference renders from Markdown: the role's prefix would show as text before the code. This hook
drops the prefix and keeps the name as code; nothing else of the page changes.
"""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):(?=<code>)")


def on_page_content(html: str, **_: Any) -> str:
    return _ROLE.sub("", html)
