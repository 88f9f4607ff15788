"""The public API (docs/api-surface.md): each public module has ``__all__`` and every name in it
imports; the module paths the documentation shows keep working."""

from __future__ import annotations

import importlib
import re

import pytest

from .conftest import REPO

PUBLIC = ("mtscore", "mtscore.stats", "mtscore.io", "mtscore.streaming", "mtscore.dask")


@pytest.mark.parametrize("name", PUBLIC)
def test_public_modules_declare_and_export_their_names(name):
    module = importlib.import_module(name)
    assert module.__all__ and len(set(module.__all__)) == len(module.__all__)
    for public in module.__all__:
        assert getattr(module, public) is not None, f"{name}.{public}"


def test_documented_module_paths_import():
    text = (REPO / "docs" / "api-surface.md").read_text(encoding="utf-8")
    section = text.split("## Module paths that keep working")[1].split("\n## ")[0]
    for line in section.splitlines():
        for module, names in re.findall(r"`(mtscore(?:\.\w+)+)`(?: \(([^)]*)\))?", line):
            imported = importlib.import_module(module)
            for name in re.findall(r"`(\w+)`", names or ""):
                assert hasattr(imported, name), f"{module}.{name}"


def test_the_api_page_lists_the_public_modules():
    text = (REPO / "docs" / "api-surface.md").read_text(encoding="utf-8")
    for name in PUBLIC:
        assert f"| `{name}` |" in text
