"""Reading conversation files into turns the store can hold.

Two shapes are read:

- OpenAI-style chat messages, ``{"role": "user", "content": "..."}``, as a JSON array, a JSON
  object with a ``"messages"`` array, or JSON Lines (one message a line). ``content`` may also be
  a list of parts (``{"type": "text", "text": ...}``): its text parts are read. System and tool
  messages are skipped, and so are messages without text: an assistant's tool call
  (``"content": null`` with ``"tool_calls"``) and a list of parts without a text part (an
  image). A role is read case-blind; ``assistant`` and the other names models go by
  (:data:`ASSISTANT_ROLES`) make an assistant turn, any other role (a speaker's name) a user
  turn. An
  optional ``"timestamp"`` (Unix seconds or ISO 8601, from 1970 on and before
  :data:`~memvault.items.MAX_SECONDS`) dates a message.
- A LoCoMo conversation (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM
  Agents", ACL 2024): ``speaker_a``, ``speaker_b``, ``session_N`` turns with ``speaker``,
  ``dia_id`` and ``text``, and ``session_N_date_time`` such as ``"1:56 pm on 8 May, 2023"``
  (also when wrapped as ``{"conversation": {...}, "qa": [...]}``). A shared photo's
  ``blip_caption`` is appended to the turn's text.

Each turn of a LoCoMo conversation also gets a ``context`` (:func:`with_context`; call it on
chat-message turns too if wanted): the session's date and the neighbouring turns
(:data:`CONTEXT_BEFORE` before, :data:`CONTEXT_AFTER` after, within the same session), each as
``speaker: text``. The store embeds and indexes it with the text (see
:func:`memvault.lexical.indexed_text`), which is how a short reply such as "Yes, last Friday!"
is still found by what it answers: on the LoCoMo benchmark the window lifts recall@10 of
hybrid search well above the turns alone (``bench/README.md``). Turns an agent saves one at
a time (:meth:`memvault.MemoryScope.save_turns`) get their context from the same function
(:mod:`memvault.turn_context`), dated with :func:`format_session_date`.

Turn keys are ``<source>:<turn id>``, where a file's source (:func:`source_id`) is its name and a
hash of its resolved path: ingesting ``day1/chat.json`` and ``day2/chat.json`` into one namespace
keeps both conversations, and ingesting the same file again updates its turns in place.

What a file's turns may overwrite is decided by :func:`plan_ingest`: a turn changed since by
anyone else (an edit in the inspector, a tool, a forget's rewrite of its context) is kept as
it is, and a turn deleted or erased since is not stored again.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memvault.arguments import check_count
from memvault.errors import ImportFormatError, InvalidArgumentError, shown
from memvault.items import MAX_TEXT_CHARS, validate_time
from memvault.json_text import parse_json
from memvault.model import HistoryEntry, Namespace, Origin
from memvault.periods import MONTH_NAMES
from memvault.truncation import truncated

if TYPE_CHECKING:
    from memvault.store import MemoryStore

SKIPPED_ROLES = ("system", "developer", "tool", "function")
"""Roles whose messages are not turns (read case-blind)."""
ASSISTANT_ROLES = ("assistant", "ai", "bot", "model")
"""Roles (read case-blind) whose messages are the assistant's: OpenAI's ``assistant``,
LangChain's ``ai``, ``bot``, and Gemini's ``model``. Their turns' provenance is
``"assistant"``, which the default trust policy keeps out of prompts
(:data:`~memvault.provenance.DEFAULT_TRUST`)."""
INGEST_SOURCE = "turn"
"""The history source of a turn written by ingesting a conversation (:func:`plan_ingest`)."""
_LOCOMO_DATE = "%I:%M %p on %d %B, %Y"
LAST_DATED_SECOND = 253402300799
"""The last Unix second :func:`format_session_date` can write (9999-12-31 23:59:59 UTC)."""
CONTEXT_BEFORE = 2
"""Turns before a turn that go into its ``context`` (:func:`with_context`'s default). Two
before and one after were chosen leave-one-conversation-out on the LoCoMo benchmark, out of
windows from (1, 0) to (3, 2) (``bench/README.md``): a turn often answers, or goes on from,
what was said just before it."""
CONTEXT_AFTER = 1
"""Turns after a turn that go into its ``context`` (:func:`with_context`'s default)."""
CONTEXT_TURN_CHARS = 2_000
"""Most characters of a turn's text in a ``context`` line; a longer one is cut with a marker
(:func:`~memvault.truncation.truncated`). Every LoCoMo turn (434 characters at most) stays
whole, and the embedder reads only about the first 1,000 characters of a text and its context
together, while a pasted document adds at most this much to each of the four contexts it is in
(its own and its neighbours')."""


@dataclass(frozen=True)
class Turn:
    """One turn of a conversation, ready to store.

    Attributes:
        key: Stable key, ``"<source>:<turn_id>"`` (see :func:`source_id`), so re-ingesting a
            file updates in place.
        text: What was said.
        speaker: The speaker's name or role.
        turn_id: The turn's id in its conversation (LoCoMo ``dia_id`` such as ``"D1:3"``, or
            the 1-based message number).
        session: LoCoMo session number, else None.
        session_date: The session's date as written in the file, else None.
        timestamp: When it was said, Unix seconds (UTC), if known.
        context: Text that helps find the turn without being part of it: the session date
            and the neighbouring turns as ``speaker: text`` lines (see :func:`with_context`).
        origin: Who said it, as its provenance records it (:data:`~memvault.model.Origin`):
            ``"assistant"`` for a chat message of an assistant's role
            (:data:`ASSISTANT_ROLES`), else ``"user"`` (a LoCoMo speaker is a person).
    """

    key: str
    text: str
    speaker: str
    turn_id: str
    session: int | None = None
    session_date: str | None = None
    timestamp: float | None = None
    context: str | None = None
    origin: Origin = "user"

    def value(self) -> dict[str, Any]:
        """The turn as a store value: ``text``, ``context`` and the known fields as metadata.

        A text longer than a memory may hold (:data:`~memvault.items.MAX_TEXT_CHARS`: a
        document pasted into a chat) is cut to it with a marker
        (:func:`~memvault.truncation.truncated`), so that ingesting a conversation never fails
        on one message.
        """
        fields = {
            "text": truncated(self.text, MAX_TEXT_CHARS),
            "speaker": self.speaker,
            "turn_id": self.turn_id,
            "session": self.session,
            "session_date": self.session_date,
            "timestamp": self.timestamp,
            "context": self.context,
        }
        return {name: value for name, value in fields.items() if value is not None}


def with_context(
    turns: list[Turn], *, before: int = CONTEXT_BEFORE, after: int = CONTEXT_AFTER
) -> list[Turn]:
    """Give each turn its ``context``: session date and neighbouring turns of its session.

    Args:
        turns: Turns in conversation order.
        before: Turns taken before each turn, ``>= 0``.
        after: Turns taken after each turn, ``>= 0``. Turns of another session are not taken
            on either side.

    Returns:
        New turns, the same but with ``context`` set to lines ``session_date`` (when known),
        then ``speaker: text`` for each turn of the window (from ``before`` turns before to
        ``after`` turns after) that has words, the turn itself included, each text cut to
        :data:`CONTEXT_TURN_CHARS`.

    Raises:
        InvalidArgumentError: If ``before`` or ``after`` is not an int from 0 to
            :data:`~memvault.arguments.MAX_COUNT`.
    """
    check_count(before, "before", minimum=0)
    check_count(after, "after", minimum=0)
    out = []
    for i, turn in enumerate(turns):
        window = turns[max(0, i - before) : i + after + 1]
        lines = [turn.session_date] if turn.session_date else []
        lines += [
            f"{t.speaker}: {truncated(t.text, CONTEXT_TURN_CHARS)}"
            for t in window
            if t.session == turn.session and t.text.strip()
        ]
        out.append(replace(turn, context="\n".join(lines)))
    return out


def format_session_date(seconds: float, *, field: str = "seconds") -> str:
    """A time written as LoCoMo writes its session dates, e.g. ``"1:56 pm on 8 May, 2023"``.

    The date line of the ``context`` of a turn saved by an agent
    (:mod:`memvault.turn_context`), so that its words are those of an ingested LoCoMo turn: a
    LoCoMo session's time, read by :func:`parse_locomo` and written back, gives the file's
    string again. English month names whatever the locale; UTC.

    Args:
        seconds: Unix seconds (UTC), from 0 to :data:`LAST_DATED_SECOND`.
        field: What the caller calls ``seconds``, named in the error.

    Returns:
        ``"<hour 1-12>:<minute> <am|pm> on <day> <Month>, <year>"``.

    Raises:
        InvalidArgumentError: If ``seconds`` is not such a time (NaN, negative, past 9999).
    """
    seconds = validate_time(seconds, field)
    if seconds > LAST_DATED_SECOND:
        raise InvalidArgumentError(
            f"{field} must be at most {LAST_DATED_SECOND} (the end of year 9999) to be written "
            f"as a date, got {shown(seconds)}"
        )
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    hour = moment.hour % 12 or 12
    noon = "am" if moment.hour < 12 else "pm"
    month = MONTH_NAMES[moment.month - 1]
    return f"{hour}:{moment.minute:02d} {noon} on {moment.day} {month}, {moment.year}"


def _fail(source: str, problem: str) -> ImportFormatError:
    return ImportFormatError(f"{source}: {problem}")


def _timestamp(raw: Any, source: str, where: str) -> float | None:
    """A message's time as Unix seconds, checked as every stored time is (:func:`validate_time`).

    Raises:
        ImportFormatError: If it is neither Unix seconds nor ISO 8601, or out of range (before
            1970, NaN, 1e300), naming ``where``.
    """
    if raw is None:
        return None
    seconds: Any = None
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        seconds = raw
    elif isinstance(raw, str):
        try:
            moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
            seconds = moment.timestamp()
    if seconds is None:
        raise _fail(
            source, f"{where}: timestamp must be Unix seconds or ISO 8601, got {shown(raw)}"
        )
    try:
        return validate_time(seconds, "timestamp")
    except InvalidArgumentError as error:
        raise _fail(source, f"{where}: {error}") from None


def content_text(content: Any) -> str | None:
    """A message's ``content`` as text: a string, or the text parts of an OpenAI-style list.

    Args:
        content: ``"..."``, or ``[{"type": "text", "text": "..."}, {"type": "image_url",
            ...}]``.

    Returns:
        The text (text parts joined by newlines), or ``None`` for anything else or a list
        without text.
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str)) or None
    return None


def source_id(path: str | Path) -> str:
    """The source part of the keys of a conversation file's turns.

    Path-derived rather than content-derived: a chat log that grew since it was last ingested
    keeps its source, so its earlier turns are updated rather than stored twice, and two files
    of the same name in different folders never share keys. Moving or renaming a file gives it
    a new source (ingesting it again then stores its turns anew).

    Args:
        path: The conversation file.

    Returns:
        ``"<file stem>-<12 hex digits>"``: the digits start the SHA-256 of the file's resolved
        absolute path, e.g. ``"chat-3f9a0c41d2b7"``.
    """
    path = Path(path)
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{path.stem}-{digest[:12]}"


def parse_messages(messages: Any, *, source: str, prefix: str | None = None) -> list[Turn]:
    """Turns from OpenAI-style messages.

    Args:
        messages: A list of ``{"role": str, "content": str | list[part]}`` dicts.
        source: Names the conversation in errors (a file path).
        prefix: What keys start with (``"<prefix>:<message number>"``); default ``source``.

    Raises:
        ImportFormatError: If ``messages`` is not a list of such dicts, a role is empty, or a
            message's content is neither text, nor a list of parts, nor a tool call's ``null``
            (the message says which and what is wrong).
    """
    if not isinstance(messages, list):
        raise _fail(source, f"expected a list of messages, got {type(messages).__name__}")
    turns = []
    for number, message in enumerate(messages, 1):
        where = f"message {number}"
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            raise _fail(source, f"{where} must be an object with a string 'role'")
        role = message["role"].strip().lower()
        if not role:
            raise _fail(
                source,
                f'{where} has an empty \'role\'; give who said it, such as "user" or "assistant"',
            )
        if role in SKIPPED_ROLES:
            continue
        text = _message_text(message, source, where)
        if text is None or not text.strip():
            continue
        turns.append(
            Turn(
                key=f"{prefix or source}:{number}",
                text=text,
                speaker=message.get("name") or message["role"].strip(),
                turn_id=str(number),
                timestamp=_timestamp(message.get("timestamp"), source, where),
                origin="assistant" if role in ASSISTANT_ROLES else "user",
            )
        )
    return turns


def _message_text(message: dict[str, Any], source: str, where: str) -> str | None:
    """A chat message's text, or ``None`` for a message without text (a tool call, an image).

    Raises:
        ImportFormatError: If the message has no ``content``, a ``null`` one without
            ``tool_calls`` (or ``function_call``), a list with a part that is not an object
            with a string ``type``, or a content of another kind; names ``where`` and what is
            wrong.
    """
    if "content" not in message:
        raise _fail(source, f"{where} has no 'content'; give its text as a string")
    content = message["content"]
    if content is None:
        if message.get("tool_calls") or message.get("function_call"):
            return None
        raise _fail(
            source, f"{where}: 'content' is null and the message has no 'tool_calls'; give its text"
        )
    if isinstance(content, list):
        for index, part in enumerate(content, 1):
            if not isinstance(part, dict) or not isinstance(part.get("type"), str):
                raise _fail(
                    source,
                    f"{where}: part {index} of 'content' must be an object with a 'type' such "
                    f'as {{"type": "text", "text": ...}}, got {shown(part)}',
                )
        return content_text(content)
    if not isinstance(content, str):
        raise _fail(
            source,
            f"{where}: 'content' must be a string or a list of parts such as "
            f'{{"type": "text", "text": ...}}, got {type(content).__name__} {shown(content)}',
        )
    return content


def parse_locomo(
    conversation: dict[str, Any], *, source: str, prefix: str | None = None
) -> list[Turn]:
    """Turns from a LoCoMo conversation object (see the module docstring).

    Args:
        conversation: The object with ``speaker_a``, ``session_N`` and ``session_N_date_time``.
        source: Names the conversation in errors (a file path).
        prefix: What keys start with (``"<prefix>:<dia_id>"``); default ``source``.

    Raises:
        ImportFormatError: If a session is not a list of turns with ``speaker``, ``dia_id`` and
            ``text`` strings, or its date is before 1970.
    """
    sessions = sorted(
        (int(match.group(1)), name)
        for name in conversation
        if (match := re.fullmatch(r"session_(\d+)", name))
    )
    turns = []
    for number, name in sessions:
        date: Any = conversation.get(f"{name}_date_time")
        try:
            moment = datetime.strptime(date, _LOCOMO_DATE).replace(tzinfo=timezone.utc)
        except (TypeError, ValueError):
            stamp = None
        else:
            stamp = _timestamp(moment.timestamp(), source, f"{name}_date_time")
        if not isinstance(conversation[name], list):
            raise _fail(source, f"{name} must be a list of turns")
        for turn in conversation[name]:
            if not isinstance(turn, dict) or not all(
                isinstance(turn.get(field), str) for field in ("speaker", "dia_id", "text")
            ):
                raise _fail(source, f"{name}: each turn needs 'speaker', 'dia_id' and 'text'")
            text = turn["text"]
            if isinstance(turn.get("blip_caption"), str):
                text = f"{text} [shares {turn['blip_caption']}]"
            turns.append(
                Turn(
                    key=f"{prefix or source}:{turn['dia_id']}",
                    text=text,
                    speaker=turn["speaker"],
                    turn_id=turn["dia_id"],
                    session=number,
                    session_date=date if isinstance(date, str) else None,
                    timestamp=stamp,
                )
            )
    return turns


def load_conversation(path: str | Path) -> list[Turn]:
    """Read a conversation file (any shape in the module docstring) into turns.

    Args:
        path: A ``.json`` or ``.jsonl`` file, UTF-8 (a byte order mark first, as Windows
            saves one, is read as none).

    Returns:
        The turns in file order, keyed ``"<source_id(path)>:<turn id>"`` (see :func:`source_id`);
        LoCoMo turns with their ``context`` (see :func:`with_context`).

    Raises:
        ImportFormatError: If the file is missing, empty, not JSON (or JSON nested too deeply
            for Python's parser), of no known shape, or has a timestamp out of range; the message
            names the file and the problem. Nothing is returned half-read.
    """
    path = Path(path)
    source, prefix = str(path), source_id(path)
    try:
        raw = path.read_text(encoding="utf-8-sig")  # a BOM (Windows) is not text
    except UnicodeDecodeError:
        raise _fail(source, "not UTF-8 text; save the file as UTF-8") from None
    except OSError as error:
        raise _fail(source, f"cannot read the file ({error.strerror})") from None
    if not raw.strip():
        raise _fail(source, "the file is empty; give a conversation (a list of messages)")
    lines = raw.splitlines() if path.suffix == ".jsonl" else [raw]
    data: Any = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data.append(parse_json(line))
        except json.JSONDecodeError as error:
            at = number if path.suffix == ".jsonl" else error.lineno
            problem = error.msg.removesuffix(" at")  # "Invalid control character at"
            raise _fail(
                source, f"malformed JSON at line {at}, column {error.colno}: {problem}"
            ) from None
        except ValueError as error:  # nested too deeply, an int of more than 4,300 digits
            raise _fail(
                source,
                f"unreadable JSON at line {number}: {error}; a conversation is a list of messages",
            ) from None
    if path.suffix != ".jsonl":
        data = data[0] if data else None
    if isinstance(data, dict) and isinstance(data.get("conversation"), dict):
        data = data["conversation"]
    if isinstance(data, dict) and "speaker_a" in data:
        turns = with_context(parse_locomo(data, source=source, prefix=prefix))
    elif isinstance(data, dict) and "messages" in data:
        turns = parse_messages(data["messages"], source=source, prefix=prefix)
    elif isinstance(data, list):
        turns = parse_messages(data, source=source, prefix=prefix)
    else:
        raise _fail(
            source,
            "not a conversation: expected a list of {role, content} messages, an object with "
            "'messages', or a LoCoMo conversation with 'speaker_a' and 'session_N'",
        )
    if not turns:
        raise _fail(source, "the conversation has no turns with text")
    return turns


@dataclass(frozen=True)
class IngestPlan:
    """Which turns of a conversation ingesting it writes, and which it leaves alone.

    Attributes:
        write: The turns to write, in file order: new ones, and those whose memory was last
            written by an ingest (written again as they are, they change nothing) or expired.
        kept: Keys of turns changed since their last ingest by another source (``"ui"``,
            ``"api"``, ``"tool"``, a forget rewriting its context...): their memory stays as it
            is, the file's text does not undo the change.
        forgotten: Keys of turns deleted or erased since: they are not stored again.
    """

    write: list[Turn]
    kept: list[str]
    forgotten: list[str]


def _left_alone(entries: list[HistoryEntry]) -> str | None:
    """Why a turn whose key has these history entries (oldest first) is not written.

    ``"kept"``, ``"forgotten"``, or ``None`` where it is written.

    The last entry decides; a ``"restore"`` (the same version re-created when a lost record
    file was rebuilt) decides nothing. An ``"expire"`` is the store's clock, not anyone's
    choice: the turn is written again (with the ingest's TTL, as a first ingest would).
    """
    decisive = [entry for entry in entries if entry.source != "restore"]
    if not decisive:
        return None
    last = decisive[-1]
    if last.event in ("delete", "erase"):
        return "forgotten"
    if last.event == "expire" or last.source == INGEST_SOURCE:
        return None
    return "kept"


def plan_ingest(store: MemoryStore, namespace: Namespace, turns: list[Turn]) -> IngestPlan:
    """Which of a conversation's turns ingesting it into ``namespace`` may write.

    The history of ``namespace`` (that namespace exactly) is read in one pass
    (:meth:`Backend.history_under <memvault.backends.base.Backend.history_under>`): nothing
    per turn, so a first ingest into an empty namespace reads nothing.

    Args:
        store: The store the turns go to.
        namespace: Where, e.g. ``("users", "alice")`` (already checked).
        turns: The conversation's turns (:func:`load_conversation`).

    Returns:
        The plan (:class:`IngestPlan`): a turn whose key's history ends with a change by
        another source than :data:`INGEST_SOURCE` is kept, one that ends deleted or erased is
        forgotten, the others are written.

    Raises:
        MemvaultError: As the backend's history read raises (a closed store, a lost
            connection).
    """
    wanted = {turn.key for turn in turns}
    histories: dict[str, list[HistoryEntry]] = {}
    for entry in store.backend.history_under(namespace):
        if entry.namespace == namespace and entry.key in wanted:
            histories.setdefault(entry.key, []).append(entry)
    write: list[Turn] = []
    kept: list[str] = []
    forgotten: list[str] = []
    for turn in turns:
        why = _left_alone(histories.get(turn.key, []))
        if why is None:
            write.append(turn)
        else:
            (kept if why == "kept" else forgotten).append(turn.key)
    return IngestPlan(write=write, kept=kept, forgotten=forgotten)
