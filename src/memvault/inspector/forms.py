"""The fields of a query string or a submitted form, each read once and checked.

A field's problem is an :class:`~memvault.errors.InvalidArgumentError` naming the field and
the fix, which the inspector answers with ``400`` (:mod:`memvault.inspector.app`) and no
change. A form is read from the body :class:`~memvault.inspector.security.Guard` has
capped, must be ``application/x-www-form-urlencoded`` UTF-8, and must carry the inspector's
form token (:data:`~memvault.inspector.security.FORM_FIELD`): a form posted by another site
cannot know it.
"""

from __future__ import annotations

import math
import re
from urllib.parse import parse_qsl

from starlette.requests import Request

from memvault.errors import InvalidArgumentError, shown
from memvault.inspector.security import FORM_FIELD, same_secret

MAX_FIELDS = 20
"""Most fields a query string or form may hold (the inspector's have at most five)."""

FORM_TYPE = "application/x-www-form-urlencoded"
"""The one form encoding taken (what an HTML form without files sends)."""


class Fields:
    """The fields of a query string or form, each name given at most once.

    Args:
        pairs: ``(name, value)`` pairs as sent.
        where: ``"query"`` or ``"form"``, for messages.

    Raises:
        InvalidArgumentError: If a name is given twice, or there are over
            :data:`MAX_FIELDS` fields.
    """

    def __init__(self, pairs: list[tuple[str, str]], where: str) -> None:
        if len(pairs) > MAX_FIELDS:
            raise InvalidArgumentError(
                f"the {where} has {len(pairs)} fields; the inspector's have at most {MAX_FIELDS}"
            )
        self.where = where
        self.values: dict[str, str] = {}
        for name, value in pairs:
            if name in self.values:
                raise InvalidArgumentError(
                    f"field {name[:40]!r} is given twice in the {where}; give it once"
                )
            self.values[name] = value

    def text(self, name: str, *, required: bool = False) -> str | None:
        """The field's value as sent, or None if absent.

        Raises:
            InvalidArgumentError: If ``required`` and absent.
        """
        value = self.values.get(name)
        if value is None and required:
            raise InvalidArgumentError(
                f"field {name!r} is missing from the {self.where}: use the inspector's own form"
            )
        return value

    def number(self, name: str) -> float:
        """A required finite number (a memory's ``updated_at``, Unix seconds).

        Raises:
            InvalidArgumentError: If absent, not a number, or not finite.
        """
        text = self.text(name, required=True)
        assert text is not None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise InvalidArgumentError(
                f"field {name!r} must be a number of seconds such as 1764860400.5, got "
                f"{shown(text)}"
            )
        return value

    def count(self, name: str, *, default: int, maximum: int) -> int:
        """An optional whole number from 1 to ``maximum`` (a page number).

        Raises:
            InvalidArgumentError: If given and not digits, or out of range.
        """
        text = self.values.get(name)
        if text is None:
            return default
        if not re.fullmatch(r"[0-9]{1,9}", text) or not 1 <= int(text) <= maximum:
            raise InvalidArgumentError(
                f"field {name!r} must be a whole number from 1 to {maximum}, got {shown(text)}"
            )
        return int(text)

    def choice(self, name: str, choices: tuple[str, ...], default: str) -> str:
        """An optional field that is one of ``choices``.

        Raises:
            InvalidArgumentError: If given and not one of them.
        """
        text = self.values.get(name)
        if text is None or text == "":
            return default
        if text not in choices:
            raise InvalidArgumentError(
                f"field {name!r} must be one of {', '.join(choices)}, got {shown(text)}"
            )
        return text

    def confirmed(self) -> None:
        """Check the form came from a confirmation page (its field ``confirmed=yes``).

        Raises:
            InvalidArgumentError: Otherwise.
        """
        if self.values.get("confirmed") != "yes":
            raise InvalidArgumentError(
                "field 'confirmed' must be 'yes': confirm on the confirmation page first"
            )


def query_fields(request: Request) -> Fields:
    """The fields of the request's query string.

    Raises:
        InvalidArgumentError: As :class:`Fields` does.
    """
    return Fields(list(request.query_params.multi_items()), "query")


async def read_form(request: Request, form_token: str) -> Fields:
    """The fields of a submitted form, its form token checked.

    Args:
        request: A ``POST`` whose body the guard has capped.
        form_token: The inspector's form token.

    Raises:
        InvalidArgumentError: If the body is not a UTF-8 urlencoded form, or a field
            repeats, or the form token is missing or wrong (then the message says to reload
            the page).
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != FORM_TYPE:
        raise InvalidArgumentError(
            f"the body must be a form ({FORM_TYPE}), got {kind[:60]!r}: use the inspector's "
            "own form"
        )
    try:
        text = (await request.body()).decode("utf-8")
        pairs = parse_qsl(
            text,
            keep_blank_values=True,
            strict_parsing=bool(text),
            max_num_fields=MAX_FIELDS,
            errors="strict",
        )
    except UnicodeDecodeError:
        raise InvalidArgumentError(
            "the form cannot be read: it is not UTF-8; use the inspector's own form"
        ) from None
    except ValueError as error:  # a malformed pair, or over MAX_FIELDS fields
        raise InvalidArgumentError(
            f"the form cannot be read ({error}; at most {MAX_FIELDS} fields): use the "
            "inspector's own form"
        ) from None
    fields = Fields(pairs, "form")
    if not same_secret(fields.values.get(FORM_FIELD), form_token):
        raise InvalidArgumentError(
            f"field {FORM_FIELD!r} is missing or not this inspector's: reload the page and "
            "submit its form again"
        )
    return fields
