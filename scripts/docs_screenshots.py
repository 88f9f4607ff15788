"""Screenshots of the documentation site at a phone's and a desktop's width (docs/screenshots/*.png).

    python scripts/docs_screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Builds the site with ``mkdocs build --strict`` into a temporary folder, then asks headless Chromium
(the flags of ``scripts/screenshots.py``: throw-away profile, no network, no GPU, no sandbox) for the
front page, one metric page and one API reference page at 390 px and at 1,400 px, and stores each as
a palette PNG (Pillow, which matplotlib already needs) so the files stay small. The screenshots are
kept out of the built site (``exclude_docs`` in mkdocs.yml).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from screenshots import find_chromium, optimize, shoot

ROOT = Path(__file__).resolve().parents[1]

#: (name, page of the built site)
PAGES = (("home", "index.html"), ("metric-bleu", "metrics/bleu/index.html"),
         ("api-mtscore", "api/mtscore/index.html"))
#: (suffix, window width, window height)
SIZES = (("390", 390, 1400), ("1400", 1400, 1000))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--chromium", help="the Chromium binary (default: found on PATH)")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mtscore-site-") as site:
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", site],
                       cwd=ROOT, check=True)
        for name, page in PAGES:
            for suffix, width, height in SIZES:
                target = out / f"{name}-{suffix}.png"
                shoot(chromium, Path(site) / page, target, width, height)
                optimize(target)
                print(f"{target} ({width} × {height}, {target.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
