"""Screenshots of the HTML report at a phone's and a desktop's width, for the README (docs/*.png).

    python scripts/screenshots.py [--dataset sample] [--out docs] [--chromium /usr/bin/chromium]

Writes the report of the data set (default: the embedded WMT22 de-en sample) to a temporary folder,
then asks headless Chromium for a screenshot of it at 390 px (a phone) and at 1,400 px (a wide
screen): ``docs/report-390.png`` and ``docs/report-1400.png``; and of each figure of
:data:`FIGURES` alone, in the report's own page and stylesheet, at both widths:
``docs/screenshots/report-figure-<name>-<width>.png`` (the phone gets the figure's phone variant,
as in the report). Chromium runs with a throw-away profile, no network, no GPU and no sandbox (it
runs as root in CI containers). PNG files are stored as palette images (Pillow), so they stay small.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: (file stem, window width, window height) of each screenshot
SHOTS = (("report-390", 390, 2600), ("report-1400", 1400, 1800))
#: figures shot alone (their ids in the report, without ``fig-``), and the widths
FIGURES = ("scores", "fig2-precision-by-order", "fig5-6-bleu-vs-human",
           "fig7-normalized-comparison", "significance-chrf-plus-plus", "blocks")
FIGURE_WIDTHS = ((390, 1500), (1400, 1300))

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--hide-scrollbars", "--force-device-scale-factor=1")


def find_chromium(given: str | None) -> str:
    for name in ([given] if given else ["chromium", "chromium-browser", "google-chrome"]):
        path = shutil.which(name) if name else None
        if path:
            return path
    sys.exit("screenshots: no Chromium found (give --chromium PATH)")


def shoot(chromium: str, page: Path, out: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory(prefix="mtscore-chromium-") as profile:
        cmd = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
               f"--window-size={width},{height}", f"--screenshot={out}", page.as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    if proc.returncode != 0 or not out.is_file():
        sys.exit(f"screenshots: chromium failed ({proc.returncode}): {proc.stderr[-2000:]}")


def optimize(png: Path, trim: bool = False) -> None:
    """Rewrite ``png`` as a 256-colour palette image (text and flat colours survive this unharmed);
    ``trim``: without the empty page under the content (rows of the bottom row's colour), 16 px
    kept."""
    from PIL import Image, ImageChops

    with Image.open(png) as image:
        rgb = image.convert("RGB")
    if trim:
        background = Image.new("RGB", rgb.size, rgb.getpixel((0, rgb.height - 1)))
        box = ImageChops.difference(rgb, background).getbbox()
        if box is not None:
            rgb = rgb.crop((0, 0, rgb.width, min(rgb.height, box[3] + 16)))
    palette = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=0)
    palette.save(png, optimize=True)


def figure_pages(report: Path, folder: Path) -> dict[str, Path]:
    """Each figure of :data:`FIGURES` alone in a page with the report's head (its stylesheet) and
    the report's section box around it."""
    html = report.read_text(encoding="utf-8")
    head = html[:html.index("<body>")]
    pages = {}
    for found in re.finditer(r'<figure id="fig-([^"]*)".*?</figure>', html, re.S):
        if found[1] in FIGURES:
            page = folder / f"figure-{found[1]}.html"
            page.write_text(f"{head}<body><main><section>{found[0]}</section></main></body></html>",
                            encoding="utf-8")
            pages[found[1]] = page
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="sample", help="data-set folder (default: the sample)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs"),
                        help="folder of the PNG files (default docs/)")
    parser.add_argument("--chromium", help="the Chromium binary (default: found on PATH)")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mtscore-shots-") as tmp:
        page = Path(tmp) / "report.html"
        subprocess.run([sys.executable, "-m", "mtscore", "report", args.dataset, "-o", str(page),
                        "-q"], check=True)
        for stem, width, height in SHOTS:
            target = out / f"{stem}.png"
            shoot(chromium, page, target, width, height)
            print(f"{target} ({width} × {height})")
        (out / "screenshots").mkdir(exist_ok=True)
        for name, figure_page in figure_pages(page, Path(tmp)).items():
            for width, height in FIGURE_WIDTHS:
                target = out / "screenshots" / f"report-figure-{name}-{width}.png"
                shoot(chromium, figure_page, target, width, height)
                optimize(target, trim=True)
                print(f"{target} ({width} px)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
