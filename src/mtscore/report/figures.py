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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import MissingExtraError as MissingExtraError
from ..errors import one_line
from .figure_base import EXTRA_HINT as EXTRA_HINT
from .figure_base import FIGURE_FORMATS as FIGURE_FORMATS
from .figure_base import HUMAN_COLOUR as HUMAN_COLOUR
from .figure_base import PALETTE as PALETTE
from .figure_base import PHONE_MIN_FONT as PHONE_MIN_FONT
from .figure_base import PHONE_WIDTH as PHONE_WIDTH
from .figure_base import PNG_DPI as PNG_DPI
from .figure_base import Figure as Figure
from .figure_base import colour as _colour
from .figure_base import finite as _finite
from .figure_base import names_drawn as _names
from .figure_base import new_figure as _new_figure
from .figure_base import phone_title, with_phone_variant
from .figure_base import render as _render
from .figure_base import require_matplotlib as require_matplotlib
from .figure_base import style as _style

# ---- corpus scores with confidence intervals ---------------------------------------------------


@with_phone_variant
def system_scores_figure(systems: Sequence[str], panels: Mapping[str, Sequence[float]],
                         low: Mapping[str, Sequence[float]] | None = None,
                         high: Mapping[str, Sequence[float]] | None = None, *,
                         order: Sequence[str] | None = None, confidence: float | None = None,
                         highlight: Sequence[str] = (), max_columns: int = 4, name: str = "scores",
                         title: str = "System scores", phone: bool = False) -> Figure:
    """One panel per metric (or human score): each system's score and its confidence interval.

    ``panels[label][i]`` is the score of ``systems[i]``; ``low``/``high`` the interval bounds of
    the same panels (missing panels or NaN bounds draw no interval). Systems are listed top-down
    in ``order`` (default: by the first panel, best first); ``highlight`` systems (human
    references judged as systems) are drawn hollow. Panels wrap after ``max_columns`` (two on a
    phone: ``phone`` draws that variant alone; without it the result carries both).
    """
    labels = list(panels)
    if not labels:
        raise ValueError("no scores to draw")
    order = list(order) if order is not None else \
        [systems[i] for i in np.argsort(-_finite(panels[labels[0]]), kind="stable")]
    pos = {s: i for i, s in enumerate(systems)}
    idx = np.asarray([pos[s] for s in order])
    y = np.arange(len(order))[::-1]
    ncols = min(len(labels), 2 if phone else max_columns)
    nrows = math.ceil(len(labels) / ncols)
    with _style():
        fig = _new_figure(PHONE_WIDTH if phone else min(3.0 * ncols + 1.7, 15.0),
                          (0.28 if phone else 0.3) * len(order) * nrows + 1.1 * nrows + 0.4)
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
            if phone:  # at most three ticks fit a panel of 1.4 inches
                from matplotlib.ticker import MaxNLocator

                ax.xaxis.set_major_locator(MaxNLocator(2))
                ax.tick_params(axis="x", labelsize=9)
            ax.grid(axis="y", visible=False)
            ax.tick_params(axis="y", length=0)
        for row in grid:
            row[0].set_yticks(y, _names(order))
        axes[0].set_yticks(y, _names(order))
        axes[0].set_ylim(-0.7, len(order) - 0.3)
        if confidence is not None:
            fig.supxlabel(phone_title(f"bars: {confidence:.0%} confidence interval (bootstrap over "
                                      "segments)", phone, 50), fontsize=9, color="#555555")
        caption = (f"Corpus scores of every system; the bars are {confidence:.0%} confidence intervals "
                   "from the bootstrap over segments." if confidence is not None else
                   "Corpus scores of every system.")
        if highlight:
            caption += " Hollow markers: human translations scored as systems."
        return _render(fig, name, title, caption)


# ---- BLEU Fig. 2: n-gram precision by order ----------------------------------------------------


@with_phone_variant
def precision_by_order_figure(systems: Sequence[str], precisions: np.ndarray | Sequence[Sequence[float]],
                              *, highlight: Sequence[str] = (), notes: Mapping[str, str] | None = None,
                              name: str = "fig2-precision-by-order",
                              title: str = "Modified n-gram precision by order (BLEU Fig. 2)",
                              phone: bool = False) -> Figure:
    """Corpus modified n-gram precision (%) of each system for n = 1..N (one line per system).

    Papineni et al. (2002), §2.1 and Fig. 2: the precision of every system falls with n, and the
    distance between human and machine translations grows with n. ``precisions[i][n-1]`` is
    system ``systems[i]``'s precision of order n; ``highlight`` systems (human) are dashed;
    ``notes`` adds a remark to a system's legend entry (e.g. the references it is scored against).
    ``phone``: the phone variant alone (legend under the axes).
    """
    p = np.atleast_2d(_finite(precisions))
    if p.shape[0] != len(systems):
        raise ValueError(f"{len(systems)} systems but {p.shape[0]} rows of precisions")
    orders = np.arange(1, p.shape[1] + 1)
    ranking = np.argsort(-p.mean(axis=1), kind="stable")
    with _style():
        fig = _new_figure(PHONE_WIDTH, 4.0 + 0.2 * len(systems)) if phone else _new_figure(8.2, 4.6)
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
        ax.set_title(phone_title(title, phone))
        _legend(fig, ax, phone, fontsize=9)
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


@with_phone_variant
def metric_human_figure(systems: Sequence[str], metric_scores: Sequence[float],
                        human_scores: Sequence[float], *, metric: str, human: str = "human (z)",
                        highlight: Sequence[str] = (), colour_index: int = 0,
                        name: str | None = None, title: str | None = None,
                        phone: bool = False) -> Figure:
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
        fig = _new_figure(PHONE_WIDTH, 4.1) if phone else _new_figure(5.6, 4.3)
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
        _label_points(ax, x[keep], y[keep], _names([systems[int(i)] for i in np.flatnonzero(keep)]),
                      fontsize=PHONE_MIN_FONT + 0.5 if phone else 8.0)
        r_text = f"r = {fit.r:.3f}" if math.isfinite(fit.r) else "r undefined"
        above = {"xy": (0.0, 1.0), "xycoords": "axes fraction", "textcoords": "offset points",
                 "va": "bottom"}  # lines above the axes, in points: apart at any axes height
        ax.annotate(f"{r_text}   (n = {fit.n} systems)", xytext=(0, 14), fontsize=10.5,
                    fontweight="bold", **above)
        machine = keep & ~hollow
        if (keep & hollow).any() and machine.sum() >= 3:
            without = linear_fit(x[machine], y[machine])
            w_text = f"r = {without.r:.3f}" if math.isfinite(without.r) else "r undefined"
            ax.annotate(f"without human translations: {w_text} (n = {without.n})",
                        xytext=(0, 2), fontsize=8.5, color="#444444", **above)
        ax.set_title(phone_title(one_line(title), phone), pad=30)
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


def _legend(fig: Any, ax: Any, phone: bool, fontsize: float | None = None) -> None:
    """The legend right of the axes, or on a phone under them (two columns when the entries are
    short)."""
    if not phone:
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=fontsize)
        return
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", fontsize=PHONE_MIN_FONT + 1,
               ncol=2 if max(map(len, labels), default=0) <= 22 else 1)


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


@with_phone_variant
def normalized_comparison_figure(systems: Sequence[str], series: Mapping[str, Sequence[float]], *,
                                 order: Sequence[str] | None = None,
                                 name: str = "fig7-normalized-comparison",
                                 title: str = "Metrics and human scores, normalized (BLEU Fig. 7)",
                                 phone: bool = False) -> Figure:
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
        fig = _new_figure(PHONE_WIDTH, 5.2 + 0.12 * len(series)) if phone else \
            _new_figure(max(7.5, 0.62 * len(order) + 3.2), 4.5)
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
        ax.set_xticks(xs, _names(order), rotation=60 if phone else 35, ha="right")
        ax.set_ylabel("normalized score\n(0 = worst, 1 = best system)" if phone else
                      "normalized score (0 = worst, 1 = best system)")
        ax.set_ylim(-0.06, 1.06)
        ax.set_title(phone_title(title, phone))
        _legend(fig, ax, phone)
        caption = ("Each series linearly normalized by its range over the systems, (x − min)/(max − min), "
                   "as in BLEU §5.3; systems ordered by the first human score.")
        return _render(fig, name, title, caption)


# ---- BLEU §4.1: scores on blocks -----------------------------------------------------------------


@with_phone_variant
def block_scores_figure(systems: Sequence[str], block_scores: np.ndarray | Sequence[Sequence[float]], *,
                        metric: str = "BLEU", block_size: int = 25, highlight: Sequence[str] = (),
                        name: str = "blocks", title: str | None = None,
                        phone: bool = False) -> Figure:
    """Each system's scores on the blocks of the test set: one dot per block, the mean as a bar,
    ±1 sample standard deviation as a line (Papineni et al. 2002, §4.1, Table 1). Systems are
    listed in the given order, top-down."""
    b = np.atleast_2d(_finite(block_scores))
    if b.shape[0] != len(systems):
        raise ValueError(f"{len(systems)} systems but {b.shape[0]} rows of block scores")
    title = title or f"{metric} on {b.shape[1]} blocks of {block_size} segments (BLEU Table 1)"
    y = np.arange(len(systems))[::-1]
    with _style():
        fig = _new_figure(PHONE_WIDTH if phone else 8.2, 0.36 * len(systems) + 1.5)
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
        if phone:  # over the whole figure: the names take half of its width
            fig.suptitle(phone_title(title, phone), fontsize=12, fontweight="bold")
        else:
            ax.set_title(title)
        caption = (f"Dots: {metric} of each block of {block_size} segments; tick: mean over blocks; "
                   "line: ± one sample standard deviation. Overlapping spreads are why the paired "
                   "t-test below is needed.")
        return _render(fig, name, title, caption)


# ---- pairwise significance matrix --------------------------------------------------------------


@with_phone_variant
def significance_figure(systems: Sequence[str], pvalues: np.ndarray | Sequence[Sequence[float]],
                        deltas: np.ndarray | Sequence[Sequence[float]], *, alpha: float = 0.05,
                        clusters: Sequence[Sequence[str]] = (), metric: str = "",
                        test: str = "", name: str | None = None, title: str | None = None,
                        phone: bool = False) -> Figure:
    """The significance matrix of all system pairs: cell (i, j) says whether row system i scores
    significantly higher (green) or lower (red) than column system j at level ``alpha``, with the
    p-value written in the cell; grey cells are not significant.

    ``systems`` are drawn in the given order (best first); ``pvalues[i][j]`` and ``deltas[i][j]``
    (score of i minus score of j) are indexed in that order. ``clusters`` (consecutive runs of ``systems``,
    cut where every system above is significantly better than every system below) are outlined.
    ``phone``: the phone variant alone (columns numbered by rank, p-values to two decimals).
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
        fig = _new_figure(PHONE_WIDTH, PHONE_WIDTH + 0.8 + 0.19 * math.ceil(n / 2)) if phone else \
            _new_figure(size + 0.8, size)
        ax = fig.subplots()
        ax.imshow(colours, interpolation="nearest")
        ax.grid(False)
        fs = _cell_font(n) if phone else 9.5 if n <= 10 else 8.5 if n <= 14 else 7
        for i in range(n):
            for j in range(n):
                if i == j or not np.isfinite(P[i, j]) or fs is None:
                    continue
                ax.text(j, i, _p_cell(P[i, j], phone), ha="center", va="center", fontsize=fs,
                        fontweight="bold" if sig[i, j] else "normal", color="#222222")
        if phone:  # rows and columns by rank number, the names in a key under the matrix
            ax.set_xticks(range(n), [str(k + 1) for k in range(n)])
            ax.set_yticks(range(n), [str(k + 1) for k in range(n)])
            _rank_key(fig, _names(systems))
        else:
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
        ax.set_title(phone_title(title, phone))
        note = f"row vs column, α = {alpha:g}{'; ' + test if test else ''}"
        ax.set_xlabel(phone_title(note, phone, 48), fontsize=9, color="#555555")
        caption = (f"Green: the row system scores significantly higher than the column system "
                   f"(p < {alpha:g}); red: significantly lower; grey: not significant. Numbers are "
                   "p-values. Framed squares: clusters - the systems in rank order, cut where "
                   "every system above is significantly better than every system below; a "
                   "coloured cell inside a frame is a significant pair within a cluster.")
        return _render(fig, name, title, caption)


def _p_cell(p: float, phone: bool) -> str:
    """A p-value in a cell: three decimals (``<.001``), two on a phone (``<.01``)."""
    if phone:
        return "<.01" if p < 0.01 else "1" if p >= 0.995 else f"{p:.2f}".lstrip("0")
    return "<.001" if p < 0.001 else f"{p:.3f}".lstrip("0")


def _cell_font(n: int) -> float | None:
    """The font (pt) of the p-values in the phone variant's cells: as large as four characters
    (``<.01``) fit a cell with room to spare, at most 9.5; None (no numbers, the colours only)
    when that is under :data:`PHONE_MIN_FONT` (the report's table lists every p-value)."""
    cell = (PHONE_WIDTH * 72 - 30) / max(n, 1)  # 30 pt: the rank numbers and the margins
    size = min(9.5, cell / (4 * 0.72))
    return size if size >= PHONE_MIN_FONT else None


def _rank_key(fig: Any, names: Sequence[str]) -> None:
    """The key of the phone matrix's rank numbers, ``1 Online-Y``, in two columns under it."""
    from matplotlib.patches import Rectangle

    blank = [Rectangle((0, 0), 0, 0, visible=False) for _ in names]
    fig.legend(blank, [f"{k + 1}  {name}" for k, name in enumerate(names)], loc="outside lower center",
               ncol=2, fontsize=PHONE_MIN_FONT + 1, handlelength=0, handletextpad=0, columnspacing=1.5)


def _slug(text: str) -> str:
    """A file-name stem: letters and digits, ``+`` as ``plus`` (chrF and chrF++ differ), else ``-``."""
    out = "".join(ch.lower() if ch.isascii() and ch.isalnum() else "-plus-" if ch == "+" else "-"
                  for ch in text)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")
