"""How records map to Chroma: metadata, ``where`` clauses, and back.

Each record's Chroma metadata holds:

- ``mv.record``: the record as JSON (namespace, key, created and updated times in Unix
  seconds, validity, the whole value, and the provenance's ``origin`` and ``session``,
  absent from a record written before provenance existed: ``"api"``, no session), so it
  round-trips exactly; one key instead of one per part,
  since Chroma's write cost grows with the number of metadata keys;
- ``mv.ns.1``, ``mv.ns.2``, ...: the JSON array of the namespace's first 1, 2, ... segments,
  so a namespace prefix is one selective ``$eq``;
- ``mv.expires`` (Unix seconds; "never" is stored as :data:`NEVER` so that liveness is one
  ``$gt`` clause inside the query);
- ``mv.valid_from`` and ``mv.valid_to`` (Unix seconds; a ``valid_to`` of ``None``, still
  holds, is stored as :data:`NEVER`), so that validity
  (:class:`~memvault.model.Validity`) is one or two clauses inside the query; a record
  written before they existed lacks them and matches no validity clause (its collection is
  brought up to date when opened);
- ``u.<field>`` for every top-level str/int/float/bool field of the value, and ``h.<field>``
  (``True``), which filters use to test that the field exists: Chroma's ``$ne``/``$nin``
  otherwise match records that lack it. (A list of field names with ``$contains`` would do too,
  but Chroma 1.5.9 leaves array metadata behind when a collection is deleted, and a new
  collection's records inherit it.)

Used by the embedded index (:mod:`memvault.backends.chroma`) and the server backend
(:mod:`memvault.backends.chroma_server`) alike.
"""

from __future__ import annotations

import json
import re
from typing import Any

from memvault.errors import InvalidArgumentError
from memvault.filters import Scalar, compile_filter
from memvault.model import Clauses, Namespace, Provenance, Record, Validity

DEFAULT_COLLECTION = "memvault"
"""The collection a store uses unless told otherwise (embedded and on a server)."""

_COLLECTION_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]")


def check_collection(name: object) -> str:
    """A Chroma collection name: 3-512 characters of ``[a-zA-Z0-9._-]``, alphanumeric ends.

    Raises:
        InvalidArgumentError: Otherwise.
    """
    if not isinstance(name, str) or not _COLLECTION_NAME.fullmatch(name):
        raise InvalidArgumentError(
            "collection must be 3-512 characters of letters, digits, '.', '_' and '-', "
            f"starting and ending with a letter or digit, got {name!r:.80}"
        )
    return name


NEVER = 1e18
"""``mv.expires`` of items that never expire (about 31.7 billion years from 1970)."""

PAGE = 5000
"""Records per ``collection.get`` page."""


def _field_value(value: Any) -> Any:
    """A value field as Chroma stores it: numbers as float (int and float compare alike)."""
    if isinstance(value, (bool, str)):
        return value
    return float(value)


def metadata_of(record: Record) -> dict[str, Any]:
    """A record's Chroma metadata (see the module docstring)."""
    fields = {
        name: _field_value(value)
        for name, value in record.value.items()
        if name != "text" and isinstance(value, (str, int, float, bool))
    }
    whole = {
        "ns": list(record.namespace),
        "key": record.key,
        "created": record.created_at,
        "updated": record.updated_at,
        "valid_from": record.valid_from,
        "valid_to": record.valid_to,
        "value": record.value,
        "origin": record.provenance.origin,
        "session": record.provenance.session,
    }
    metadata: dict[str, Any] = {
        "mv.record": json.dumps(whole, ensure_ascii=False),
        "mv.expires": NEVER if record.expires_at is None else record.expires_at,
        "mv.valid_from": record.valid_from,
        "mv.valid_to": NEVER if record.valid_to is None else record.valid_to,
    }
    metadata.update(
        {
            f"mv.ns.{depth}": json.dumps(list(record.namespace[:depth]), ensure_ascii=False)
            for depth in range(1, len(record.namespace) + 1)
        }
    )
    metadata.update({f"u.{name}": value for name, value in fields.items()})
    metadata.update({f"h.{name}": True for name in fields})
    return metadata


def record_of(metadata: dict[str, Any]) -> Record:
    """The record a Chroma metadata dict holds (the inverse of :func:`metadata_of`).

    A record written before validity existed holds from its ``updated_at``, still; one
    written before provenance existed was written through the API, in no session.
    """
    expires = metadata["mv.expires"]
    whole = json.loads(metadata["mv.record"])
    return Record(
        namespace=tuple(whole["ns"]),
        key=whole["key"],
        value=whole["value"],
        created_at=whole["created"],
        updated_at=whole["updated"],
        expires_at=None if expires >= NEVER else expires,
        valid_from=whole.get("valid_from"),
        valid_to=whole.get("valid_to"),
        provenance=Provenance(whole.get("origin", "api"), whole.get("session")),
    )


def has_validity(metadata: dict[str, Any]) -> bool:
    """Whether a record's metadata holds ``mv.valid_from``/``mv.valid_to`` (see above)."""
    return "mv.valid_to" in metadata and "mv.valid_from" in metadata


Where = dict[str, Any]
"""A Chroma ``where`` condition."""


class ChromaWhere:
    """:class:`~memvault.filters.FilterDialect` of Chroma ``where`` conditions.

    A value field ``f`` is kept as ``u.f`` (numbers as floats) with the marker ``h.f``, so
    that a condition needing the field to be there (``differs``) says so: Chroma's ``$ne``
    alone also matches records that lack the field. Chroma compares values of one type only,
    so a bool never equals a number and a str never equals either.
    """

    def equals(self, field: str, operand: Scalar) -> Where:
        """See :meth:`FilterDialect.equals <memvault.filters.FilterDialect.equals>`."""
        return {f"u.{field}": {"$eq": _field_value(operand)}}

    def differs(self, field: str, operand: Scalar) -> Where:
        """See :meth:`FilterDialect.differs <memvault.filters.FilterDialect.differs>`."""
        return {"$and": [{f"h.{field}": True}, {f"u.{field}": {"$ne": _field_value(operand)}}]}

    def compares(self, field: str, operator: str, operand: float) -> Where:
        """See :meth:`FilterDialect.compares <memvault.filters.FilterDialect.compares>`."""
        return {f"u.{field}": {operator: operand}}

    def any_of(self, conditions: list[Where]) -> Where:
        """See :meth:`FilterDialect.any_of <memvault.filters.FilterDialect.any_of>`."""
        return conditions[0] if len(conditions) == 1 else {"$or": conditions}

    def all_of(self, conditions: list[Where]) -> Where:
        """See :meth:`FilterDialect.all_of <memvault.filters.FilterDialect.all_of>`.

        ``[]`` gives ``{}``, which :func:`where` leaves out.
        """
        if len(conditions) == 1:
            return conditions[0]
        return {"$and": conditions} if conditions else {}


CHROMA_WHERE = ChromaWhere()


def where(
    prefix: Namespace, clauses: Clauses, now: float | None, valid: Validity | None = None
) -> dict[str, Any] | None:
    """The Chroma ``where`` for a namespace prefix, filter clauses, liveness and validity.

    Args:
        prefix: A namespace prefix; ``()`` covers everything.
        clauses: Filter clauses (:func:`memvault.filters.normalize_filter`).
        now: Unix seconds; ``None`` keeps expired records too.
        valid: Which records by their validity; ``None``: all.
    """
    parts: list[dict[str, Any]] = []
    if prefix:
        parts.append({f"mv.ns.{len(prefix)}": json.dumps(list(prefix), ensure_ascii=False)})
    if now is not None:
        parts.append({"mv.expires": {"$gt": now}})
    if valid is not None:
        parts.append({"mv.valid_to": {"$gt": valid.since}})
        if valid.until is not None:
            parts.append({"mv.valid_from": {"$lte": valid.until}})
    if clauses:
        parts.append(compile_filter(clauses, CHROMA_WHERE))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else {"$and": parts}


def nearest_where(
    prefix: Namespace, clauses: Clauses, now: float, valid: Validity
) -> tuple[dict[str, Any] | None, bool]:
    """The ``where`` of a nearest-neighbour query, and whether it left liveness out.

    With a namespace prefix and no filter, liveness and validity are left out: a clause that
    nearly every record matches makes Chroma materialise them all. The caller then checks
    both on the hits (:meth:`Record.live <memvault.model.Record.live>`,
    :meth:`Record.holds <memvault.model.Record.holds>`).
    """
    if prefix and not clauses:
        return where(prefix, [], None), True
    return where(prefix, clauses, now, valid), False
