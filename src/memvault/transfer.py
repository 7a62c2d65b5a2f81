"""Export and import of records as JSON Lines: one :class:`~memvault.MemoryItem` a line.

After the items come the history entries of the keys exported (deleted ones too), one a line,
each a :meth:`HistoryEntry.to_json <memvault.HistoryEntry.to_json>` object with ``"kind":
"history"`` (an item line has no ``kind``). A file of items alone (written before history was
kept) reads as it did.

Each item line carries its ``"provenance"`` (``{"origin": ..., "session": ...}``, see
:class:`~memvault.model.Provenance`); an import keeps it, and gives a line without one
(written before provenance existed) the origin ``"import"``.

An export with vectors starts with a line ``{"kind": "embedder", "embedder": name, "dim": n,
"fingerprint": [...]}``, the exporting store's recorded embedder (see
:class:`~memvault.MemoryStore`), and each item line carries its stored embedding as
``"vector"`` (``dim`` floats, 9 significant digits: a float32 exactly). A reader that does
not know vectors ignores them on the item lines, but not the embedder line.
"""

from __future__ import annotations

import json
import math
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
from memvault.model import HistoryEntry, Record, Vector
from memvault.namespace import validate_key, validate_namespace
from memvault.provenance import validate_provenance

HISTORY_KIND = "history"
"""The ``kind`` of a history line of an export file."""
EMBEDDER_KIND = "embedder"
"""The ``kind`` of the line naming the embedder of the vectors an export file carries."""

ITEM_LINE = (
    'an item line is a JSON object with "namespace" (a list of strings), "key", "value" (an '
    'object with "text"), "created_at" and "updated_at" (Unix seconds) and an optional '
    '"expires_at" and "provenance", as memvault export writes it'
)
"""What an item line of an export file holds, in that file's words (said in an import error)."""


@dataclass(frozen=True)
class Exported:
    """What an export file holds, in file order.

    Attributes:
        records: The items.
        history: The history entries.
        vectors: Per record, the embedding its line carries, or ``None``.
        embedder: The embedder line (``embedder``, ``dim``, ``fingerprint``), or ``None``.
    """

    records: list[Record]
    history: list[HistoryEntry]
    vectors: list[list[float] | None]
    embedder: dict[str, Any] | None


def write_jsonl(
    records: Iterable[Record],
    path: str | Path,
    history: Iterable[HistoryEntry] = (),
    *,
    vectors: Iterable[Vector | None] | None = None,
    embedder: dict[str, Any] | None = None,
) -> int:
    """Write records, then history entries, to a JSON Lines file (replaced if it exists).

    One item a line, then one history entry a line, each in the order given; with
    ``vectors``, the embedder line first and each item with its vector.

    Args:
        records: The items.
        path: The file.
        history: The entries.
        vectors: Per record, in order, its embedding, shape ``(dim,)`` (``None``: none).
        embedder: With ``vectors``: the store's recorded embedder (``embedder``, ``dim``,
            ``fingerprint``).

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
    carried = None if vectors is None else iter(vectors)
    try:
        with open(path, "w", encoding="utf-8") as out:
            if carried is not None:
                out.write(json.dumps({"kind": EMBEDDER_KIND, **(embedder or {})}) + "\n")
            for record in records:
                line = MemoryItem.from_record(record).model_dump(
                    mode="json", exclude={"score", "score_type"}
                )
                vector = None if carried is None else next(carried)
                if vector is not None:  # None: deleted meanwhile, embedded again by an import
                    line["vector"] = [float(f"{x:.9g}") for x in vector]
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

    The file is UTF-8; a byte order mark first (a file saved again on Windows) is read as none.

    Returns:
        The records, the history entries and the vectors carried, each in file order, and
        the embedder line.

    Raises:
        ImportFormatError: If the file cannot be read, a line is not a valid item (the
            message names the line and the field), two lines hold one ``(namespace, key)``
            (an export never does; the message names both lines), or a vector is not ``dim``
            finite numbers of the embedder line, or comes without one.
    """
    if not isinstance(path, (str, Path)):
        raise ImportFormatError(
            f"path must be a file path (str or pathlib.Path), got {type(path).__name__}"
        )
    records: dict[str, Record] = {}
    history: list[HistoryEntry] = []
    lines_of: dict[str, int] = {}
    vectors: dict[str, list[float]] = {}
    embedder: dict[str, Any] | None = None
    try:
        with open(path, encoding="utf-8-sig") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                if '"kind"' in line:
                    entry = _history_line(line, path, number)
                    if entry is not None:
                        history.append(entry)
                        continue
                    if embedder is None:
                        embedder = _embedder_line(line, path, number)
                        if embedder is not None:
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
                        valid_from=item.valid_from,
                        valid_to=item.valid_to,
                        provenance=validate_provenance(
                            item.provenance if "provenance" in item.model_fields_set else None,
                            "import",
                        ),
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
                if '"vector"' in line:
                    vector = _vector(json.loads(line).get("vector"), embedder, path, number)
                    if vector is not None:
                        vectors[record.id] = vector
    except UnicodeDecodeError:
        raise ImportFormatError(f"{path} is not UTF-8 text; export files are UTF-8") from None
    except OSError as error:
        raise ImportFormatError(f"cannot read {path}: {error.strerror}") from None
    return Exported(list(records.values()), history, [vectors.get(i) for i in records], embedder)


def _embedder_line(line: str, path: str | Path, number: int) -> dict[str, Any] | None:
    """The embedder line's fields, or None if the line is no embedder line.

    Raises:
        ImportFormatError: If it is one, but its name, dim or fingerprint is wrong.
    """
    data = _line_of_kind(line, EMBEDDER_KIND)
    if data is None:
        return None
    name, dim, fingerprint = data.get("embedder"), data.get("dim"), data.get("fingerprint")
    if not isinstance(name, str) or type(dim) is not int or not _numbers(fingerprint, dim):
        raise ImportFormatError(
            f"{path}: line {number} is not a memvault embedder line: it needs embedder (a "
            "name), dim (a positive integer) and fingerprint (dim finite numbers)"
        )
    return {"embedder": name, "dim": dim, "fingerprint": fingerprint}


def _vector(
    data: Any, embedder: dict[str, Any] | None, path: str | Path, number: int
) -> list[float] | None:
    """A carried vector, checked against the embedder line read before it; None for none.

    Raises:
        ImportFormatError: If it is not ``dim`` finite numbers whose squares add up to at
            most :data:`FLOAT32_MAX`, or no embedder line came first.
    """
    if data is None:
        return None
    if embedder is None:
        raise ImportFormatError(
            f"{path}: line {number} carries a vector, but no embedder line came before it (an "
            "export with vectors starts with one); export again with vectors, or remove them"
        )
    if not _numbers(data, embedder["dim"]):
        raise ImportFormatError(
            f"{path}: line {number} has a vector that is not {embedder['dim']} finite numbers "
            "(the dim of the embedder line) whose squares add up to at most 3.4e38 (a float32); "
            "export again with vectors, or remove them to embed the texts anew"
        )
    return [float(x) for x in data]


def _line_of_kind(line: str, kind: str) -> dict[str, Any] | None:
    """The JSON object of a line whose ``"kind"`` is ``kind``, or None for any other line."""
    try:
        data: Any = json.loads(line)
    except (ValueError, RecursionError):
        return None  # reported as the item line it is not
    return data if isinstance(data, dict) and data.get("kind") == kind else None


FLOAT32_MAX = 3.4028234663852886e38
"""The largest float32. Vectors are stored and compared as float32: a carried vector whose
squared length passes it (a number such as ``1e300``, or ``1e38`` everywhere) would turn
infinite, then NaN, and break dense search."""


def _numbers(data: Any, dim: Any) -> bool:
    """Whether ``data`` is a list of ``dim`` finite numbers (``dim`` a positive integer).

    Their squares must add up to at most :data:`FLOAT32_MAX`, so that the vector, stored and
    compared as float32, stays finite.
    """
    return (
        type(dim) is int
        and dim > 0
        and isinstance(data, list)
        and len(data) == dim
        and all(type(x) in (int, float) and abs(x) <= FLOAT32_MAX for x in data)  # NaN fails
        and math.fsum(float(x) * float(x) for x in data) <= FLOAT32_MAX
    )


def _history_line(line: str, path: str | Path, number: int) -> HistoryEntry | None:
    """The history entry a line holds, or None if it is no history line (an item's)."""
    data = _line_of_kind(line, HISTORY_KIND)
    if data is None:
        return None
    try:
        return read_entry(data)
    except (MemvaultError, ValueError, RecursionError) as error:
        raise ImportFormatError(
            f"{path}: line {number} is not a memvault history entry: {error}"
        ) from None
