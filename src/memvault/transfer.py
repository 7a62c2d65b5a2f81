"""Export and import of records as JSON Lines: one :class:`~memvault.MemoryItem` a line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from memvault.backends.base import Record
from memvault.errors import (
    ImportFormatError,
    InvalidArgumentError,
    MemvaultError,
    validation_problem,
)
from memvault.items import MemoryItem, validate_value
from memvault.namespace import validate_key, validate_namespace


def write_jsonl(records: Iterable[Record], path: str | Path) -> int:
    """Write records to a JSON Lines file (replaced if it exists), one item a line.

    In the order given.

    Returns:
        How many lines were written.

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
                line = MemoryItem(
                    namespace=record.namespace,
                    key=record.key,
                    value=record.value,
                    created_at=record.created_at,
                    updated_at=record.updated_at,
                    expires_at=record.expires_at,
                ).model_dump(mode="json", exclude={"score", "score_type"})
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
    except OSError as error:
        raise InvalidArgumentError(
            f"cannot write {path}: {error.strerror}; give a file path in a folder that exists"
        ) from None
    return count


def read_jsonl(path: str | Path) -> list[Record]:
    """Read and validate every line of a file written by :func:`write_jsonl`.

    Returns:
        The records, in file order.

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
    lines_of: dict[str, int] = {}
    try:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
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
                        f"{path}: line {number} is not a memvault item: {problem}"
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
    return list(records.values())
