"""A data set's ``meta.json``: read, checked key by key, and its human systems resolved.

Every key mtscore reads has a type; a value of another type is an :class:`InputError` naming
``meta.json`` and the key (nothing is ignored silently). Other keys are kept as they are.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError, OptionError
from ..languages import parse_pair
from .text import read_bytes

#: the prefix of a human translation given as a system: ``HUMAN-B`` is reference ``B``
HUMAN_PREFIX = "HUMAN-"


def read_meta(file: Path) -> dict[str, Any]:
    """The JSON object in ``file`` ({} when there is no such file), its known keys checked."""
    if not os.path.lexists(file):
        return {}
    data = read_bytes(file, expected="a JSON file")
    try:
        meta = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise InputError(f"invalid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})",
                         source=str(file)) from None
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", source=str(file),
                         line=err.lineno) from None
    except RecursionError:
        raise InputError("invalid meta.json: nested too deeply", source=str(file)) from None
    except ValueError as err:  # e.g. an integer of more digits than Python converts
        raise InputError(f"invalid JSON: {err}", source=str(file)) from None
    if not isinstance(meta, dict):
        raise InputError(f"must hold a JSON object, not {_json_type(meta)}", source=str(file))
    check_meta(meta, str(file))
    return meta


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def check_meta(meta: Mapping[str, Any], source: str) -> None:
    """Types of the keys mtscore reads: ``name``, ``pair``, ``test_set``, ``credit`` (strings),
    ``segments`` (a positive integer), ``references`` (distinct ids), ``human_systems`` (system
    name -> reference id)."""
    def wrong(key: str, needs: str) -> InputError:
        return InputError(f'"{key}" must be {needs}, not {_json_type(meta[key])}', source=source)

    for key in ("name", "pair", "test_set", "credit"):
        if key in meta and not isinstance(meta[key], str):
            raise wrong(key, "a string")
    if "pair" in meta:
        try:
            parse_pair(meta["pair"])
        except OptionError:
            raise InputError(f'"pair" {meta["pair"]!r} is not a language pair: expected SRC-TGT '
                             "with ISO 639-1 codes, e.g. de-en", source=source) from None
    segments = meta.get("segments")
    if "segments" in meta and (not isinstance(segments, int) or isinstance(segments, bool)
                               or segments < 1):
        raise wrong("segments", "a positive integer")
    if "references" in meta:
        listed = meta["references"]
        if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
            raise wrong("references", "an array of reference ids (strings)")
        if len(set(listed)) != len(listed):
            twice = next(r for r in listed if listed.count(r) > 1)
            raise InputError(f'"references" lists {twice!r} twice', source=source)
    if "human_systems" in meta:
        listed = meta["human_systems"]
        if not isinstance(listed, dict):
            raise wrong("human_systems", 'an object of system name -> reference id, e.g. '
                                         '{"HUMAN-B": "B"}')
        for system, ref in listed.items():
            if not isinstance(ref, str):
                raise InputError(f'"human_systems": {system!r} must name one reference id (a '
                                 f"string), not {_json_type(ref)}", source=source)


def human_systems(meta: Mapping[str, Any], references: Mapping[str, list[str]],
                  systems: Mapping[str, list[str]], root: Path) -> dict[str, str]:
    """``HUMAN-X`` -> ``X`` from meta.json's ``human_systems``, else from the system names
    ``HUMAN-<reference id>``. Refused: an entry naming a system without an output file or an absent
    reference; a ``HUMAN-X`` file not listed while reference ``X`` exists (it would be scored
    against itself); a human system that is the only reference (nothing to score it against)."""
    source = str(root / "meta.json")
    if "human_systems" in meta:
        listed: dict[str, str] = dict(meta["human_systems"])
        for system, ref in listed.items():
            if ref not in references:
                raise InputError(f"human system {system!r} is reference {ref!r}, which is not in "
                                 f"references/ ({', '.join(references)})", source=source)
            if system not in systems:
                raise InputError(f"human system {system!r} is listed in \"human_systems\" but "
                                 f"systems/{system}.txt does not exist", source=source)
        unlisted = [s for s in systems if s not in listed and s.startswith(HUMAN_PREFIX)
                    and s[len(HUMAN_PREFIX):] in references]
        if unlisted:
            s = unlisted[0]
            raise InputError(f"system {s!r} looks like reference {s[len(HUMAN_PREFIX):]!r} given as a "
                             f'system but "human_systems" does not list it (it would be scored against '
                             f'itself): add "{s}": "{s[len(HUMAN_PREFIX):]}", or rename the file',
                             source=source)
    else:
        listed = {s: s[len(HUMAN_PREFIX):] for s in systems
                  if s.startswith(HUMAN_PREFIX) and s[len(HUMAN_PREFIX):] in references}
    for system, ref in listed.items():
        if all(r == ref for r in references):
            raise InputError(f"human system {system!r} is reference {ref!r}, the data set's only "
                             "reference: there is no other reference to score it against (add one "
                             f"to references/, or remove systems/{system}.txt)", source=str(root))
    return listed
