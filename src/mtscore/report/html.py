"""A self-contained HTML report: one file, figures embedded as data URIs, no script, no network.

A report is a title, a few facts about the data, and sections; a section holds paragraphs,
:class:`~mtscore.report.tables.Table` objects and :class:`~mtscore.report.figures.Figure` objects in
the order they are read. The page is plain HTML with an inline stylesheet, so it opens from disk in
any browser, prints, and can be attached to an e-mail. Nothing in it refers to anything outside it.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, OptionError
from ..version import __version__
from .figure_base import PHONE_MEDIA
from .figures import FIGURE_FORMATS, Figure
from .table_html import FOLD_ROWS as FOLD_ROWS
from .table_html import _esc, _sig, table_html
from .tables import Table


@dataclass(frozen=True)
class Paragraph:
    """Prose: plain text (escaped on output); ``kind`` ``note`` draws it as a highlighted box."""

    text: str
    kind: str = "text"


@dataclass(frozen=True)
class Signatures:
    """The signature of every number: one line per score kind (metric, test, correlation)."""

    lines: tuple[tuple[str, str], ...]  # (what, signature)


@dataclass(frozen=True)
class Gallery:
    """Several figures side by side (as many per row as the screen fits) under one caption."""

    figures: tuple[Figure, ...]
    caption: str = ""


Block = Paragraph | Table | Figure | Signatures | Gallery


@dataclass(frozen=True)
class Section:
    """A titled part of the report; ``id`` is its anchor (``#scores``)."""

    id: str
    title: str
    blocks: tuple[Block, ...]
    intro: str = ""


@dataclass(frozen=True)
class Report:
    """A whole report: title, facts (label, value) shown under it, and sections."""

    title: str
    sections: tuple[Section, ...]
    facts: tuple[tuple[str, str], ...] = ()
    summary: tuple[str, ...] = ()
    footer: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def figures(self) -> list[Figure]:
        """Every figure of the report, in reading order."""
        out: list[Figure] = []
        for section in self.sections:
            for block in section.blocks:
                if isinstance(block, Figure):
                    out.append(block)
                elif isinstance(block, Gallery):
                    out.extend(block.figures)
        return out

    def tables(self) -> list[Table]:
        """Every table of the report, in reading order."""
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]


_CSS = """
:root { --ink:#1d2330; --muted:#5b6472; --line:#dfe3ea; --accent:#0b5fa5; --bg:#f6f7f9; }
* { box-sizing:border-box; }
body { margin:0; font:15px/1.5 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
       color:var(--ink); background:var(--bg); }
header { background:#14213d; color:#fff; padding:28px 40px 22px; }
header h1 { margin:0 0 6px; font-size:26px; font-weight:650; letter-spacing:.2px; }
header .facts { display:flex; flex-wrap:wrap; gap:8px 26px; margin-top:12px; font-size:14px; }
header .facts span { color:#aeb9cc; margin-right:6px; }
nav { position:sticky; top:0; z-index:2; background:#fff; border-bottom:1px solid var(--line);
      padding:6px 40px; font-size:13.5px; display:flex; flex-wrap:wrap; gap:2px 18px; }
nav a { color:var(--accent); text-decoration:none; white-space:nowrap; }
nav a:hover { text-decoration:underline; }
main { max-width:1200px; margin:0 auto; padding:10px 40px 40px; }
section { background:#fff; border:1px solid var(--line); border-radius:8px; margin:22px 0;
          padding:20px 26px 16px; }
section h2 { margin:0 0 4px; font-size:20px; }
p.intro { color:var(--muted); margin:2px 0 14px; max-width:900px; }
p { max-width:900px; }
.summary { background:#eef5fc; border-left:4px solid var(--accent); padding:12px 18px; margin:22px 0;
           border-radius:4px; }
.summary ul { margin:4px 0; padding-left:20px; }
.note { background:#fff8e6; border-left:4px solid #e0a100; padding:8px 14px; border-radius:4px; }
figure { margin:16px 0 22px; text-align:center; }
.gallery { display:grid; grid-template-columns:repeat(auto-fill, minmax(min(100%, 440px), 1fr));
           gap:4px 18px; }
.gallery figure { margin:8px 0 12px; }
.gallery figcaption { font-size:12.5px; }
p.gcaption { color:var(--muted); font-size:13.5px; text-align:center; max-width:none; margin:0 0 18px; }
figure img { max-width:100%; height:auto; }
figcaption { color:var(--muted); font-size:13.5px; max-width:820px; margin:6px auto 0; }
.tablewrap { overflow-x:auto; margin:10px 0 18px; }
table { border-collapse:collapse; font-size:14px; font-variant-numeric:tabular-nums; }
caption { caption-side:top; text-align:left; font-weight:600; padding:4px 0 8px; }
th { text-align:left; border-bottom:2px solid var(--ink); padding:5px 12px; white-space:nowrap; }
td { border-bottom:1px solid var(--line); padding:4px 12px; white-space:nowrap; }
th.num, td.num { text-align:right; }
tbody tr:hover { background:#f3f6fb; }
td.sig { font-family:ui-monospace,Menlo,Consolas,monospace; font-size:12px; white-space:normal;
         overflow-wrap:break-word; color:var(--muted); }
.tnotes { color:var(--muted); font-size:12.5px; margin-top:6px; }
.tnotes p { margin:3px 0; max-width:980px; }
.tnotes .sigline { font-family:ui-monospace,Menlo,Consolas,monospace; overflow-wrap:break-word;
                   margin:2px 0; }
.tnotes .sigline b { font-family:-apple-system,"Segoe UI",Roboto,Arial,sans-serif; color:var(--ink);
                     margin-right:6px; }
dl.sigs { display:grid; grid-template-columns:max-content 1fr; gap:4px 18px; font-size:13px; }
dl.sigs dt { font-weight:600; }
dl.sigs dd { margin:0; font-family:ui-monospace,Menlo,Consolas,monospace; overflow-wrap:break-word;
             color:#333; min-width:0; }
details.fold { margin:10px 0 18px; }
details.fold summary { cursor:pointer; font-weight:600; color:var(--accent); padding:4px 0; }
footer { color:var(--muted); font-size:12.5px; text-align:center; padding:10px 0 30px; }
@media (max-width: 700px) {
  header { padding:18px 14px 14px; } header h1 { font-size:21px; }
  nav { padding:6px 14px; font-size:13px; gap:2px 12px; }
  main { padding:4px 8px 24px; }
  section { padding:14px 12px 10px; margin:14px 0; border-radius:6px; }
  table { font-size:12.5px; } th, td { padding:3px 7px; }
  dl.sigs { grid-template-columns:1fr; gap:0 0; } dl.sigs dd { margin-bottom:8px; }
  .summary { padding:10px 12px; }
  figure img, figure.wide img { max-width:100%; width:100%; }
}
@media print {
  nav { display:none; } details.fold > * { display:block; } section { break-inside:avoid-page; }
  body { background:#fff; }
}
"""


def figure_html(figure: Figure, fmt: str = "svg", caption: bool = True) -> str:
    """A figure as ``<figure><img src="data:…">`` with its caption (the image is embedded)."""
    if fmt not in FIGURE_FORMATS:
        raise OptionError("figure format", fmt, FIGURE_FORMATS)
    mime = "image/svg+xml" if fmt == "svg" else "image/png"
    data = base64.b64encode(figure.data(fmt)).decode("ascii")
    wide = figure.mpl is not None and figure.mpl.get_figwidth() > 7.0
    image = f'<img src="data:{mime};base64,{data}" alt="{_esc(figure.title)}">'
    if figure.narrow is not None:  # a phone gets the variant drawn for it (no script)
        phone = base64.b64encode(figure.data(fmt, narrow=True)).decode("ascii")
        image = (f'<picture><source media="{PHONE_MEDIA}" srcset="data:{mime};base64,{phone}">'
                 f"{image}</picture>")
    return (f'<figure id="fig-{_esc(figure.name)}"{" class=wide" if wide else ""}>{image}'
            + (f"<figcaption>{_esc(figure.caption)}</figcaption>" if caption else "") + "</figure>")


def _block_html(block: Block, width: int, fmt: str) -> str:
    if isinstance(block, Table):
        return table_html(block, width)
    if isinstance(block, Figure):
        return figure_html(block, fmt)
    if isinstance(block, Gallery):
        own = not block.caption
        cells = "".join(figure_html(f, fmt, caption=own) for f in block.figures)
        caption = f'<p class="gcaption">{_esc(block.caption)}</p>' if block.caption else ""
        return f'<div class="gallery">{cells}</div>{caption}'

    if isinstance(block, Signatures):
        items = "".join(f"<dt>{_esc(what)}</dt><dd>{_sig(sig)}</dd>" for what, sig in block.lines)
        return f'<dl class="sigs">{items}</dl>'
    if isinstance(block, Paragraph):
        cls = ' class="note"' if block.kind == "note" else ""
        return f"<p{cls}>{_esc(block.text)}</p>"
    raise TypeError(f"cannot render {type(block).__name__} in a report")


def render_html(report: Report, *, width: int = 2, figure_format: str = "svg") -> str:
    """The whole report as one HTML document (a string)."""
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<meta name=\"generator\" content=\"mtscore {_esc(__version__)}\">",
             f"<title>{_esc(report.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
             "<header>", f"<h1>{_esc(report.title)}</h1>"]
    if report.facts:
        parts.append('<div class="facts">' + "".join(
            f"<div><span>{_esc(k)}</span>{_esc(v)}</div>" for k, v in report.facts) + "</div>")
    parts.append("</header>")
    parts.append("<nav>" + "".join(f'<a href="#{_esc(s.id)}">{_esc(s.title)}</a>'
                                   for s in report.sections) + "</nav>")
    parts.append("<main>")
    if report.summary:
        parts.append('<div class="summary"><strong>In short</strong><ul>' +
                     "".join(f"<li>{_esc(line)}</li>" for line in report.summary) + "</ul></div>")
    for section in report.sections:
        parts.append(f'<section id="{_esc(section.id)}">')
        parts.append(f"<h2>{_esc(section.title)}</h2>")
        if section.intro:
            parts.append(f'<p class="intro">{_esc(section.intro)}</p>')
        parts.extend(_block_html(b, width, figure_format) for b in section.blocks)
        parts.append("</section>")
    parts.append("</main>")
    footer = report.footer or f"Made by mtscore {__version__}."
    parts += [f"<footer>{_esc(footer)}</footer>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _nearest_existing(path: Path) -> Path:
    for p in (path, *path.parents):
        if os.path.lexists(p):
            return p
    return Path(".")


def check_destination(path: str | os.PathLike[str], *, folder: bool = False) -> None:
    """Raise :class:`InputError` early — before a long study — if ``path`` cannot be written: a
    folder where a file is wanted (or a file where a folder is, with ``folder``), a file in the way
    of a folder to create, or no permission to write there."""
    out = Path(path)
    what = "the figures" if folder else "the report"
    blocked = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        raise InputError(f"cannot write {what}: {blocked} is a file, not a folder", source=str(out))
    if out.is_dir() and not folder:
        raise InputError("cannot write the report: this is a folder; give a file name", source=str(out))
    if folder and out.exists() and not out.is_dir():
        raise InputError("cannot save the figures: this is a file, not a folder", source=str(out))
    existing = _nearest_existing(out if folder else out.parent)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {what}: no permission to write in {existing}",
                         source=str(out))
    if not folder and out.exists() and not os.access(out, os.W_OK):
        raise InputError("cannot write the report: the file is read-only", source=str(out))


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it into place: ``path`` is
    either its old self or complete, never half-written (a full disk, an interrupt)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:40]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_html(report: Report, path: str | os.PathLike[str], *, width: int = 2,
               figure_format: str = "svg") -> Path:
    """Write the report to ``path`` (folders are created; written to a temporary file and renamed
    into place) and return the path."""
    out = Path(path)
    text = render_html(report, width=width, figure_format=figure_format)
    check_destination(out)
    try:
        write_atomic(out, text.encode("utf-8"))
    except OSError as err:
        raise InputError(f"cannot write the report: {err.strerror or err}", source=str(out)) from None
    return out


def save_figures(figures: Sequence[Figure], folder: str | os.PathLike[str],
                 formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Save every figure as ``folder/<name>.<fmt>`` for each format; returns the paths written."""
    for fmt in formats:
        if fmt not in FIGURE_FORMATS:
            raise OptionError("figure format", fmt, FIGURE_FORMATS)
    root = Path(folder)
    written = []
    try:
        root.mkdir(parents=True, exist_ok=True)
        for figure in figures:
            for fmt in formats:
                path = root / f"{figure.name}.{fmt}"
                write_atomic(path, figure.data(fmt))
                written.append(path)
    except OSError as err:
        raise InputError(f"cannot save the figures: {err.strerror or err}",
                         source=str(err.filename or root)) from None
    return written
