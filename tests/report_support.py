"""A small HTML checker for the report tests (standard library html.parser only)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    parent: Node | None = None

    def iter(self, tag: str | None = None):
        for child in self.children:
            if tag is None or child.tag == tag:
                yield child
            yield from child.iter(tag)

    def all_text(self) -> str:
        return "".join(self.text) + "".join(c.all_text() for c in self.children)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]
        self.errors: list[str] = []
        self.doctype = None

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.stack[-1].tag != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1].tag}>")
            # recover: pop to the matching tag if there is one
            for k in range(len(self.stack) - 1, 0, -1):
                if self.stack[k].tag == tag:
                    del self.stack[k:]
                    return
            return
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].text.append(data)


def parse(text: str) -> Node:
    """Parse an HTML document; raises AssertionError if any element is left open or mis-nested."""
    builder = _Builder()
    builder.feed(text)
    builder.close()
    assert builder.doctype and builder.doctype.lower() == "doctype html", builder.doctype
    assert not builder.errors, builder.errors[:5]
    assert len(builder.stack) == 1, f"unclosed: {[n.tag for n in builder.stack[1:]]}"
    return builder.root


def image_bytes(img: Node) -> tuple[str, bytes]:
    """(mime type, decoded bytes) of an ``<img src="data:...;base64,...">``."""
    src = img.attrs["src"]
    assert src.startswith("data:"), src[:40]
    header, data = src[5:].split(",", 1)
    mime, encoding = header.split(";")
    assert encoding == "base64"
    return mime, base64.b64decode(data, validate=True)


def table_cells(table: Node) -> tuple[list[str], list[list[str]]]:
    """Header texts and body rows (cell texts) of a ``<table>``."""
    head = [th.all_text() for th in table.iter("th")]
    rows = [[td.all_text() for td in tr.iter("td")] for tr in table.iter("tr")]
    return head, [r for r in rows if r]
