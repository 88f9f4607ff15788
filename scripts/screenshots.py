"""Screenshots of the HTML report at a phone's and a desktop's width, for the README (docs/*.png).

    python scripts/screenshots.py [--dataset sample] [--out docs] [--chromium /usr/bin/chromium]

Writes the report of the data set (default: the embedded WMT22 de-en sample) to a temporary folder,
then asks headless Chromium for a screenshot of it at 390 px (a phone) and at 1,400 px (a wide
screen): ``docs/report-390.png`` and ``docs/report-1400.png``. Chromium runs with a throw-away
profile, no network, no GPU and no sandbox (it runs as root in CI containers).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: (file stem, window width, window height) of each screenshot
SHOTS = (("report-390", 390, 2600), ("report-1400", 1400, 1800))

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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
