"""The papers' figures, drawn with matplotlib (the optional extra ``[report]``) on plain arrays.

Every function takes numbers (names, scores, matrices), never a study object, and returns a
:class:`Figure`: the rendered SVG and PNG bytes plus a title and caption. matplotlib is used through
its object API on the Agg canvas, so no display and no global pyplot state are involved.

* :func:`system_scores_figure` — corpus scores with bootstrap confidence intervals;
* :func:`precision_by_order_figure` — modified n-gram precision by order (BLEU, Papineni et al. 2002,
  §2.1, Fig. 2);
* :func:`metric_human_figure` — a metric against human scores, with the least-squares line and
  Pearson's r (BLEU §5.3, Figs. 5–6);
* :func:`normalized_comparison_figure` — metric and human scores linearly normalized by their range
  over the systems (BLEU §5.3, Fig. 7);
* :func:`block_scores_figure` — scores on blocks of the test set (BLEU §4.1, Table 1);
* :func:`significance_figure` — the pairwise significance matrix, systems ordered by score, with the
  clusters (rank order cut where every system above is significantly better than every system
  below).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

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

    @cached_property
    def svg(self) -> bytes:
        out = io.BytesIO()
        with _style():
            self.mpl.savefig(out, format="svg", metadata={"Date": None})
        return out.getvalue()

    @cached_property
    def png(self) -> bytes:
        out = io.BytesIO()
        with _style():
            self.mpl.savefig(out, format="png", dpi=PNG_DPI, metadata={"Software": None})
        return out.getvalue()

    def data(self, fmt: str) -> bytes:
        """The figure as ``svg`` or ``png`` bytes."""
        if fmt not in FIGURE_FORMATS:
            raise OptionError("figure format", fmt, FIGURE_FORMATS)
        return self.svg if fmt == "svg" else self.png


def _new_figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _render(fig: Any, name: str, title: str, caption: str) -> Figure:
    return Figure(name, title, caption, fig)


def _style() -> Any:
    matplotlib = require_matplotlib()
    return matplotlib.rc_context(_RC)


def _names(names: Sequence[str]) -> list[str]:
    """Names as drawn: control characters and bytes that were not UTF-8 (surrogate escapes in file
    names the OS gives) shown escaped (``\\n``, ``\\udcff``), as in error messages; the font
    cannot draw a lone surrogate."""
    return [one_line(str(n)) for n in names]


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _finite(values: Any) -> np.ndarray:
    return np.asarray(values, dtype=np.float64)


# ---- corpus scores with confidence intervals ---------------------------------------------------


def system_scores_figure(systems: Sequence[str], panels: Mapping[str, Sequence[float]],
                         low: Mapping[str, Sequence[float]] | None = None,
                         high: Mapping[str, Sequence[float]] | None = None, *,
                         order: Sequence[str] | None = None, confidence: float | None = None,
                         highlight: Sequence[str] = (), max_columns: int = 4, name: str = "scores",
                         title: str = "System scores") -> Figure:
    """One panel per metric (or human score): each system's score and its confidence interval.

    ``panels[label][i]`` is the score of ``systems[i]``; ``low``/``high`` the interval bounds of
    the same panels (missing panels or NaN bounds draw no interval). Systems are listed top-down
    in ``order`` (default: by the first panel, best first); ``highlight`` systems (human
    references judged as systems) are drawn hollow. Panels wrap after ``max_columns``.
    """
    labels = list(panels)
    if not labels:
        raise ValueError("no scores to draw")
    order = list(order) if order is not None else \
        [systems[i] for i in np.argsort(-_finite(panels[labels[0]]), kind="stable")]
    pos = {s: i for i, s in enumerate(systems)}
    idx = np.asarray([pos[s] for s in order])
    y = np.arange(len(order))[::-1]
    ncols = min(len(labels), max_columns)
    nrows = math.ceil(len(labels) / ncols)
    with _style():
        fig = _new_figure(min(3.0 * ncols + 1.7, 15.0), (0.3 * len(order) + 1.1) * nrows + 0.4)
        grid = fig.subplots(nrows, ncols, sharey=True, squeeze=False)
        axes = grid.ravel()
        for ax in axes[len(labels):]:
            ax.set_visible(False)
        for k, (label, ax) in enumerate(zip(labels, axes)):
            x = _finite(panels[label])[idx]
            colour = HUMAN_COLOUR if label.lower().startswith("human") else _colour(k)
            lo = _finite(low[label])[idx] if low and label in low else np.full_like(x, np.nan)
            hi = _finite(high[label])[idx] if high and label in high else np.full_like(x, np.nan)
            has = ~np.isnan(lo) & ~np.isnan(hi)
            if has.any():
                ax.hlines(y[has], lo[has], hi[has], color=colour, linewidth=2.2, alpha=0.45)
            hollow = np.asarray([s in highlight for s in order])
            ax.plot(x[~hollow], y[~hollow], "o", color=colour, markersize=6.5)
            if hollow.any():
                ax.plot(x[hollow], y[hollow], "o", markerfacecolor="white", color=colour,
                        markersize=6.5, markeredgewidth=1.6)
            ax.set_title(one_line(label))
            ax.grid(axis="y", visible=False)
            ax.tick_params(axis="y", length=0)
        for row in grid:
            row[0].set_yticks(y, _names(order))
        axes[0].set_yticks(y, _names(order))
        axes[0].set_ylim(-0.7, len(order) - 0.3)
        if confidence is not None:
            fig.supxlabel(f"bars: {confidence:.0%} confidence interval (bootstrap over segments)",
                          fontsize=9, color="#555555")
        caption = (f"Corpus scores of every system; the bars are {confidence:.0%} confidence intervals "
                   "from the bootstrap over segments." if confidence is not None else
                   "Corpus scores of every system.")
        if highlight:
            caption += " Hollow markers: human translations scored as systems."
        return _render(fig, name, title, caption)


# ---- BLEU Fig. 2: n-gram precision by order ----------------------------------------------------


def precision_by_order_figure(systems: Sequence[str], precisions: np.ndarray | Sequence[Sequence[float]],
                              *, highlight: Sequence[str] = (), notes: Mapping[str, str] | None = None,
                              name: str = "fig2-precision-by-order",
                              title: str = "Modified n-gram precision by order (BLEU Fig. 2)") -> Figure:
    """Corpus modified n-gram precision (%) of each system for n = 1..N (one line per system).

    Papineni et al. (2002), §2.1 and Fig. 2: the precision of every system falls with n, and the
    distance between human and machine translations grows with n. ``precisions[i][n-1]`` is
    system ``systems[i]``'s precision of order n; ``highlight`` systems (human) are dashed;
    ``notes`` adds a remark to a system's legend entry (e.g. the references it is scored against).
    """
    p = np.atleast_2d(_finite(precisions))
    if p.shape[0] != len(systems):
        raise ValueError(f"{len(systems)} systems but {p.shape[0]} rows of precisions")
    orders = np.arange(1, p.shape[1] + 1)
    ranking = np.argsort(-p.mean(axis=1), kind="stable")
    with _style():
        fig = _new_figure(8.2, 4.6)
        ax = fig.subplots()
        for rank, i in enumerate(ranking):
            human = systems[i] in highlight
            ax.plot(orders, p[i], "--" if human else "-", marker="o", markersize=4.5,
                    linewidth=2.2 if human else 1.6, color=HUMAN_COLOUR if human else _colour(rank),
                    label=one_line(systems[i]) + (f" ({notes[systems[i]]})" if notes and systems[i] in notes
                                        else " (human)" if human else ""))
        ax.set_xticks(orders, [f"{n}-gram" for n in orders])
        ax.set_xlabel("n-gram order")
        ax.set_ylabel("modified n-gram precision (%)")
        ax.set_title(title)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9)
        caption = ("Corpus-level modified n-gram precision (clipped n-gram matches / hypothesis n-grams, "
                   "BLEU §2.1) for each order; legend ordered by mean precision.")
        return _render(fig, name, title, caption)


# ---- BLEU Figs. 5-6: metric vs human, with regression ------------------------------------------


@dataclass(frozen=True)
class LinearFit:
    """Least-squares line ``y = slope·x + intercept`` and Pearson's r of the points it was fit to."""

    slope: float
    intercept: float
    r: float
    n: int


def linear_fit(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> LinearFit:
    """Least-squares regression of y on x over the finite pairs (scipy.stats.linregress)."""
    from scipy import stats

    xa, ya = _finite(x), _finite(y)
    keep = np.isfinite(xa) & np.isfinite(ya)
    xa, ya = xa[keep], ya[keep]
    if len(xa) < 2 or np.ptp(xa) == 0:
        return LinearFit(math.nan, math.nan, math.nan, len(xa))
    res = stats.linregress(xa, ya)
    r = float(res.rvalue) if np.ptp(ya) > 0 else math.nan
    return LinearFit(float(res.slope), float(res.intercept), r, len(xa))


def metric_human_figure(systems: Sequence[str], metric_scores: Sequence[float],
                        human_scores: Sequence[float], *, metric: str, human: str = "human (z)",
                        highlight: Sequence[str] = (), colour_index: int = 0,
                        name: str | None = None, title: str | None = None) -> Figure:
    """Scatter of human scores (y) against a metric (x), one labelled point per system, with the
    least-squares line and Pearson's r (Papineni et al. 2002, §5.3, Figs. 5–6).

    Systems without a human score (NaN) are left out. The line is fitted to the points drawn;
    when ``highlight`` (human translations) are among them, r without them is written too.
    """
    x, y = _finite(metric_scores), _finite(human_scores)
    keep = np.isfinite(x) & np.isfinite(y)
    fit = linear_fit(x, y)
    name = name or f"fig5-6-{_slug(metric)}-vs-human"
    title = title or f"{metric} predicts human judgments?"
    colour = _colour(colour_index)
    with _style():
        fig = _new_figure(5.6, 4.3)
        ax = fig.subplots()
        hollow = np.asarray([s in highlight for s in systems])
        solid = keep & ~hollow
        ax.plot(x[solid], y[solid], "o", color=colour, markersize=7)
        if (keep & hollow).any():
            ax.plot(x[keep & hollow], y[keep & hollow], "o", color=colour, markerfacecolor="white",
                    markersize=7, markeredgewidth=1.6)
        if math.isfinite(fit.slope):
            xs = np.linspace(x[keep].min(), x[keep].max(), 50)
            ax.plot(xs, fit.slope * xs + fit.intercept, "-", color="#555555", linewidth=1.2,
                    zorder=0)
        ax.set_xlabel(one_line(metric))
        ax.set_ylabel(human)
        _label_points(ax, x[keep], y[keep], _names([systems[int(i)] for i in np.flatnonzero(keep)]))
        r_text = f"r = {fit.r:.3f}" if math.isfinite(fit.r) else "r undefined"
        ax.text(0.0, 1.045, f"{r_text}   (n = {fit.n} systems)", transform=ax.transAxes,
                va="bottom", fontsize=10.5, fontweight="bold")
        machine = keep & ~hollow
        if (keep & hollow).any() and machine.sum() >= 3:
            without = linear_fit(x[machine], y[machine])
            w_text = f"r = {without.r:.3f}" if math.isfinite(without.r) else "r undefined"
            ax.text(0.0, 1.01, f"without human translations: {w_text} (n = {without.n})",
                    transform=ax.transAxes, va="bottom", fontsize=8.5, color="#444444")
        ax.set_title(one_line(title), pad=30)
        caption = (f"Each point is a system: its corpus {metric} (x) and its mean human score (y). "
                   f"Line: least-squares fit; r: Pearson correlation over {fit.n} systems.")
        return _render(fig, name, title, caption)


def _label_points(ax: Any, x: np.ndarray, y: np.ndarray, labels: Sequence[str],
                  fontsize: float = 8.0) -> None:
    """Label each point to its upper right, moving a label up or down (with a thin leader line)
    when it would overlap one already placed: greedy, top to bottom, in screen coordinates."""
    if len(labels) == 0:
        return
    ax.relim()
    ax.autoscale_view()
    fig = ax.figure
    px = ax.transData.transform(np.column_stack([x, y]))
    scale = fig.dpi / 72.0  # pixels per point
    height = fontsize * 1.4 * scale
    placed: list[tuple[float, float, float, float]] = []
    for i in np.argsort(-px[:, 1], kind="stable"):
        width = 0.7 * fontsize * len(labels[i]) * scale
        x0 = px[i, 0] + 4 * scale
        base = px[i, 1] + 2 * scale
        shift = 0.0
        for step in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5):
            y0 = base + step * height
            if all(x0 + width <= a or x0 >= c or y0 + height <= b or y0 >= d for a, b, c, d in placed):
                shift = step * height
                break
        else:
            shift = 0.0
        placed.append((x0, base + shift, x0 + width, base + shift + height))
        offset = (4.0, 2.0 + shift / scale)
        arrow = {"arrowstyle": "-", "color": "#999999", "linewidth": 0.6, "shrinkA": 0, "shrinkB": 3} \
            if abs(shift) > height * 0.5 else None
        ax.annotate(labels[i], (x[i], y[i]), xytext=offset, textcoords="offset points",
                    fontsize=fontsize, color="#333333", va="bottom", arrowprops=arrow)


# ---- BLEU Fig. 7: normalized comparison --------------------------------------------------------


def range_normalize(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Linear normalization by the range over the systems: (x − min) / (max − min)
    (Papineni et al. 2002, §5.3, Fig. 7). NaN stays NaN; a constant series maps to 0."""
    v = _finite(values)
    finite = np.isfinite(v)
    if not finite.any():
        return v.copy()
    lo, hi = v[finite].min(), v[finite].max()
    if hi == lo:
        return np.where(finite, 0.0, np.nan)
    return (v - lo) / (hi - lo)


def normalized_comparison_figure(systems: Sequence[str], series: Mapping[str, Sequence[float]], *,
                                 order: Sequence[str] | None = None,
                                 name: str = "fig7-normalized-comparison",
                                 title: str = "Metrics and human scores, normalized (BLEU Fig. 7)") -> Figure:
    """Every series range-normalized (:func:`range_normalize`) and drawn over the same systems.

    Series whose label starts with "human" are drawn in black with thick lines. Systems are on
    the x axis in ``order`` (default: the order given), so a metric that agrees with the humans
    follows their line.
    """
    order = list(order) if order is not None else list(systems)
    pos = {s: i for i, s in enumerate(systems)}
    idx = np.asarray([pos[s] for s in order])
    xs = np.arange(len(order))
    with _style():
        fig = _new_figure(max(7.5, 0.62 * len(order) + 3.2), 4.5)
        ax = fig.subplots()
        k = 0
        dashes = ("-", "--", ":", "-.")
        h = 0
        for label, values in series.items():
            norm = range_normalize(values)[idx]
            if label.lower().startswith("human"):
                ax.plot(xs, norm, dashes[h % 4], marker="s", color=HUMAN_COLOUR, linewidth=2.6,
                        markersize=6, label=one_line(label), zorder=3)
                h += 1
            else:
                ax.plot(xs, norm, "-", marker="o", color=_colour(k), linewidth=1.7, markersize=5,
                        label=one_line(label))
                k += 1
        ax.set_xticks(xs, _names(order), rotation=35, ha="right")
        ax.set_ylabel("normalized score (0 = worst, 1 = best system)")
        ax.set_ylim(-0.06, 1.06)
        ax.set_title(title)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
        caption = ("Each series linearly normalized by its range over the systems, (x − min)/(max − min), "
                   "as in BLEU §5.3; systems ordered by the first human score.")
        return _render(fig, name, title, caption)


# ---- BLEU §4.1: scores on blocks -----------------------------------------------------------------


def block_scores_figure(systems: Sequence[str], block_scores: np.ndarray | Sequence[Sequence[float]], *,
                        metric: str = "BLEU", block_size: int = 25, highlight: Sequence[str] = (),
                        name: str = "blocks", title: str | None = None) -> Figure:
    """Each system's scores on the blocks of the test set: one dot per block, the mean as a bar,
    ±1 sample standard deviation as a line (Papineni et al. 2002, §4.1, Table 1). Systems are
    listed in the given order, top-down."""
    b = np.atleast_2d(_finite(block_scores))
    if b.shape[0] != len(systems):
        raise ValueError(f"{len(systems)} systems but {b.shape[0]} rows of block scores")
    title = title or f"{metric} on {b.shape[1]} blocks of {block_size} segments (BLEU Table 1)"
    y = np.arange(len(systems))[::-1]
    with _style():
        fig = _new_figure(8.2, 0.36 * len(systems) + 1.5)
        ax = fig.subplots()
        jitter = np.linspace(-0.18, 0.18, b.shape[1]) if b.shape[1] > 1 else np.zeros(1)
        for i, s in enumerate(systems):
            colour = HUMAN_COLOUR if s in highlight else _colour(0)
            ax.plot(b[i], y[i] + jitter, "o", color=colour, alpha=0.35, markersize=4)
            mean, sd = float(np.mean(b[i])), float(np.std(b[i], ddof=1)) if b.shape[1] > 1 else 0.0
            ax.hlines(y[i], mean - sd, mean + sd, color=colour, linewidth=2.0)
            ax.vlines(mean, y[i] - 0.3, y[i] + 0.3, color=colour, linewidth=2.6)
        ax.set_yticks(y, _names(systems))
        ax.grid(axis="y", visible=False)
        ax.tick_params(axis="y", length=0)
        ax.set_xlabel(f"{metric} of a block")
        ax.set_title(title)
        caption = (f"Dots: {metric} of each block of {block_size} segments; tick: mean over blocks; "
                   "line: ± one sample standard deviation. Overlapping spreads are why the paired "
                   "t-test below is needed.")
        return _render(fig, name, title, caption)


# ---- pairwise significance matrix --------------------------------------------------------------


def significance_figure(systems: Sequence[str], pvalues: np.ndarray | Sequence[Sequence[float]],
                        deltas: np.ndarray | Sequence[Sequence[float]], *, alpha: float = 0.05,
                        clusters: Sequence[Sequence[str]] = (), metric: str = "",
                        test: str = "", name: str | None = None, title: str | None = None) -> Figure:
    """The significance matrix of all system pairs: cell (i, j) says whether row system i scores
    significantly higher (green) or lower (red) than column system j at level ``alpha``, with the
    p-value written in the cell; grey cells are not significant.

    ``systems`` are drawn in the given order (best first); ``pvalues[i][j]`` and ``deltas[i][j]``
    (score of i minus score of j) are indexed in that order. ``clusters`` (consecutive runs of ``systems``,
    cut where every system above is significantly better than every system below) are outlined.
    """
    P, D = _finite(pvalues), _finite(deltas)
    n = len(systems)
    if P.shape != (n, n) or D.shape != (n, n):
        raise ValueError(f"p-values and deltas must be {n}×{n} matrices")
    name = name or f"significance-{_slug(metric) or 'matrix'}"
    title = title or f"Pairwise significance{' — ' + metric if metric else ''}"
    colours = np.full((n, n, 3), 0.93)
    win, lose = np.array([0.55, 0.80, 0.55]), np.array([0.95, 0.62, 0.58])
    sig = np.isfinite(P) & (alpha > P)
    colours[sig & (D > 0)] = win
    colours[sig & (D < 0)] = lose
    diag = np.eye(n, dtype=bool)
    colours[diag] = 1.0
    with _style():
        size = 0.66 * n + 2.4
        fig = _new_figure(size + 0.8, size)
        ax = fig.subplots()
        ax.imshow(colours, interpolation="nearest")
        ax.grid(False)
        fs = 9.5 if n <= 10 else 8.5 if n <= 14 else 7
        for i in range(n):
            for j in range(n):
                if i == j or not np.isfinite(P[i, j]):
                    continue
                text = "<.001" if P[i, j] < 0.001 else f"{P[i, j]:.3f}".lstrip("0")
                ax.text(j, i, text, ha="center", va="center", fontsize=fs,
                        fontweight="bold" if sig[i, j] else "normal", color="#222222")
        ax.set_xticks(range(n), _names(systems), rotation=45, ha="right")
        ax.set_yticks(range(n), _names(systems))
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        start = {s: i for i, s in enumerate(systems)}
        for c, cluster in enumerate(clusters):
            members = sorted(start[s] for s in cluster if s in start)
            if not members:
                continue
            lo, hi = members[0], members[-1]
            from matplotlib.patches import Rectangle

            ax.add_patch(Rectangle((lo - 0.5, lo - 0.5), hi - lo + 1, hi - lo + 1, fill=False,
                                   edgecolor=_colour(c), linewidth=2.4))
        ax.set_title(title)
        note = f"row vs column, α = {alpha:g}{'; ' + test if test else ''}"
        ax.set_xlabel(note, fontsize=9, color="#555555")
        caption = (f"Green: the row system scores significantly higher than the column system "
                   f"(p < {alpha:g}); red: significantly lower; grey: not significant. Numbers are "
                   "p-values. Framed squares: clusters - the systems in rank order, cut where "
                   "every system above is significantly better than every system below; a "
                   "coloured cell inside a frame is a significant pair within a cluster.")
        return _render(fig, name, title, caption)


def _slug(text: str) -> str:
    """A file-name stem: letters and digits, ``+`` as ``plus`` (chrF and chrF++ differ), else ``-``."""
    out = "".join(ch.lower() if ch.isascii() and ch.isalnum() else "-plus-" if ch == "+" else "-"
                  for ch in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")
