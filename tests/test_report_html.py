"""The self-contained HTML writer: valid, complete, nothing loaded from outside the file."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")

from mtscore.errors import MtscoreError
from mtscore.report import figures as F
from mtscore.report.html import (
    Paragraph,
    Report,
    Section,
    Signatures,
    render_html,
    save_figures,
    table_html,
    write_html,
)
from mtscore.report.tables import Table

from .report_support import image_bytes, parse, table_cells


def _report() -> Report:
    fig = F.metric_human_figure(["a", "b", "c"], [1.0, 2.0, 3.0], [0.1, 0.4, 0.3], metric="BLEU")
    table = Table(("system", "BLEU", "signature"), (("a <b>", 12.3456, "BLEU|nrefs:1|tok:13a"),
                                                    ("c&d", None, "BLEU|nrefs:1|tok:13a")),
                  title="Scores", notes=("BLEU|nrefs:1|tok:13a|version:0.1.0", "a plain note"))
    return Report(
        title="Study of <test>", facts=(("segments", "3"),),
        summary=("BLEU correlates with humans",),
        sections=(Section("scores", "Scores", (Paragraph("Scores & intervals."), table), intro="Why."),
                  Section("fig", "Figure", (fig, Paragraph("careful", kind="note"))),
                  Section("sigs", "Signatures", (Signatures((("BLEU", "BLEU|nrefs:1"),)),))))


def test_report_is_valid_html_with_every_part():
    text = render_html(_report(), width=3)
    root = parse(text)
    assert [s.attrs["id"] for s in root.iter("section")] == ["scores", "fig", "sigs"]
    assert [a.attrs["href"] for a in root.iter("a")] == ["#scores", "#fig", "#sigs"]
    assert next(root.iter("title")).all_text() == "Study of <test>"  # escaped, then parsed back
    table = next(root.iter("table"))
    head, rows = table_cells(table)
    assert head == ["system", "BLEU", "signature"]
    assert rows[0] == ["a <b>", "12.346", "BLEU|nrefs:1|tok:13a"]
    assert rows[1][:2] == ["c&d", "–"]
    (img,) = list(root.iter("img"))
    mime, data = image_bytes(img)
    assert mime == "image/svg+xml" and ET.fromstring(data).tag.endswith("svg")
    assert img.attrs["alt"]
    assert "BLEU|nrefs:1" in next(root.iter("dl")).all_text()


def test_report_refers_to_nothing_outside_itself():
    root = parse(render_html(_report()))
    for node in root.iter():
        for name in ("src", "href"):
            value = node.attrs.get(name)
            if value is not None:
                assert value.startswith(("data:", "#")), value[:60]
        assert node.tag not in ("script", "link", "iframe")
    text = render_html(_report())
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text


def test_png_embedding():
    root = parse(render_html(_report(), figure_format="png"))
    mime, data = image_bytes(next(root.iter("img")))
    assert mime == "image/png" and data.startswith(b"\x89PNG")
    with pytest.raises(MtscoreError):
        render_html(_report(), figure_format="gif")


def test_numeric_columns_are_right_aligned():
    root = parse(table_html(Table(("name", "x"), (("a", 1.5), ("b", 2))), width=1).join(
        ["<!DOCTYPE html><html><body>", "</body></html>"]))
    tds = list(root.iter("td"))
    assert tds[1].attrs.get("class") == "num" and tds[0].attrs.get("class") is None
    assert [t.all_text() for t in tds] == ["a", "1.5", "b", "2"]


def test_write_and_save_figures(tmp_path):
    report = _report()
    out = write_html(report, tmp_path / "sub" / "report.html")
    assert out.exists() and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    written = save_figures(report.figures(), tmp_path / "figs", ("png", "svg"))
    assert sorted(p.name for p in written) == ["fig5-6-bleu-vs-human.png", "fig5-6-bleu-vs-human.svg"]
    assert (tmp_path / "figs" / "fig5-6-bleu-vs-human.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(MtscoreError):
        save_figures(report.figures(), tmp_path / "x", ("pdf",))


def test_long_tables_are_folded_short_ones_not():
    from mtscore.report.html import FOLD_ROWS

    long = Table(("i",), tuple((i,) for i in range(FOLD_ROWS + 1)), title="Long")
    short = Table(("i",), tuple((i,) for i in range(FOLD_ROWS)), title="Short")
    text = "<!DOCTYPE html><html><body>" + table_html(long) + table_html(short) + "</body></html>"
    root = parse(text)
    (details,) = list(root.iter("details"))
    assert next(details.iter("summary")).all_text() == f"Long ({FOLD_ROWS + 1} rows)"
    assert [next(t.iter("caption")).all_text() for t in details.iter("table")] == ["Long"]
    assert len(list(root.iter("table"))) == 2


def test_unwritable_destinations_are_clear_errors(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(MtscoreError, match="cannot write the report"):
        write_html(_report(), blocker / "report.html")
    with pytest.raises(MtscoreError, match="cannot save the figures"):
        save_figures(_report().figures(), blocker / "figs")
