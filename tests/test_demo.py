"""``mtscore demo``: the full study of the embedded sample, its key tables and its HTML report.

The demo runs once per module (it is the slow part); its Study is kept and handed back by a
patched ``run_study`` to the other demo runs (formats, no matplotlib), which test the command, not
the study again. Numbers are checked against sacreBLEU and the sample's human score file.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import mtscore.study
from mtscore.cli import main
from mtscore.data import sample_path

from .report_support import image_bytes, parse, table_cells

matplotlib = pytest.importorskip("matplotlib")

#: the report's sections, by anchor: every part the issue asks for
SECTIONS = ("scores", "precision", "human", "normalized", "segment", "significance", "blocks",
            "modules", "signatures")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """Run ``mtscore demo`` once: (stdout, report path, figures dir, the Study it computed)."""
    out = tmp_path_factory.mktemp("demo")
    captured = {}
    real = mtscore.study.run_study

    def spy(*args, **kwargs):
        captured["study"] = real(*args, **kwargs)
        return captured["study"]

    mp = pytest.MonkeyPatch()
    mp.setattr(mtscore.study, "run_study", spy)
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    try:
        with redirect_stdout(buf):
            rc = main(["demo", "-o", str(out / "demo.html"), "--figures", str(out / "figs"), "-q"])
    finally:
        mp.undo()
    assert rc == 0
    return buf.getvalue(), out / "demo.html", out / "figs", captured["study"]


@pytest.fixture
def reuse_study(demo, monkeypatch):
    """Later demo runs get the first run's Study instead of computing it again."""
    monkeypatch.setattr(mtscore.study, "run_study", lambda *a, **k: demo[3])
    return demo[3]


def _sample_files():
    folder = sample_path()
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    refs = {r: (folder / "references" / f"{r}.txt").read_text(encoding="utf-8").splitlines()
            for r in meta["references"]}
    systems = {p.stem: p.read_text(encoding="utf-8").splitlines()
               for p in sorted((folder / "systems").glob("*.txt"))}
    return meta, refs, systems


def _human_means(kind: str = "z") -> dict[str, float]:
    sums: dict[str, list[float]] = {}
    with open(sample_path() / "human" / "segments.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            sums.setdefault(row["system"], []).append(float(row[kind]))
    return {s: math.fsum(v) / len(v) for s, v in sums.items()}


@pytest.mark.parity
def test_demo_prints_the_key_table_checked_against_sacrebleu(demo):
    import sacrebleu

    stdout, html_path, _, _ = demo
    meta, refs, systems = _sample_files()
    human = _human_means("z")
    lines = stdout.splitlines()
    assert f"report: {html_path.resolve()}" in lines
    # the key table is cut by metrics to fit a terminal of 100 columns; each piece repeats
    # system, refs and human (z)
    headers = [k for k, ln in enumerate(lines) if ln.startswith("system  ") and "human (z)" in ln]
    assert len(headers) > 1 and "METEOR" in lines[headers[-1]]
    for k in headers:
        assert lines[k - 1].startswith("wmt22-de-en: systems, human scores and metrics")
        assert all(len(ln) <= 100 for ln in lines[k:k + 2 + len(systems)])  # header, rule, rows
    rows = {}
    for ln in lines[headers[0] + 2:]:
        if not ln.strip() or not ln[0].isalnum() or ln.startswith(("sorted", "low, high:", "BLEU:")):
            break
        rows[ln.split()[0]] = ln.split()
    assert lines[headers[0]].split()[:6] == ["system", "refs", "human", "(z)", "BLEU", "BLEU"]
    assert set(rows) == set(systems)
    for name, hyps in systems.items():
        own = meta.get("human_systems", {}).get(name)
        streams = [refs[r] for r in meta["references"] if r != own]
        bleu = sacrebleu.corpus_bleu(hyps, streams).score
        cells = rows[name]
        assert cells[1] == ("A" if name == "HUMAN-B" else "A+B")  # refs: each row's own
        assert cells[2] == f"{human[name]:.4f}"  # the precision rule: 4 decimals by default
        assert cells[3] == f"{bleu:.4f}"
    # systems are listed best human score first
    order = list(rows)
    assert order == sorted(order, key=lambda s: -human[s])


def test_demo_report_has_every_section_and_figure(demo):
    _, html_path, figs_dir, study = demo
    root = parse(html_path.read_text(encoding="utf-8"))
    ids = [s.attrs["id"] for s in root.iter("section")]
    for sid in SECTIONS:
        assert sid in ids, sid
    by_id = {s.attrs["id"]: s for s in root.iter("section")}
    imgs = {sid: list(by_id[sid].iter("img")) for sid in ids}
    assert len(imgs["scores"]) == 1
    assert len(imgs["precision"]) == 1
    assert len(imgs["human"]) == len(study.metrics)  # Figs. 5-6: one scatter per metric
    assert len(imgs["normalized"]) == 1  # Fig. 7
    assert len(imgs["significance"]) >= 1
    assert len(imgs["blocks"]) == 1
    for section in imgs.values():
        for img in section:
            mime, data = image_bytes(img)
            assert mime == "image/svg+xml"
            assert ET.fromstring(data).tag.endswith("svg")
    # every table the issue names is there, as a parsed table
    captions = [next(t.iter("caption")).all_text() for t in root.iter("table")
                if any(True for _ in t.iter("caption"))]
    for wanted in ("segment-level correlation", "Table 1: BLEU on", "Tables 6–7", "paired bootstrap",
                   "Settings of the study"):
        assert any(wanted in c for c in captions), wanted
    meta = json.loads((sample_path() / "meta.json").read_text(encoding="utf-8"))
    assert meta["credit"] in by_id["signatures"].all_text()  # the data are credited
    sigs = next(by_id["signatures"].iter("dl")).all_text()
    for metric in study.metrics:
        assert study.signatures[metric] in sigs
    # --figures: PNG and SVG of every embedded figure
    names = {p.stem for p in figs_dir.iterdir()}
    assert len(names) == sum(len(v) for v in imgs.values())
    for p in figs_dir.iterdir():
        data = p.read_bytes()
        assert data.startswith(b"\x89PNG") if p.suffix == ".png" else ET.fromstring(data) is not None


def test_report_numbers_match_the_study(demo):
    """The scatter of each metric shows r computed from the study's own numbers (numpy, here)."""
    import numpy as np

    _, html_path, _, study = demo
    text = html_path.read_text(encoding="utf-8")
    root = parse(text)
    by_id = {s.attrs["id"]: s for s in root.iter("section")}
    judged = list(study.judged_systems)
    y = [study.human_scores["z"][s] for s in judged]
    from mtscore.report.study_report import build_report

    report = build_report(study)
    scatters = [f for f in report.figures() if f.name.startswith("fig5-6-")]
    assert len(scatters) == len(study.metrics)
    for fig, metric in zip(scatters, study.metrics):
        r = np.corrcoef([study.corpus_scores[metric][s] for s in judged], y)[0, 1]
        texts = [t.get_text() for t in fig.mpl.axes[0].texts]
        assert any(t.startswith(f"r = {r:.3f}") for t in texts), (metric, texts[:2])
    # the normalized table (Fig. 7's numbers): human z of the best system is 1, of the worst 0
    table = next(iter(by_id["normalized"].iter("table")))
    head, rows = table_cells(table)
    col = head.index("human (z)")
    assert rows[0][col] == "1.0000" and rows[-1][col] == "0.0000"
    # the significance clusters written under the matrix are the study's
    res = study.significance["BLEU"]
    clusters = res.clusters()
    para = next(p.all_text() for p in by_id["significance"].iter("p")
                if p.all_text().startswith("BLEU clusters"))
    assert para == "BLEU clusters (best first): " + "; ".join(
        f"{i + 1}: {', '.join(c)}" for i, c in enumerate(clusters)) + "."


def test_demo_formats(demo, reuse_study, capsys, tmp_path):
    assert main(["demo", "--no-report", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    key, corr = data
    bleu = {row["system"]: row["BLEU"] for row in key}
    assert bleu == {s: reuse_study.corpus_scores["BLEU"][s] for s in reuse_study.systems}  # full precision
    assert {row["metric"] for row in corr} == set(reuse_study.metrics)
    assert main(["demo", "--no-report", "-f", "latex", "-w", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count(r"\toprule") == 2 and re.search(r"\d+\.\d{3} ", out)
    assert not list(tmp_path.iterdir())


def test_demo_without_matplotlib_prints_tables_and_names_the_extra(demo, reuse_study, capsys,
                                                                   monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out_file = tmp_path / "x.html"
    assert main(["demo", "-o", str(out_file)]) == 0
    captured = capsys.readouterr()
    assert "Online-Y" in captured.out and "report:" not in captured.out
    assert "pip install 'mtscore[report]'" in captured.err
    assert not out_file.exists()


def test_report_without_matplotlib_fails_clearly(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    rc = main(["report", "sample", "-o", str(tmp_path / "r.html")])
    assert rc == 1
    err = capsys.readouterr().err
    assert "mtscore report: error:" in err and "pip install 'mtscore[report]'" in err
    assert not (tmp_path / "r.html").exists()


# ---- the report in a real browser --------------------------------------------------------------

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome",
                                            "google-chrome-stable") if shutil.which(n)), None)

_CHECK = """<script>
window.addEventListener('load', function () {
  var imgs = Array.prototype.slice.call(document.images);
  var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var out = document.createElement('pre');
  out.id = 'image-check';
  out.textContent = 'images=' + imgs.length + ' broken=' + bad.length + ' ' +
                    bad.map(function (i) { return i.alt; }).join('|');
  document.body.appendChild(out);
});
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_every_image_loads_in_headless_chromium(demo, tmp_path):
    _, html_path, _, _ = demo
    text = html_path.read_text(encoding="utf-8")
    page = tmp_path / "check.html"
    page.write_text(text.replace("</body>", _CHECK + "</body>"), encoding="utf-8")
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
           page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180,
                          env=dict(os.environ, HOME=str(tmp_path)))
    match = re.search(r'<pre id="image-check">images=(\d+) broken=(\d+) ?([^<]*)</pre>', proc.stdout)
    assert match, proc.stderr[-2000:]
    n_images, broken = int(match.group(1)), int(match.group(2))
    assert n_images == text.count("<img ")
    assert broken == 0, match.group(3)
