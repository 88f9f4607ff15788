"""What every figure of :mod:`.figures` shares: the :class:`Figure` result (SVG and PNG bytes, and
the variant drawn for a phone), the style, the colours, and the rule for the phone variant.

**The phone variant** (issue 24): a report figure is drawn twice, for a wide screen and for a
phone. A figure ``W`` inches wide shown ``D`` CSS pixels wide draws a ``F`` pt font at
``F · D / (72 · W)`` px: the wide figures (5.6–15 inches) squeezed into a phone's 350 px drew text
at 3–7 px. The phone variant is :data:`PHONE_WIDTH` inches wide, with panels stacked, legends under
the axes and titles wrapped, so its smallest text (:data:`PHONE_MIN_FONT` pt) is at least 9 px at
:data:`PHONE_PIXELS`. The HTML report picks it by a media query (:data:`PHONE_MEDIA`), with no
script.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar, cast

import numpy as np

from ..errors import MissingExtraError, OptionError, one_line

#: what to install when matplotlib is missing
EXTRA_HINT = "pip install 'mtscore[report]'"
#: formats a figure can be saved in
FIGURE_FORMATS = ("svg", "png")
#: resolution of PNG files (sharp on a projector, small enough to embed)
PNG_DPI = 160

#: colours (colour-blind safe, Okabe & Ito) used for series in every figure
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255",
           "#44AA99", "#999933", "#AA4499", "#117733", "#888888")
#: colour of human scores (always the same, so they are recognisable across figures)
HUMAN_COLOUR = "#222222"

_RC = {
    "font.size": 10.5,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.labelsize": 10.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e3e3e3",
    "grid.linewidth": 0.8,
    "legend.frameon": False,
    "svg.fonttype": "path",      # glyphs as paths: the SVG needs no font on the viewing machine
    "svg.hashsalt": "mtscore",   # deterministic ids: the same data gives the same SVG
    "text.parse_math": False,    # names are drawn literally: "$\\frac{x$", "cost $5 or $6"
    "text.usetex": False,
}


def require_matplotlib() -> Any:
    """Import matplotlib (Agg backend) or raise :class:`MissingExtraError` naming the extra."""
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - exercised by simulating the absence
        raise MissingExtraError(
            f"figures and HTML reports need matplotlib, which is not installed: {EXTRA_HINT}") from None
    return matplotlib


@dataclass(frozen=True)
class Figure:
    """A drawn figure: ``name`` is its file stem (``fig2-precision-by-order``).

    The SVG and PNG bytes are rendered on first use (drawing is the slow part of a report) and
    kept; the same data gives the same bytes.
    """

    name: str
    title: str
    caption: str
    mpl: Any = field(repr=False, compare=False)
    #: the same figure drawn for a phone (the module's rule), or None
    narrow: Any = field(default=None, repr=False, compare=False)

    @cached_property
    def svg(self) -> bytes:
        return _save(self.mpl, "svg")

    @cached_property
    def png(self) -> bytes:
        return _save(self.mpl, "png")

    @cached_property
    def narrow_svg(self) -> bytes | None:
        """The phone variant as SVG (None without one)."""
        return None if self.narrow is None else _save(self.narrow, "svg")

    @cached_property
    def narrow_png(self) -> bytes | None:
        """The phone variant as PNG (None without one)."""
        return None if self.narrow is None else _save(self.narrow, "png")

    def data(self, fmt: str, narrow: bool = False) -> bytes:
        """The figure as ``svg`` or ``png`` bytes; ``narrow``: its phone variant (the figure
        itself when it has none)."""
        if fmt not in FIGURE_FORMATS:
            raise OptionError("figure format", fmt, FIGURE_FORMATS)
        phone = (self.narrow_svg if fmt == "svg" else self.narrow_png) if narrow else None
        if phone is not None:
            return phone
        return self.svg if fmt == "svg" else self.png


def _save(fig: Any, fmt: str) -> bytes:
    """A matplotlib figure's bytes: SVG without a date, PNG at :data:`PNG_DPI` (the same data
    gives the same bytes)."""
    out = io.BytesIO()
    with style():
        if fmt == "svg":
            fig.savefig(out, format="svg", metadata={"Date": None})
        else:
            fig.savefig(out, format="png", dpi=PNG_DPI, metadata={"Software": None})
    return out.getvalue()


def new_figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def render(fig: Any, name: str, title: str, caption: str) -> Figure:
    return Figure(name, title, caption, fig)


def style() -> Any:
    matplotlib = require_matplotlib()
    return matplotlib.rc_context(_RC)


def names_drawn(names: Sequence[str]) -> list[str]:
    """Names as drawn: control characters and bytes that were not UTF-8 (surrogate escapes in file
    names the OS gives) shown escaped (``\\n``, ``\\udcff``), as in error messages; the font
    cannot draw a lone surrogate."""
    return [one_line(str(n)) for n in names]


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def finite(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)


# ---- the phone variant ---------------------------------------------------------------------------

#: width of a phone variant (inches): 350 CSS px of a 390 px phone show it at 1.16 px per pt
PHONE_WIDTH = 4.2
#: the content width of a 390 px phone in the report (px), and the smallest font of a phone
#: variant (pt): 8 pt at 350 / (72 · 4.2) px per pt is 9.3 px
PHONE_PIXELS = 350
PHONE_MIN_FONT = 8.0
#: the screens that get the phone variant (the report's stylesheet switches at the same width)
PHONE_MEDIA = "(max-width: 700px)"

D = TypeVar("D", bound=Callable[..., "Figure"])


def with_phone_variant(draw: D) -> D:
    """A figure function that also draws its phone variant: ``draw(..., phone=True)``, kept as
    the result's ``narrow`` (``phone=True`` given: that variant alone)."""
    @functools.wraps(draw)
    def both(*args: Any, **kwargs: Any) -> Figure:
        wide = draw(*args, **kwargs)
        if kwargs.get("phone"):
            return wide
        return dataclasses.replace(wide, narrow=draw(*args, **{**kwargs, "phone": True}).mpl)
    return cast(D, both)


def phone_title(title: str, phone: bool, width: int = 34) -> str:
    """A title as drawn: wrapped to lines of ``width`` characters on a phone."""
    return "\n".join(textwrap.wrap(title, width)) if phone else title
