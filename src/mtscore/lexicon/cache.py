"""mtscore's user cache directory: what is derived once from data or code and kept between runs
(METEOR's paraphrase table in compact arrays, the PTB lexer's compiled rules)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The user cache directory of mtscore: ``$MTSCORE_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/mtscore``, else ``~/.cache/mtscore``."""
    env = os.environ.get("MTSCORE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mtscore"
