"""``-m chrF2``: sacreBLEU's name for chrF (β = 2); its options are chrF's (:mod:`.chrf`)."""

from __future__ import annotations

from .chrf import from_args
from .chrf_plus import OPTIONS_OF, add_options

__all__ = ["OPTIONS_OF", "add_options", "from_args"]
