"""Readers and writers: plain text, references, data sets, long-format score files.

The public names (``__all__``) are imported on first use (PEP 562): the metrics import
``mtscore.io.references`` without loading the data-set and score-file readers. The module paths
the README documents (``mtscore.io.scores``, ``mtscore.io.text``) keep working.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

#: public name -> the module that defines it
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Dataset", "load_dataset"), "mtscore.io.dataset"),
    **dict.fromkeys(("LongScores", "ScoreRecord", "format_scores", "from_pandas", "read_scores",
                     "write_scores"), "mtscore.io.scores"),
    **dict.fromkeys(("read_lines", "read_stream"), "mtscore.io.text"),
}

if _TYPE_CHECKING:
    from .dataset import Dataset, load_dataset
    from .scores import (
        LongScores,
        ScoreRecord,
        format_scores,
        from_pandas,
        read_scores,
        write_scores,
    )
    from .text import read_lines, read_stream


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mtscore.io' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = ["Dataset", "LongScores", "ScoreRecord", "format_scores", "from_pandas", "load_dataset",
           "read_lines", "read_scores", "read_stream", "write_scores"]
