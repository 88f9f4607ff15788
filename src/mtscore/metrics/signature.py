"""The signature of a score: its own small module, below :mod:`.base` and :mod:`.settings` (both
use it; re-exported by :mod:`.base`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["Signature"]


class Signature(str):
    """The signature of a score: every setting that can change it, as ``NAME|key:value|...``.

    A string (it prints, compares and serializes as the text), that also keeps its parts, as
    sacreBLEU's signature object does: ``sig.name``, ``sig.fields`` (key -> value, in order) and
    ``sig[key]``-style access through :meth:`get`. Built by :meth:`Signature.of`.
    """

    name: str
    fields: Mapping[str, str]

    def __new__(cls, text: str) -> Signature:
        self = super().__new__(cls, text)
        name, *parts = text.split("|")
        self.name = name
        self.fields = {key: value for key, _, value in (part.partition(":") for part in parts)}
        return self

    @classmethod
    def of(cls, name: str, fields: Sequence[tuple[str, object]]) -> Signature:
        """The signature ``name|key:value|...`` of ``fields`` in the order given."""
        return cls("|".join([name, *(f"{key}:{value}" for key, value in fields)]))

    def get(self, key: str, default: str | None = None) -> str | None:
        """One field's value (``None`` or ``default`` when the signature has no such field)."""
        return self.fields.get(key, default)
