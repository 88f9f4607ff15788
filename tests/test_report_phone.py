"""Figures readable on a phone (issue 24): every report figure carries a variant drawn for a 390 px
screen, whose every text is at least 9 px there and lies inside the figure (nothing cut off), and
the HTML report shows it to phones by a media query. (The screenshots in ``docs/`` show the same at
390 and 1,400 px: ``scripts/screenshots.py``.)"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from mtscore.report import figures as F
from mtscore.report.figure_base import PHONE_MEDIA, PHONE_MIN_FONT, PHONE_PIXELS, PHONE_WIDTH
from mtscore.report.html import figure_html

#: WMT22 de-en's systems: long names, close scores (the report's hardest case)
SYSTEMS = ["Online-Y", "Lan-Bridge", "Online-B", "Online-A", "JDExploreAcademy", "Online-G",
           "Online-W", "PROMT", "LT22", "HUMAN-B"]
HUMAN = [0.023, 0.020, -0.097, -0.053, -0.106, -0.036, -0.071, -0.193, -0.162, -0.076]
BLEU = [50.65, 50.49, 50.42, 50.27, 50.07, 49.28, 48.90, 48.69, 40.95, 29.39]


def _figures() -> list[F.Figure]:
    rng = np.random.default_rng(3)
    n = len(SYSTEMS)
    panels = {"human (z)": HUMAN, **{m: list(np.asarray(BLEU) + k) for k, m in
                                     enumerate(["BLEU", "chrF", "chrF++", "TER", "METEOR"])}}
    low = {m: [v - 1.5 for v in vals] for m, vals in panels.items()}
    high = {m: [v + 1.5 for v in vals] for m, vals in panels.items()}
    p = rng.random((n, n))
    p = (p + p.T) / 2
    np.fill_diagonal(p, np.nan)
    scores = np.asarray(BLEU)
    return [
        F.system_scores_figure(SYSTEMS, panels, low, high, confidence=0.95, highlight=["HUMAN-B"]),
        F.precision_by_order_figure(SYSTEMS, rng.random((n, 4)) * 50 + 20, highlight=["HUMAN-B"],
                                    notes={"HUMAN-B": "human, refs A"}),
        F.metric_human_figure(SYSTEMS, BLEU, HUMAN, metric="BLEU", highlight=["HUMAN-B"]),
        F.normalized_comparison_figure(SYSTEMS, {"human (z)": HUMAN, "human (raw)": HUMAN[::-1],
                                                 **{m: v for m, v in panels.items() if m != "human (z)"}}),
        F.block_scores_figure(SYSTEMS, rng.random((n, 17)) * 20 + 35, metric="BLEU"),
        F.significance_figure(SYSTEMS, p, scores[:, None] - scores[None, :], metric="chrF++",
                              clusters=[SYSTEMS[:8], SYSTEMS[8:]],
                              test="paired bootstrap, Holm-adjusted p"),
    ]


FIGURES = _figures()


def _texts(mpl_figure: object) -> list[object]:
    from matplotlib.text import Text

    mpl_figure.canvas.draw()  # type: ignore[attr-defined]
    return [t for t in mpl_figure.findobj(Text)  # type: ignore[attr-defined]
            if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize("figure", FIGURES, ids=[f.name for f in FIGURES])
def test_every_text_is_at_least_9_px_on_a_phone(figure: F.Figure) -> None:
    assert figure.narrow is not None
    assert figure.narrow.get_figwidth() == PHONE_WIDTH
    px_per_pt = PHONE_PIXELS / (72 * PHONE_WIDTH)
    texts = _texts(figure.narrow)
    assert texts
    for text in texts:
        assert text.get_fontsize() >= PHONE_MIN_FONT, text.get_text()  # type: ignore[attr-defined]
        assert text.get_fontsize() * px_per_pt >= 9.0  # type: ignore[attr-defined]
    # the wide figure squeezed to a phone's width drew its text far smaller
    wide = min(t.get_fontsize() for t in _texts(figure.mpl))  # type: ignore[attr-defined]
    assert wide * PHONE_PIXELS / (72 * figure.mpl.get_figwidth()) < 9.0 or \
        figure.mpl.get_figwidth() <= PHONE_WIDTH


@pytest.mark.parametrize("figure", FIGURES, ids=[f.name for f in FIGURES])
def test_nothing_is_cut_off_on_a_phone(figure: F.Figure) -> None:
    """Everything drawn (texts, tick labels in view, legends) lies inside the figure."""
    narrow = figure.narrow
    narrow.canvas.draw()
    drawn = narrow.get_tightbbox(narrow.canvas.get_renderer())  # inches
    width, height = narrow.get_size_inches()
    assert drawn.x0 >= -0.01 and drawn.y0 >= -0.01, drawn
    assert drawn.x1 <= width + 0.01 and drawn.y1 <= height + 0.01, drawn


def test_the_phone_variant_keeps_the_numbers() -> None:
    scores = FIGURES[0]
    wide_ticks = [t.get_text() for t in scores.mpl.axes[0].get_yticklabels()]
    narrow_ticks = [t.get_text() for t in scores.narrow.axes[0].get_yticklabels()]
    assert narrow_ticks == wide_ticks == SYSTEMS[:1] + wide_ticks[1:]  # the same order of systems
    for wide_ax, narrow_ax in zip(scores.mpl.axes, scores.narrow.axes):
        for a, b in zip(wide_ax.lines, narrow_ax.lines):
            np.testing.assert_array_equal(a.get_xdata(), b.get_xdata())
    matrix = FIGURES[-1]
    assert len(matrix.narrow.axes[0].texts) == len(SYSTEMS) * (len(SYSTEMS) - 1)  # every p-value


def test_the_report_shows_the_phone_variant_to_phones() -> None:
    html = figure_html(FIGURES[0])
    assert f'<picture><source media="{PHONE_MEDIA}" srcset="data:image/svg+xml;base64,' in html
    assert html.count("data:image/svg+xml;base64,") == 2
    assert FIGURES[0].data("svg", narrow=True) == FIGURES[0].narrow_svg != FIGURES[0].svg
    png = figure_html(FIGURES[0], "png")
    assert png.count("data:image/png;base64,") == 2
