"""Figures: drawn without a display (Agg), valid SVG/PNG, and the numbers they show are right."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

from mtscore.errors import MtscoreError
from mtscore.report import figures as F

SYSTEMS = ["sysA", "sysB", "HUMAN-X", "sysC"]
METRIC = [31.0, 27.5, 18.0, 22.25]
HUMAN = [0.20, 0.05, 0.31, -0.12]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _is_svg(data: bytes) -> bool:
    root = ET.fromstring(data)
    return root.tag.endswith("svg")


def _all_figures() -> list[F.Figure]:
    prec = [[70.0, 45.0, 30.0, 20.0], [68.0, 42.0, 27.0, 17.0], [60.0, 33.0, 20.0, 12.0],
            [66.0, 40.0, 25.0, 15.0]]
    order = [SYSTEMS[i] for i in np.argsort(METRIC)[::-1]]
    p = np.full((4, 4), 0.5)
    np.fill_diagonal(p, np.nan)
    s = np.array(METRIC)[[SYSTEMS.index(x) for x in order]]
    return [
        F.system_scores_figure(SYSTEMS, {"BLEU": METRIC, "human (z)": HUMAN},
                               {"BLEU": [m - 1 for m in METRIC]}, {"BLEU": [m + 1 for m in METRIC]},
                               confidence=0.95, highlight=["HUMAN-X"]),
        F.precision_by_order_figure(SYSTEMS, prec, highlight=["HUMAN-X"]),
        F.metric_human_figure(SYSTEMS, METRIC, HUMAN, metric="BLEU", highlight=["HUMAN-X"]),
        F.normalized_comparison_figure(SYSTEMS, {"human (z)": HUMAN, "BLEU": METRIC}),
        F.significance_figure(order, p, s[:, None] - s[None, :], clusters=[order[:2], order[2:]],
                              metric="BLEU"),
    ]


def test_every_figure_renders_as_svg_and_png():
    figures = _all_figures()
    names = [f.name for f in figures]
    assert len(set(names)) == len(names)
    for fig in figures:
        assert fig.title and fig.caption
        assert fig.data("png").startswith(PNG_MAGIC)
        assert _is_svg(fig.data("svg"))


def test_rendering_is_deterministic():
    a = F.metric_human_figure(SYSTEMS, METRIC, HUMAN, metric="BLEU")
    b = F.metric_human_figure(SYSTEMS, METRIC, HUMAN, metric="BLEU")
    assert a.svg == b.svg


def test_figures_render_without_a_display():
    """In a fresh interpreter with no DISPLAY and no backend configured, nothing needs a screen."""
    code = ("from mtscore.report import figures as F\n"
            "f = F.metric_human_figure(['a','b','c'], [1.0, 2.0, 3.5], [0.1, 0.3, 0.2], metric='M')\n"
            "assert f.png.startswith(b'\\x89PNG')\n"
            "import matplotlib; print(matplotlib.get_backend())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tkagg" not in out.stdout.lower()


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    with pytest.raises(MtscoreError, match=r"pip install 'mtscore\[report\]'"):
        F.metric_human_figure(SYSTEMS, METRIC, HUMAN, metric="BLEU")


def test_figure_format_is_checked():
    fig = F.normalized_comparison_figure(SYSTEMS, {"BLEU": METRIC})
    with pytest.raises(MtscoreError, match="figure format"):
        fig.data("pdf")


# ---- the numbers the figures show --------------------------------------------------------------


def test_linear_fit_matches_numpy():
    fit = F.linear_fit(METRIC, HUMAN)
    slope, intercept = np.polyfit(METRIC, HUMAN, 1)
    assert fit.slope == pytest.approx(slope)
    assert fit.intercept == pytest.approx(intercept)
    assert fit.r == pytest.approx(np.corrcoef(METRIC, HUMAN)[0, 1])
    assert fit.n == 4


def test_linear_fit_skips_missing_and_degenerate():
    fit = F.linear_fit([1.0, 2.0, 3.0, 4.0], [1.0, math.nan, 3.0, 5.0])
    assert fit.n == 3
    assert fit.r == pytest.approx(np.corrcoef([1, 3, 4], [1, 3, 5])[0, 1])
    assert math.isnan(F.linear_fit([2.0, 2.0], [1.0, 3.0]).r)
    assert math.isnan(F.linear_fit([1.0], [1.0]).slope)


def test_scatter_shows_r_and_the_fitted_line():
    fig = F.metric_human_figure(SYSTEMS, METRIC, HUMAN, metric="BLEU")
    ax = fig.mpl.axes[0]
    r = np.corrcoef(METRIC, HUMAN)[0, 1]
    texts = [t.get_text() for t in ax.texts]
    assert any(t.startswith(f"r = {r:.3f}") for t in texts)
    assert set(SYSTEMS) <= set(texts)  # every system is labelled
    slope, intercept = np.polyfit(METRIC, HUMAN, 1)
    line = next(ln for ln in ax.lines if len(ln.get_xdata()) == 50)
    xs, ys = line.get_xdata(), line.get_ydata()
    assert xs[0] == min(METRIC) and xs[-1] == max(METRIC)
    np.testing.assert_allclose(ys, slope * xs + intercept)


def test_scatter_leaves_out_systems_without_human_score():
    fig = F.metric_human_figure(SYSTEMS, METRIC, [0.2, math.nan, 0.3, -0.1], metric="BLEU")
    texts = [t.get_text() for t in fig.mpl.axes[0].texts]
    assert "sysB" not in texts and "n = 3 systems" in " ".join(texts)


def test_range_normalize_paper_example():
    # BLEU §5.3: the worst system maps to 0, the best to 1, linearly in between
    np.testing.assert_allclose(F.range_normalize([10.0, 20.0, 15.0, 12.5]), [0.0, 1.0, 0.5, 0.25])
    out = F.range_normalize([1.0, math.nan, 3.0])
    assert out[0] == 0.0 and math.isnan(out[1]) and out[2] == 1.0
    np.testing.assert_array_equal(F.range_normalize([4.0, 4.0]), [0.0, 0.0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=30))
def test_range_normalize_properties(values):
    out = F.range_normalize(values)
    assert np.all((out >= 0) & (out <= 1))
    v = np.asarray(values)
    if np.ptp(v) > 0:
        assert out[np.argmin(v)] == 0.0 and out[np.argmax(v)] == 1.0
        # order is kept
        assert np.all(np.diff(out[np.argsort(v, kind="stable")]) >= -1e-12)


def test_normalized_figure_draws_the_normalized_series():
    fig = F.normalized_comparison_figure(SYSTEMS, {"human (z)": HUMAN, "BLEU": METRIC},
                                         order=["sysC", "sysA", "sysB", "HUMAN-X"])
    ax = fig.mpl.axes[0]
    by_label = {ln.get_label(): ln.get_ydata() for ln in ax.lines}
    idx = [3, 0, 1, 2]
    np.testing.assert_allclose(by_label["BLEU"], F.range_normalize(METRIC)[idx])
    np.testing.assert_allclose(by_label["human (z)"], F.range_normalize(HUMAN)[idx])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["sysC", "sysA", "sysB", "HUMAN-X"]


def test_precision_figure_draws_every_system_and_order():
    prec = np.array([[70.0, 45.0, 30.0], [68.0, 42.0, 27.0]])
    fig = F.precision_by_order_figure(["a", "HUMAN-B"], prec, highlight=["HUMAN-B"])
    lines = {ln.get_label(): ln for ln in fig.mpl.axes[0].lines}
    np.testing.assert_array_equal(lines["a"].get_ydata(), prec[0])
    np.testing.assert_array_equal(lines["HUMAN-B (human)"].get_xdata(), [1, 2, 3])
    assert lines["HUMAN-B (human)"].get_linestyle() == "--"


def test_scores_figure_orders_best_first_with_intervals():
    fig = F.system_scores_figure(SYSTEMS, {"BLEU": METRIC}, {"BLEU": [m - 1 for m in METRIC]},
                                 {"BLEU": [m + 2 for m in METRIC]})
    ax = fig.mpl.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["sysA", "sysB", "sysC", "HUMAN-X"]  # top to bottom, best first
    segs = ax.collections[0].get_segments()
    assert len(segs) == 4
    widths = sorted(round(s[1][0] - s[0][0], 9) for s in segs)
    assert widths == [3.0] * 4


def test_significance_figure_cells():
    names = ["a", "b", "c"]
    scores = np.array([30.0, 29.0, 20.0])
    p = np.array([[np.nan, 0.40, 0.001], [0.40, np.nan, 0.0004], [0.001, 0.0004, np.nan]])
    fig = F.significance_figure(names, p, scores[:, None] - scores[None, :], alpha=0.05,
                                clusters=[["a", "b"], ["c"]], metric="BLEU")
    ax = fig.mpl.axes[0]
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(cells) == 6  # every off-diagonal pair, no diagonal
    assert cells[(0, 1)].get_text() == ".400" and cells[(0, 1)].get_fontweight() == "normal"
    assert cells[(0, 2)].get_text() == ".001" and cells[(0, 2)].get_fontweight() == "bold"
    assert cells[(1, 2)].get_text() == "<.001"
    rgb = ax.images[0].get_array()
    assert rgb[0, 2, 1] > rgb[0, 2, 0]  # a beats c: green
    assert rgb[2, 0, 0] > rgb[2, 0, 1]  # c loses to a: red
    assert rgb[0, 1, 0] == rgb[0, 1, 1] == rgb[0, 1, 2]  # not significant: grey
    assert len(ax.patches) == 2  # one frame per cluster


def test_scatter_labels_do_not_overlap():
    """Close points (as WMT systems with nearly equal scores are) get labels that do not overlap."""
    names = ["Online-Y", "Lan-Bridge", "Online-B", "JDExploreAcademy", "Online-A", "LT22"]
    x = [50.65, 50.49, 50.42, 50.07, 50.27, 40.95]
    y = [0.023, 0.020, -0.097, -0.106, -0.053, -0.162]
    fig = F.metric_human_figure(names, x, y, metric="BLEU")
    fig.mpl.canvas.draw()
    renderer = fig.mpl.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.mpl.axes[0].texts if t.get_text() in names]
    assert len(boxes) == len(names)
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not boxes[i].overlaps(boxes[j]), (names[i], names[j])
