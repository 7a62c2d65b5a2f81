"""Export and import of records as JSON Lines: one :class:`~memvault.MemoryItem` a line.

After the items come the history entries of the keys exported (deleted ones too), one a line,
each a :meth:`HistoryEntry.to_json <memvault.HistoryEntry.to_json>` object with ``"kind":
"history"`` (an item line has no ``kind``). A file of items alone (written before history was
kept) reads as it did.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from memvault.errors import (
    ImportFormatError,
    InvalidArgumentError,
    MemvaultError,
    validation_problem,
)
from memvault.history import read_entry
from memvault.items import MemoryItem, validate_value
from memvault.model import HistoryEntry, Record
from memvault.namespace import validate_key, validate_namespace

HISTORY_KIND = "history"
"""The ``kind`` of a history line of an export file."""

ITEM_LINE = (
    'an item line is a JSON object with "namespace" (a list of strings), "key", "value" (an '
    'object with "text"), "created_at" and "updated_at" (Unix seconds) and an optional '
    '"expires_at", as memvault export writes it'
)
"""What an item line of an export file holds, in that file's words (said in an import error)."""


@dataclass(frozen=True)
class Exported:
    """What an export file holds: its records and history entries, in file order."""

    records: list[Record]
    history: list[HistoryEntry]


def write_jsonl(
    records: Iterable[Record], path: str | Path, history: Iterable[HistoryEntry] = ()
) -> int:
    """Write records, then history entries, to a JSON Lines file (replaced if it exists).

    One item a line, then one history entry a line, each in the order given.

    Returns:
        How many item lines were written.

    Raises:
        InvalidArgumentError: If ``path`` is not a path or cannot be written.
    """
    if not isinstance(path, (str, Path)):
        raise InvalidArgumentError(
            f"path must be a file path (str or pathlib.Path), got {type(path).__name__}"
        )
    count = 0
    try:
        with open(path, "w", encoding="utf-8") as out:
            for record in records:
                line = MemoryItem.from_record(record).model_dump(
                    mode="json", exclude={"score", "score_type"}
                )
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
            for entry in history:
                row = {"kind": HISTORY_KIND, **entry.to_json()}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    except OSError as error:
        raise InvalidArgumentError(
            f"cannot write {path}: {error.strerror}; give a file path in a folder that exists"
        ) from None
    return count


def read_jsonl(path: str | Path) -> Exported:
    """Read and validate every line of a file written by :func:`write_jsonl`.

    Returns:
        The records and the history entries, each in file order.

    Raises:
        ImportFormatError: If the file cannot be read, a line is not a valid item (the
            message names the line and the field), or two lines hold one ``(namespace, key)``
            (an export never does; the message names both lines).
    """
    if not isinstance(path, (str, Path)):
        raise ImportFormatError(
            f"path must be a file path (str or pathlib.Path), got {type(path).__name__}"
        )
    records: dict[str, Record] = {}
    history: list[HistoryEntry] = []
    lines_of: dict[str, int] = {}
    try:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                if '"kind"' in line:
                    entry = _history_line(line, path, number)
                    if entry is not None:
                        history.append(entry)
                        continue
                try:
                    item = MemoryItem.model_validate_json(line)
                    record = Record(
                        namespace=validate_namespace(item.namespace),
                        key=validate_key(item.key),
                        value=validate_value(item.value),
                        created_at=item.created_at,
                        updated_at=item.updated_at,
                        expires_at=item.expires_at,
                    )
                except ValidationError as error:
                    problem = validation_problem(error, "the line")
                    raise ImportFormatError(
                        f"{path}: line {number} is not a memvault item: {problem} ({ITEM_LINE})"
                    ) from None
                except (MemvaultError, ValueError, RecursionError) as error:
                    raise ImportFormatError(
                        f"{path}: line {number} is not a memvault item: {error}"
                    ) from None
                if record.id in records:
                    raise ImportFormatError(
                        f"{path}: lines {lines_of[record.id]} and {number} both hold namespace "
                        f"{list(record.namespace)} key {record.key!r:.80}; keep one of them"
                    )
                records[record.id] = record
                lines_of[record.id] = number
    except UnicodeDecodeError:
        raise ImportFormatError(f"{path} is not UTF-8 text; export files are UTF-8") from None
    except OSError as error:
        raise ImportFormatError(f"cannot read {path}: {error.strerror}") from None
    return Exported(list(records.values()), history)


def _history_line(line: str, path: str | Path, number: int) -> HistoryEntry | None:
    """The history entry a line holds, or None if it is no history line (an item's)."""
    try:
        data: Any = json.loads(line)
    except (ValueError, RecursionError):
        return None  # reported as the item line it is not
    if not isinstance(data, dict) or data.get("kind") != HISTORY_KIND:
        return None
    try:
        return read_entry(data)
    except (MemvaultError, ValueError, RecursionError) as error:
        raise ImportFormatError(
            f"{path}: line {number} is not a memvault history entry: {error}"
        ) from None
