"""The table formats and layouts and the rule for decimals, without the renderer: what a command
offers and checks at start-up (``mtscore score -b`` never renders a table, so it does not import
:mod:`mtscore.report.tables`, which re-exports these names)."""

from __future__ import annotations

import numpy as np

from ..errors import OptionError

FORMATS = ("text", "json", "tsv", "markdown", "latex")
#: the most decimals shown (a float64 has at most 17 significant digits)
MAX_DECIMALS = 17

#: table layouts: ``long`` as built, ``wide`` systems × metrics (see :func:`.tables.wide_table`)
LAYOUTS = ("long", "wide")


def check_layout(layout: str) -> None:
    if layout not in LAYOUTS:
        raise OptionError("layout", layout, LAYOUTS)


def check_decimals(width: int, option: str = "width") -> None:
    """Decimals shown: an integer from 0 to :data:`MAX_DECIMALS`."""
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or \
            not 0 <= width <= MAX_DECIMALS:
        raise OptionError(option, width, detail=f"decimals must be an integer from 0 to {MAX_DECIMALS}")
