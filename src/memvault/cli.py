r"""The ``memvault`` command line: ingest conversations, search and manage a store.

Namespaces are written with ``/`` between segments (``users/alice``); a segment containing ``/``
or ``\`` escapes it with a backslash (``users/a\/b`` is ``("users", "a/b")``). Every command
takes ``--path`` (default ``$MEMVAULT_PATH``, else the per-user data folder) and, but ``mcp``
and ``ui`` (servers), ``--json`` for machine-readable output; ``memvault --dsn postgresql://...
COMMAND`` (or ``$MEMVAULT_DSN``) keeps the store in a PostgreSQL database instead
(:class:`~memvault.PostgresBackend`), in the schema ``memvault`` unless ``--schema`` (or
``$MEMVAULT_SCHEMA``) names another.

What a store holds is printed terminal-safe: each control character of a namespace, key,
speaker or text (a newline, an ANSI escape) is shown escaped (``\n``, ``\x1b``), and so is each
invisible format character (a bidi override ``\u202e``, a zero-width space ``\u200b``, a line
separator ``\u2028``; emoji sequences print whole), so a stored memory can neither forge an
output line, nor reorder one, nor drive the terminal.

Every error is one line on stderr starting with ``error:``, never a traceback; a warning (a
store that repaired itself) is one line starting with ``warning:``, without Python's source
line. A usage error (an unknown option or command, a missing argument, an option value of the
wrong type or out of range, an empty search query) exits with status 2, as click's usage errors
do; anything else wrong (a missing file, malformed or too deeply nested JSON, a bad filter, an
absent memory, a damaged store, any :class:`~memvault.errors.MemvaultError`) exits with status
1. An unexpected exception (a bug) is one line too, ``error: <type>: <message>``, with status 1.
"""

from __future__ import annotations

import enum
import importlib.metadata
import json
import shutil
import sys
import tempfile
import unicodedata
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from typer.core import TyperGroup

from memvault.arguments import DEFAULT_SEARCH_MODE, MAX_COUNT
from memvault.backends.postgres.connections import check_dsn
from memvault.backends.postgres.schema import DEFAULT_SCHEMA, check_schema_name
from memvault.errors import (
    ImportFormatError,
    InvalidArgumentError,
    InvalidFilterError,
    MemvaultError,
)
from memvault.inspector import DEFAULT_PORT
from memvault.model import SEARCH_MODES, Namespace, Provenance
from memvault.namespace import format_namespace_path, parse_namespace_path, template_fields
from memvault.unseen import EMOJI_SEQUENCES

if TYPE_CHECKING:
    from memvault.config import MemoryConfig
    from memvault.items import MemoryItem
    from memvault.model import HistoryEntry
    from memvault.store import MemoryStore

# What a command needs to run (the store, the model, Chroma, numpy, pydantic) is imported in
# the command that runs, so that `memvault --version` and `--help` start at once.

# typer re-exports click's BadParameter (from its own copy of click in recent releases); its
# bases are click's UsageError (exit status 2) and ClickException (every error click reports).
_UsageError: Any = typer.BadParameter.__base__
_ClickException: Any = _UsageError.__base__

out = Console(highlight=False, soft_wrap=True, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSEEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))
"""Unicode categories escaped when printed: control characters (C0, DEL, C1), format
characters (bidi embeddings, overrides, isolates and marks, zero-width spaces and joiners, the
word joiner, the byte order mark, tag characters), line and paragraph separators (U+2028,
U+2029), and lone surrogates (a file name that was not UTF-8)."""


def _escaped(char: str) -> str:
    r"""One character as :func:`_shown` prints it: itself, or escaped.

    Escaped as ``\n``, ``\x1b``, ``\u202e`` or ``\U000e0041``.
    """
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    if unicodedata.category(char) not in _UNSEEN:
        return char
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def _shown(text: str) -> str:
    r"""``text`` safe to print: each character a reader does not see escaped.

    Control characters (``\n``, ``\x1b``, ``\x9b``), format characters such as bidi overrides
    and zero-width spaces (``\u202e``, ``\u200b``), and line and paragraph separators
    (``\u2028``) are escaped (:data:`_UNSEEN`); emoji sequences stay whole
    (:data:`memvault.unseen.EMOJI_SEQUENCES`),
    so a stored text can neither forge an output line, nor reorder what is printed, nor
    drive the terminal.
    """
    shown, start = [], 0
    for ordinary in EMOJI_SEQUENCES.finditer(text):
        shown += [_escaped(char) for char in text[start : ordinary.start()]]
        shown.append(ordinary.group())
        start = ordinary.end()
    shown += [_escaped(char) for char in text[start:]]
    return "".join(shown)


def _error(message: str, kind: str = "error") -> None:
    r"""Print ``<kind>: <message>`` as one line on stderr.

    Escaped as :func:`_shown` does: a lone surrogate as ``\udcff``, a bidi override as
    ``\u202e``.
    """
    line = _shown(" ".join(message.split()))
    err.print(f"{kind}: {line}", markup=False)


def _warning(message: Warning | str, *_: Any, **__: Any) -> None:
    """Show a warning as one ``warning: <message>`` line on stderr, without Python's source line.

    Stands in for :func:`warnings.showwarning` (same arguments) while a command runs: a store
    that repaired itself (a :class:`~memvault.errors.MemvaultWarning`) says so in one line.
    """
    _error(str(message), "warning")


class _Commands(TyperGroup):
    """memvault's command group: every error becomes one ``error:`` line on stderr."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; exit 2 on a usage error and 1 on any other error."""
        if not standalone_mode:
            return super().main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra
            )
        try:
            with warnings.catch_warnings():
                warnings.showwarning = _warning
                code = super().main(
                    args,
                    prog_name,
                    complete_var,
                    standalone_mode=False,
                    windows_expand_args=windows_expand_args,
                    **extra,
                )
        except _UsageError as error:
            message = error.format_message().rstrip(".")
            if message[:2].istitle():  # click's "No such option" -> "no such option"
                message = message[0].lower() + message[1:]
            ctx = getattr(error, "ctx", None)
            hint = f"see '{ctx.command_path if ctx else 'memvault'} -h'"
            message, hint = _misplaced(ctx, getattr(error, "option_name", None)) or (message, hint)
            _error(f"{message} ({hint})")
            sys.exit(2)
        except _ClickException as error:
            _error(error.format_message())
            sys.exit(getattr(error, "exit_code", 1))
        except MemvaultError as error:
            _error(str(error))
            sys.exit(1)
        except typer.Abort:
            _error("aborted")
            sys.exit(1)
        except Exception as error:  # never a traceback: name the unexpected error in one line
            _error(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _misplaced(ctx: Any, option: str | None) -> tuple[str, str] | None:
    """The message and help hint for an unknown option another level takes, or None.

    ``--dsn`` and ``--schema`` belong to ``memvault`` itself, before the command; ``--path``,
    ``--json`` and the rest belong to the commands, after it. ``--version`` and ``--help``,
    which act at once, are left to click's own message.
    """
    if ctx is None or option is None:
        return None
    root = ctx.find_root()
    if ctx.parent is not None:  # a command's context: does memvault itself take it?
        if any(option in p.opts and not p.is_flag for p in root.command.params):
            message = (
                f"{option} goes before the command: 'memvault {option} ... {ctx.info_name} ...'"
            )
            return message, "see 'memvault -h'"
        return None
    commands = root.command.commands
    names = [name for name, c in commands.items() if any(option in p.opts for p in c.params)]
    if not names:
        return None
    if len(names) > len(commands) / 2:  # most commands take it: naming them all is noise
        return f"{option} goes after the command: 'memvault COMMAND {option} ...'", (
            "see 'memvault COMMAND -h'"
        )
    usage = f"'memvault {names[0]} {option} ...'"
    message = f"{option} is an option of {', '.join(names)}, after the command: {usage}"
    return message, f"see 'memvault {names[0]} -h'"


app = typer.Typer(
    cls=_Commands,
    help="memvault: long-term memory for LLM agents, on an embedded Chroma store.",
    rich_markup_mode=None,  # plain help: flags without a <bool> type
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    add_completion=False,
)


@dataclass
class _Run:
    """What one run of the CLI was told and opened: the click context's ``obj`` (root's).

    Attributes:
        dsn: ``--dsn`` or ``$MEMVAULT_DSN``; ``None``: a folder.
        dsn_given: Whether the command line gave ``--dsn`` (not the variable).
        schema: ``--schema``.
        path_given: Whether the command line gave ``--path`` (not ``$MEMVAULT_PATH``).
        opened: The stores this run opened; closed when the command ends.
    """

    dsn: str | None = None
    dsn_given: bool = False
    schema: str = DEFAULT_SCHEMA
    path_given: bool = False
    opened: list[MemoryStore] = field(default_factory=list)

    def close(self) -> None:
        """Close the stores this run opened (a database's connections, a folder's lock)."""
        while self.opened:
            self.opened.pop().close()


def _run(ctx: typer.Context) -> _Run:
    """This run's state, kept on the root context (made there by :func:`_root`)."""
    root = ctx.find_root()
    if not isinstance(root.obj, _Run):
        root.obj = _Run()
    return root.obj


def _path_source(ctx: typer.Context, param: typer.CallbackParam, value: Path | None) -> Path | None:
    """Record whether ``--path`` came from the command line (see :func:`_postgres`)."""
    source = ctx.get_parameter_source(param.name)  # click's ParameterSource, as typer bundles it
    _run(ctx).path_given = source is not None and source.name == "COMMANDLINE"
    return value


StorePath = Annotated[
    Optional[Path],  # noqa: UP045 - typer reads the annotation at run time on Python 3.10
    typer.Option(
        "--path",
        envvar="MEMVAULT_PATH",
        help="Store folder (default: per-user data folder).",
        callback=_path_source,
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
NamespaceOption = Annotated[
    str, typer.Option("--namespace", "-n", help="Namespace, segments separated by '/'.")
]
PrefixOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--namespace", "-n", help="Namespace prefix ('/'-separated); default: all."),
]
Key = Annotated[str, typer.Argument(metavar="KEY", help="The memory's key.")]
BATCH = 64


# mypy cannot list members made from a variable; typer reads them at run time
ModeChoice = enum.Enum("ModeChoice", {mode: mode for mode in SEARCH_MODES}, type=str)  # type: ignore[misc]
"""The choices of ``search --mode``, made from the store's :data:`~memvault.model.SEARCH_MODES`
(typer reads choices from an enum)."""
DEFAULT_MODE = ModeChoice(DEFAULT_SEARCH_MODE)


def _seconds(value: float | None) -> float | None:
    """Check a number of seconds given on the command line: positive and below MAX_TTL."""
    from memvault.items import MAX_TTL

    if value is not None and not 0 < value < MAX_TTL:  # also refuses nan and inf
        raise typer.BadParameter(
            f"must be a positive number of seconds below {MAX_TTL:.0e}, got {value}"
        )
    return value


def _moment(value: str | None) -> float | None:
    """Read ``--as-of``: an ISO 8601 date or date-time (:func:`memvault.moments.read_moment`)."""
    if value is None:
        return None
    from memvault.moments import read_moment

    try:
        return read_moment(value, "--as-of")
    except InvalidArgumentError as error:
        # the hint named: typer 0.17 adds "(env var: 'None')" to an option's own name
        raise typer.BadParameter(
            str(error).removeprefix("--as-of "), param_hint="'--as-of'"
        ) from None


AsOf = Annotated[
    Optional[float],  # noqa: UP045 - typer reads the annotation at run time on Python 3.10
    typer.Option(
        "--as-of",
        metavar="DATE",
        help="What held at this time, not now: an ISO 8601 date (the end of that day, UTC) "
        "or date-time, e.g. 2023-04-15 or 2023-04-15T10:30:00Z.",
        parser=_moment,
    ),
]


def _query(value: str) -> str:
    """Check a search query given on the command line: some text, not blank.

    The store ranks a blank query by recency (see :meth:`MemoryStore.search`), which is what
    ``memvault list`` is for; on the command line a blank query is a mistake (an empty shell
    variable), so it is refused rather than answered with the most recent memories.
    """
    if not value.strip():
        raise typer.BadParameter(
            "is empty: give some text to search for ('memvault list' shows the most recent "
            "memories)"
        )
    return value


def _postgres(
    ctx: typer.Context, path: Path | None, *, create: bool = True, **options: Any
) -> MemoryStore | None:
    """The store on the PostgreSQL database of ``--dsn``, or None without it.

    An option on the command line wins over the other one's environment variable
    (``--dsn`` over ``$MEMVAULT_PATH``, ``--path`` over ``$MEMVAULT_DSN``). Without
    ``create``, a schema that holds no store is an error (see ``PostgresBackend``).

    Raises:
        click.UsageError: If both a folder and a database are given the same way (status 2).
        InvalidArgumentError: If the store is missing and not to be created.
    """
    run = _run(ctx)
    dsn, dsn_given, schema = run.dsn, run.dsn_given, run.schema
    if dsn is None:
        return None
    if path is not None:
        path_given = run.path_given
        if path_given and not dsn_given:
            return None
        if path_given == dsn_given:  # a usage error (status 2), as click's own are
            raise _UsageError(
                "give a store folder (--path, $MEMVAULT_PATH) or a database (--dsn, "
                "$MEMVAULT_DSN), not both"
            )
    from memvault.backends.postgres.backend import PostgresBackend
    from memvault.store import MemoryStore

    backend = PostgresBackend(dsn, schema=schema, create=create)
    return _kept(ctx, MemoryStore(backend=backend, **options))


def _kept(ctx: typer.Context, store: MemoryStore) -> MemoryStore:
    """``store``, to be closed when the command ends."""
    _run(ctx).opened.append(store)
    return store


def _open(ctx: typer.Context, path: Path | None, **options: Any) -> MemoryStore:
    """Open (or create) the store a writing command uses: ``--dsn``'s, else the folder's."""
    from memvault.backends.chroma import store_folder
    from memvault.store import MemoryStore

    on_postgres = _postgres(ctx, path, **options)
    if on_postgres is not None:
        return on_postgres
    return _kept(ctx, MemoryStore(store_folder(path, option="--path"), **options))


def _existing(ctx: typer.Context, path: Path | None) -> MemoryStore:
    """Open the store for a command that only reads or removes: a mistyped --path is an error."""
    from memvault.backends.chroma import ChromaBackend, default_path
    from memvault.store import MemoryStore

    on_postgres = _postgres(ctx, path, create=False)  # a mistyped --schema is an error too
    if on_postgres is not None:
        return on_postgres

    folder = path.expanduser() if path else default_path()
    if not ChromaBackend.exists(folder):
        raise InvalidArgumentError(
            f"no memvault store at {folder}; check --path (or $MEMVAULT_PATH), or create one "
            "with 'memvault ingest' or 'memvault import'"
        )
    return _kept(ctx, MemoryStore(folder))


def _prefix(text: str | None) -> Namespace:
    """The namespace prefix an option gives: ``()`` (every namespace) when it is left out.

    Raises:
        InvalidNamespaceError: If it is given but empty (``-n ''``) or has an empty segment,
            as ``ingest -n ''`` is refused: leave the option out to reach every namespace.
    """
    return () if text is None else parse_namespace_path(text)


def _json_item(item: MemoryItem) -> dict[str, Any]:
    data = item.model_dump(mode="json")
    data["namespace"] = format_namespace_path(item.namespace)
    return data


def _print_items(items: list[MemoryItem], as_json: bool) -> None:
    """Print memories, one line each ending with when it holds (``(since 2023-06-02)``).

    A memory not written through the API carries who wrote it and in which session after
    that (``[user · thread-1]``, ``[tool]``; :class:`~memvault.model.Provenance`). A memory
    the firewall holds from prompts (:func:`memvault.firewall.held`) is followed by a line
    saying why (``    held: override: 'Ignore all previous instructions'``), wherever it is
    printed (``get``, ``list``, ``search``).
    """
    from memvault.firewall import held_many
    from memvault.moments import validity_text

    if as_json:
        out.print_json(json.dumps([_json_item(i) for i in items], ensure_ascii=False))
        return
    if not items:
        out.print("no memories found")
    reasons = held_many([item.value for item in items])
    for rank, (item, reason) in enumerate(zip(items, reasons), 1):
        score = f"{item.score:.3f} " if item.score is not None else ""
        where = f"{format_namespace_path(item.namespace)} {item.key}"
        speaker = item.value.get("speaker")
        said = f"{speaker}: " if isinstance(speaker, str) else ""
        when = validity_text(item.valid_from, item.valid_to)
        line = f"{rank:>2}. {score}[{where}] {said}{item.text} ({when}){_written_by(item)}"
        out.print(_shown(line), markup=False)
        if reason is not None:
            out.print(_shown(f"    held: {reason}"), markup=False)


def _written_by(item: MemoryItem) -> str:
    """`` [origin · session]`` of a memory's provenance; ``""`` for ``api`` in no session."""
    origin, session = item.provenance.origin, item.provenance.session
    if (origin, session) == ("api", None):
        return ""
    return f" [{origin}]" if session is None else f" [{origin} · {session}]"


def _done(payload: dict[str, Any], as_json: bool, text: str, to: Console = out) -> None:
    """Print ``payload`` as JSON, or ``text`` with each of its lines escaped (:func:`_shown`)."""
    if as_json:
        to.print_json(json.dumps(payload, ensure_ascii=False))
    else:
        to.print("\n".join(map(_shown, text.split("\n"))), markup=False)


def _absent(key: str, namespace: str) -> typer.Exit:
    _error(f"no memory {key!r} in {namespace}")
    return typer.Exit(1)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.")] = False,
    dsn: Annotated[
        Optional[str],  # noqa: UP045 - typer reads the annotation at run time on Python 3.10
        typer.Option(
            "--dsn",
            envvar="MEMVAULT_DSN",
            help="PostgreSQL connection URI: keep the store in that database instead of a "
            "folder; needs pip install 'memvault[postgres]'.",
        ),
    ] = None,
    schema: Annotated[
        str,
        typer.Option(
            "--schema",
            envvar="MEMVAULT_SCHEMA",
            help="With --dsn: the Postgres schema that holds the store's tables (one store "
            "per schema).",
        ),
    ] = DEFAULT_SCHEMA,
) -> None:
    source = ctx.get_parameter_source("dsn")  # click's ParameterSource, as typer bundles it
    given = source is not None and source.name == "COMMANDLINE"
    if given and not dsn:  # an empty $MEMVAULT_DSN means none, an empty --dsn is a mistake
        raise typer.BadParameter(
            "is empty: give a PostgreSQL connection URI, or leave --dsn out to use a folder",
            param_hint="'--dsn'",
        )
    schema_source = ctx.get_parameter_source("schema")
    if not dsn and schema_source is not None and schema_source.name == "COMMANDLINE":
        raise typer.BadParameter(
            "names a Postgres schema, which only a database has: give --dsn too (or $MEMVAULT_DSN)",
            param_hint="'--schema'",
        )
    if dsn:
        for option, check, value in (
            ("--dsn", check_dsn, dsn),
            ("--schema", check_schema_name, schema),
        ):
            try:
                check(value)
            except InvalidArgumentError as error:
                raise typer.BadParameter(str(error), param_hint=f"'{option}'") from None
            except ImportError:  # without psycopg, opening the store says what to install
                pass
    run = _run(ctx)
    run.dsn, run.dsn_given, run.schema = dsn or None, given, schema
    ctx.call_on_close(run.close)
    if version:
        out.print(f"memvault {importlib.metadata.version('memvault')}", markup=False)
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        out.print(ctx.get_help(), markup=False)
        raise typer.Exit()


@app.command()
def ingest(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="Conversation: OpenAI messages or LoCoMo JSON.")
    ],
    namespace: NamespaceOption,
    ttl: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(help="Seconds until they expire.", callback=_seconds),
    ] = None,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Store every turn of a conversation as a memory.

    Speaker, turn id and date become metadata; each turn's provenance is "assistant" for an
    assistant message (role assistant, ai, bot or model, any case), else "user". Keys are '<file
    name>-<hash of the file's full path>:<turn id>': ingesting the same file again updates the
    turns that changed in it and leaves the others as they are (nothing embedded); a turn edited
    since by anyone else (the inspector, a tool, the API) keeps the edit, and one forgotten
    since is not stored again. A file of the same name in another folder gets its own keys.
    """
    from rich.progress import track

    from memvault.conversations import (
        INGEST_SOURCE,
        Turn,
        load_conversation,
        plan_ingest,
        source_id,
    )
    from memvault.items import validate_items

    target = parse_namespace_path(namespace)
    # Every turn (key, value and timestamp) is checked before the store is touched, so a bad
    # later turn writes nothing.
    turns = load_conversation(file)
    validate_items([(t.key, t.value()) for t in turns])
    store = _open(ctx, path, ttl=ttl)
    plan = plan_ingest(store, target, turns)
    # one put_many per BATCH turns said at one time by one origin (a chat's user and
    # assistant turns alternate: grouped, not cut into runs of one)
    alike: dict[tuple[float | None, str], list[Turn]] = {}
    for turn in plan.write:
        alike.setdefault((turn.timestamp, turn.origin), []).append(turn)
    batches = [
        run[start : start + BATCH] for run in alike.values() for start in range(0, len(run), BATCH)
    ]
    progress = track(
        batches,
        description="embedding turns",
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    for batch in progress:
        store.put_many(
            target,
            [(t.key, t.value()) for t in batch],
            timestamp=batch[0].timestamp,
            source=INGEST_SOURCE,
            provenance=Provenance(batch[0].origin),
        )
    source = source_id(file)
    left = (
        f"; kept {len(plan.kept)} edited since, skipped {len(plan.forgotten)} forgotten"
        if plan.kept or plan.forgotten
        else ""
    )
    _done(
        {
            "ingested": len(plan.write),
            "namespace": namespace,
            "source": source,
            "kept": plan.kept,
            "forgotten": plan.forgotten,
        },
        as_json,
        f"ingested {len(plan.write)} turns from {file} into {namespace} (keys {source}:<turn>)"
        + left,
    )


@app.command()
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to recall.", callback=_query)],
    namespace: PrefixOption = None,
    k: Annotated[
        int, typer.Option("-k", "--limit", min=1, max=MAX_COUNT, help="How many memories.")
    ] = 5,
    filter: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--filter", help='JSON filter, e.g. \'{"speaker": "Caroline"}\'.'),
    ] = None,
    mode: Annotated[
        ModeChoice,
        typer.Option(help="hybrid: dense + BM25 fused; dense; or lexical (BM25)."),
    ] = DEFAULT_MODE,
    as_of: AsOf = None,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Recall the memories most relevant to QUERY.

    Searches the namespace and everything below it, for what holds now (a memory superseded
    since is left out) or, with --as-of, what held then; each line ends with when the memory
    holds. A line on stderr says what the scores are and their scale.
    """
    from memvault.json_text import parse_json

    try:
        parsed = parse_json(filter) if filter else None
    except json.JSONDecodeError as error:
        raise InvalidFilterError(
            f'--filter is not JSON ({error.msg}); e.g. \'{{"speaker": "user"}}\''
        ) from None
    except ValueError as error:  # nested too deeply, a 5,000-digit number
        raise InvalidFilterError(
            f'--filter cannot be read ({error}); e.g. \'{{"speaker": "user"}}\''
        ) from None
    found = _existing(ctx, path).search(
        _prefix(namespace), query=query, filter=parsed, limit=k, mode=mode.value, as_of=as_of
    )
    _print_items(found, as_json)
    kind = found[0].score_type if found else None
    if kind is not None and not as_json:  # JSON says it in each item's score_type
        from memvault.items import SCORE_SCALES

        err.print(f"score: {kind}, {SCORE_SCALES[kind]}")


@app.command()
def get(
    ctx: typer.Context,
    key: Key,
    namespace: NamespaceOption,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Show one memory by key (exit status 1 if absent)."""
    item = _existing(ctx, path).get(parse_namespace_path(namespace), key)
    if item is None:
        raise _absent(key, namespace)
    _print_items([item], as_json)


@app.command("list")
def list_items(
    ctx: typer.Context,
    namespace: PrefixOption = None,
    limit: Annotated[int, typer.Option(min=1, max=MAX_COUNT, help="How many memories.")] = 20,
    offset: Annotated[int, typer.Option(min=0, max=MAX_COUNT, help="How many to skip.")] = 0,
    as_of: AsOf = None,
    quarantined: Annotated[
        bool,
        typer.Option(
            "--quarantined",
            help="Only the memories held from prompts because they read as instructions to "
            "the model, each with why (for review).",
        ),
    ] = False,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """List memories, most recently updated first.

    Lists the namespace and everything below it: what holds now, or with --as-of what held
    then; each line ends with when the memory holds.

    With --quarantined, only the memories the poisoning firewall holds (memvault.firewall:
    marked "quarantined" by the agent layer, or reading as an instruction now), each followed
    by the reason; agents never recall them into a prompt unless opted in.
    """
    store, prefix = _existing(ctx, path), _prefix(namespace)
    if not quarantined:
        _print_items(store.search(prefix, limit=limit, offset=offset, as_of=as_of), as_json)
        return
    from memvault.review import held_memories

    found, _ = held_memories(store, prefix, limit=limit, offset=offset, as_of=as_of)
    _print_items(found, as_json)


@app.command()
def release(
    ctx: typer.Context,
    key: Key,
    namespace: NamespaceOption,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Let a memory the poisoning firewall holds be recalled again, once you reviewed it.

    The memory (listed by list --quarantined) loses its "quarantined" mark and gets "released"
    for its text as it is now (changed later, it is screened again); its history gets an
    update by "reviewer". Exit status 1 if it is absent or not held.
    """
    from memvault.errors import ItemNotFoundError
    from memvault.review import release as release_memory

    store = _existing(ctx, path)
    try:
        reason = release_memory(store, parse_namespace_path(namespace), key)
    except ItemNotFoundError:
        raise _absent(key, namespace) from None
    _done(
        {"released": key, "namespace": namespace, "was_held": reason},
        as_json,
        f"released {_shown(key)} in {_shown(namespace)} (it was held: {_shown(reason)})",
    )


@app.command()
def namespaces(
    ctx: typer.Context,
    prefix: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Only below this namespace."),
    ] = None,
    max_depth: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, max=MAX_COUNT, help="Cut to this many segments."),
    ] = None,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """List the namespaces that hold memories."""
    found = _existing(ctx, path).list_namespaces(
        prefix=_prefix(prefix), max_depth=max_depth, limit=MAX_COUNT
    )
    paths = [format_namespace_path(ns) for ns in found]
    _done({"namespaces": paths}, as_json, "\n".join(map(_shown, paths)) or "no namespaces")


@app.command()
def forget(
    ctx: typer.Context,
    key: Key,
    namespace: NamespaceOption,
    erase: Annotated[
        bool,
        typer.Option(
            "--erase",
            help="Also erase the text from the history: of this memory, of the memories it "
            "was drawn from or that state it, and of the contexts beside it.",
        ),
    ] = False,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Delete one memory (exit status 1 if absent).

    The memory must be in exactly that namespace, not below it. Its text is also taken out of
    the contexts of the memories beside it; its history is kept.

    With --erase the text goes from the history too (for a private detail): the memory, the
    memories it was drawn from (its sources) and every memory of the namespace that states
    it are erased (each history entry keeps its event, time and source, not the text), and
    the memories whose context quoted it are erased and written again without it. A key
    forgotten earlier without --erase, whose history is all that is left, is erased too.
    Exports and backups made before are not reached.
    """
    from memvault.forgetting import unquote_neighbours

    store, where = _existing(ctx, path), parse_namespace_path(namespace)
    item = store.get(where, key)
    if erase:
        erased = _erased(store, where, key, item)
        if not erased:
            raise _absent(key, namespace)
        _done(
            {"erased": erased, "namespace": namespace},
            as_json,
            f"erased {key} in {namespace}"
            + (f" and {len(erased) - 1} more that stated it" if len(erased) > 1 else ""),
        )
        return
    if item is None:
        raise _absent(key, namespace)
    store.delete(where, key, source="cli")
    unquote_neighbours(store, where, [item.text], source="cli")
    _done({"forgotten": key, "namespace": namespace}, as_json, f"forgot {key} in {namespace}")


def _erased(store: MemoryStore, where: Namespace, key: str, item: MemoryItem | None) -> list[str]:
    """Erase ``key`` as ``forget --erase`` does; the keys erased (``[]``: nothing was there).

    A live memory goes through the agent layer's forget (:meth:`ScopedStore.forget
    <memvault.agent.scope.ScopedStore.forget>` with ``erase=True``: its sources and what
    states it too); a key with only a history left has it erased, and the texts it held are
    taken out of the contexts beside it.
    """
    from memvault.arguments import NOT_GIVEN
    from memvault.forgetting import unquote_neighbours

    if item is not None:
        from memvault.agent.scope import ScopedStore

        scoped = ScopedStore(store, where, None, NOT_GIVEN, None)
        removed = scoped.forget(key, "cli", erase=True)
        return [key, *(r.key for r in removed if (r.namespace, r.key) != (where, key))]
    entries = store.history(where, key)
    if not entries:
        return []
    held = [
        value["text"]
        for entry in entries
        for value in (entry.before, entry.after)
        if isinstance(value, dict) and isinstance(value.get("text"), str)
    ]
    store.delete(where, key, source="cli", erase=True)
    if held:
        unquote_neighbours(store, where, list(dict.fromkeys(held)), source="cli", erase=True)
    return [key]


def _text(value: dict[str, Any]) -> str:
    """A value's text as history shows it, quoted."""
    return json.dumps(value.get("text"), ensure_ascii=False)


def _change(entry: HistoryEntry) -> str:
    """What one history entry did, in words (its time, event and source are shown beside it).

    An add, delete or expire shows the text added or removed; an update or merge that changed
    the text shows ``"before" -> "after"``, one that kept it says what it changed instead
    (superseded, released, which fields, or when it holds) before the text; a memory held for
    review from then on says why. An erase says so, and an entry whose text an erase removed
    since says that.
    """
    from memvault.firewall import QUARANTINED

    before, after = entry.before, entry.after
    if entry.event == "erase":
        return "erased: the memory and the text of every entry above are gone"
    if after is None:
        return "(text erased)" if before is None else _text(before)
    reason = after.get(QUARANTINED)
    held = (
        f" (held for review: {reason})"
        if reason and reason != (before or {}).get(QUARANTINED)
        else ""
    )
    if before is None:
        return _text(after) + held
    if before.get("text") != after.get("text"):
        return f"{_text(before)} -> {_text(after)}{held}"
    return f"{_kept_text_change(before, after)}: {_text(after)}"


def _kept_text_change(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What an update that kept the text changed, in words: its fields, else when it holds."""
    from memvault.firewall import QUARANTINED, RELEASED

    said = []
    if QUARANTINED in before and QUARANTINED not in after:
        said.append("released after review" if RELEASED in after else "no longer held")
    elif after.get(QUARANTINED) is not None and after[QUARANTINED] != before.get(QUARANTINED):
        said.append(f"held for review ({after[QUARANTINED]})")
    for name, link in (("superseded_by", "superseded by"), ("supersedes", "supersedes")):
        if after.get(name) is not None and after.get(name) != before.get(name):
            said.append(f"{link} {after[name]}")
    told = {"text", QUARANTINED, RELEASED, "superseded_by", "supersedes"}
    changed = sorted(
        name
        for name in before.keys() | after.keys()
        if name not in told and before.get(name) != after.get(name)
    )
    if changed:
        said.append(f"{', '.join(changed)} changed")
    return "; ".join(said) or "closed or opened again (when it holds changed)"


@app.command()
def history(
    ctx: typer.Context,
    key: Key,
    namespace: NamespaceOption,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Show every change to one memory, oldest first (exit status 1 if it has none).

    One line per change: time (UTC), event (add, update, merge, delete, expire, erase),
    source, and what it did: the text added or removed, "before" -> "after", or what an update
    that kept the text changed (superseded by KEY, released after review, closed or opened
    again); an erase says so, and the entries before it that their text was erased. A
    deleted memory's history is shown too. The memory must be in exactly that namespace, not
    below it.
    """
    from memvault.moments import moment_text

    entries = _existing(ctx, path).history(parse_namespace_path(namespace), key)
    if not entries:
        _error(f"no history of {key!r} in {namespace}")
        raise typer.Exit(1)
    if as_json:
        rows = [
            {**entry.to_json(), "namespace": namespace, "time": moment_text(entry.at)}
            for entry in entries
        ]
        out.print_json(json.dumps(rows, ensure_ascii=False))
        return
    for entry in entries:
        out.print(
            _shown(
                f"{moment_text(entry.at)}  {entry.event:<6}  {entry.source:<9}  {_change(entry)}"
            ),
            markup=False,
        )


@app.command("export")
def export_items(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="JSON Lines file to write; - for stdout.")
    ],
    namespace: PrefixOption = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
    vectors: Annotated[
        bool,
        typer.Option(
            "--vectors",
            help="Also write each memory's embedding and the embedder's fingerprint: an "
            "import into a store of the same embedder embeds nothing.",
        ),
    ] = False,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Export memories to JSON Lines, in FILE or on stdout (-).

    Each line holds one memory: text, metadata, namespace, times and expiry (with --vectors,
    its embedding, after a first line naming the embedder); then the history of each key. A
    FILE that exists is replaced only with --force. With -, the file goes to stdout and what
    was exported is said on stderr.
    """
    if str(file) == "-":
        with tempfile.TemporaryDirectory() as folder:
            written = Path(folder) / "export.jsonl"
            count = _existing(ctx, path).export_jsonl(
                written, _prefix(namespace), with_vectors=vectors
            )
            sys.stdout.flush()
            with written.open("rb") as lines:  # UTF-8 as the file is, whatever the locale
                shutil.copyfileobj(lines, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        _done({"exported": count, "file": "-"}, as_json, f"exported {count} memories", to=err)
        return
    if file.is_file() and not force:
        raise InvalidArgumentError(
            f"FILE {file} exists; give --force to replace it, or name another file"
        )
    count = _existing(ctx, path).export_jsonl(file, _prefix(namespace), with_vectors=vectors)
    _done({"exported": count, "file": str(file)}, as_json, f"exported {count} memories to {file}")


@app.command("import")
def import_items(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="JSON Lines file from 'memvault export'; - for stdin."),
    ],
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Import memories from JSON Lines, in FILE or on stdin (-); a bad file changes nothing.

    Embeddings exported with --vectors are used when they are this store's embedder's; other
    memories are embedded. With -, the lines are read from stdin (UTF-8, whatever the locale)
    to its end, e.g. 'memvault export - | memvault import - --path other', and an error names
    the line of stdin.
    """
    if str(file) == "-":
        store = _open(ctx, path)
        with tempfile.TemporaryDirectory() as folder:
            read = Path(folder) / "import.jsonl"
            with read.open("wb") as lines:  # the bytes as sent: UTF-8 is checked on import
                shutil.copyfileobj(sys.stdin.buffer, lines)
            try:
                count = store.import_jsonl(read)
            except ImportFormatError as error:  # name stdin, not the copy read
                raise ImportFormatError(str(error).replace(str(read), "stdin")) from None
        _done({"imported": count, "file": "-"}, as_json, f"imported {count} memories")
        return
    count = _open(ctx, path).import_jsonl(file)
    _done({"imported": count, "file": str(file)}, as_json, f"imported {count} memories")


@app.command()
def stats(ctx: typer.Context, path: StorePath = None, as_json: AsJson = False) -> None:
    """Count the memories of each namespace; name the embedder.

    Each memory is counted once, in its own namespace (not in the namespaces above it).
    """
    found = _existing(ctx, path).stats()
    counts = {format_namespace_path(ns): n for ns, n in found.namespaces.items()}
    info = found.info
    payload = {"memories": found.memories, "namespaces": counts, **info}
    total = found.memories
    lines = [
        f"{total} {'memory' if total == 1 else 'memories'} in {len(counts)} "
        f"{'namespace' if len(counts) == 1 else 'namespaces'}"
    ]
    lines += [_shown(f"  {ns}: {n}") for ns, n in counts.items()]
    lines.append(_shown(f"embedder: {info.get('embedder')} (dim {info.get('dim')})"))
    _done(payload, as_json, "\n".join(lines))


@app.command()
def cleanup(
    ctx: typer.Context,
    max_age: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(
            help="Also delete memories whose time is more than this many seconds ago: when "
            "they were last written, or for an ingested turn when it was said.",
            callback=_seconds,
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List what would be deleted; delete nothing.")
    ] = False,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Delete expired memories from disk.

    With --max-age, memories older than that go too; --dry-run lists them instead.
    """
    store = _existing(ctx, path)
    if not dry_run:
        removed = store.cleanup(max_age)
        _done({"deleted": removed}, as_json, f"deleted {removed} memories")
        return
    doomed = store.expired(max_age)
    if as_json:
        _done({"would_delete": [_json_item(i) for i in doomed]}, True, "")
        return
    out.print(f"would delete {len(doomed)} memories (dry run: nothing deleted)", markup=False)
    if doomed:
        _print_items(doomed, as_json=False)


def _ids(pairs: list[str]) -> dict[str, str]:
    """Read ``--id NAME=VALUE`` options into the ids of a namespace template."""
    ids = {}
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals or not name or not value:
            raise typer.BadParameter(
                f"must be NAME=VALUE, e.g. --id project=atlas, got {pair!r}", param_hint="'--id'"
            )
        ids[name] = value
    return ids


def _mcp_settings(config: Path | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The memory settings and ids of ``mcp --config FILE``: a MemoryConfig dict plus ``ids``."""
    if config is None:
        return {}, {}
    from memvault.json_text import parse_json

    try:
        data = parse_json(config.read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise InvalidArgumentError(f"--config {config} cannot be read: {error.strerror}") from None
    except ValueError as error:
        raise InvalidArgumentError(f"--config {config} is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise InvalidArgumentError(
            f"--config {config} must hold a JSON object of memory settings, such as "
            '{"namespace": ["users", "{user_id}"], "ids": {"user_id": "alice"}}'
        )
    ids = data.pop("ids", {})
    if not isinstance(ids, dict):
        raise InvalidArgumentError(
            f'--config {config}: "ids" must be an object such as {{"user_id": "alice"}}'
        )
    return data, ids


def _mcp_store(ctx: typer.Context, path: Path | None, settings: MemoryConfig) -> MemoryStore:
    """The store ``mcp`` serves: --path, else --dsn, else the config's path, else the default.

    ``$MEMVAULT_DSN`` counts as --dsn; ``$MEMVAULT_PATH`` comes after the config's path.
    """
    given = _run(ctx).path_given
    on_postgres = _postgres(ctx, path if given else None, embedder=settings.embedder)
    if on_postgres is not None:
        return on_postgres
    if not given and settings.path:
        return _kept(ctx, settings.open_store())
    from memvault.backends.chroma import store_folder
    from memvault.store import MemoryStore

    folder = store_folder(path, option="--path")
    return _kept(ctx, MemoryStore(folder, embedder=settings.embedder))


@app.command()
def mcp(
    ctx: typer.Context,
    user: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--user", help="The user whose memories the server holds (user_id)."),
    ] = None,
    ids: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--id",
            metavar="NAME=VALUE",
            help="Another id of the namespace template, e.g. --id project=atlas (repeatable).",
        ),
    ] = None,
    config: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            help="JSON file of memory settings (path, embedder, namespace template, k, ...) "
            'and "ids", e.g. {"namespace": ["teams", "{team}", "{user_id}"], '
            '"ids": {"team": "atlas"}}; options given here win.',
        ),
    ] = None,
    transport: Annotated[
        str,
        typer.Option(help="stdio (a desktop client starts the server) or http (streamable HTTP)."),
    ] = "stdio",
    host: Annotated[
        str, typer.Option(help="With --transport http: the address to bind.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="With --transport http: the port.")
    ] = 8765,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Let --host be an address other machines reach (the server has no "
            "authentication).",
        ),
    ] = False,
    path: StorePath = None,
) -> None:
    """Serve one user's memories to MCP clients (Claude Desktop, Claude Code, Cursor...).

    The tools remember, recall, forget, list_memories and history reach only the namespace
    of the template (default users/{user_id}) filled with --user and --id (or the config
    file's ids); no tool takes a user or namespace. The store is --path's, else --dsn's, else
    the config file's path, else $MEMVAULT_PATH or the default folder. Needs pip install
    'memvault[mcp]'. With --transport http the server listens at http://HOST:PORT/mcp, on
    127.0.0.1 unless --allow-remote.
    """
    from memvault.listening import check_host
    from memvault.mcp_server import NO_AUTHENTICATION, TRANSPORTS, require_sdk, serve

    if transport not in TRANSPORTS:
        raise typer.BadParameter(
            f"must be one of {', '.join(TRANSPORTS)}, got {transport!r}",
            param_hint="'--transport'",
        )
    if transport == "http":
        check_host(host, allow_remote, why=NO_AUTHENTICATION)
    settings, config_ids = _mcp_settings(config)
    if user is not None and not user.strip():
        raise typer.BadParameter(
            f"is empty ({user!r}): give the id of the user whose memories the server holds",
            param_hint="'--user'",
        )
    run_ids = {**config_ids, **_ids(ids or []), **({"user_id": user} if user else {})}
    from memvault.agent import AgentMemory
    from memvault.config import MemoryConfig
    from memvault.namespace import resolve_namespace

    memory_config = MemoryConfig.parse(settings)
    if memory_config.extraction or memory_config.reconciliation:
        raise InvalidArgumentError(
            f"--config {config}: extraction and reconciliation call a model, which 'memvault "
            "mcp' has none of (the client's model writes the facts); leave them out"
        )
    _check_mcp_ids(memory_config.namespace, run_ids)  # a missing id, before any store opens
    resolve_namespace(memory_config.namespace, run_ids)
    require_sdk()
    store = _mcp_store(ctx, path, memory_config)
    scope = AgentMemory.from_config(memory_config, store=store).scope(run_ids)
    serve(scope, transport, host=host, port=port, allow_remote=allow_remote)


def _check_mcp_ids(template: Sequence[str], run_ids: dict[str, str]) -> None:
    """Refuse ``memvault mcp`` when an id of the namespace template has no value.

    Args:
        template: The namespace template, e.g. ``("teams", "{team}", "{user_id}")``.
        run_ids: The ids from ``--user``, ``--id`` and the config file's ``"ids"``.

    Raises:
        InvalidArgumentError: Naming the first id that is missing, not a string (a config's
            ``{"user_id": 5}``) or blank, and the option that gives it (``--user ID`` for
            ``user_id``, else ``--id NAME=VALUE``).
    """
    for segment in template:
        for name in template_fields(segment):
            value = run_ids.get(name)
            if not isinstance(value, str) or not value.strip():
                option = "--user ID" if name == "user_id" else f"--id {name}=VALUE"
                got = "" if value is None else f", got {value!r}"
                raise InvalidArgumentError(
                    f"the namespace {format_namespace_path(template)} needs {name!r} as a "
                    f"non-empty string{got}: pass {option} (or give it in the --config file's "
                    '"ids" as a string)'
                )


UI_EXPOSES = (
    "the inspector's token would cross the network unencrypted, and anyone holding it reads, "
    "changes and erases every memory of the store"
)
"""Why ``memvault ui`` refuses another host without --allow-remote."""


@app.command()
def ui(
    ctx: typer.Context,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="The port; 0 picks a free one.")
    ] = DEFAULT_PORT,
    host: Annotated[str, typer.Option(help="The address to bind.")] = "127.0.0.1",
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the URL; do not open a browser.")
    ] = False,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Let --host be an address other machines reach (the token then crosses "
            "the network unencrypted).",
        ),
    ] = False,
    path: StorePath = None,
) -> None:
    """Inspect and edit a store in the browser: namespaces, memories, history, search.

    Serves a local web page on 127.0.0.1 (unless --allow-remote) and prints its URL with a
    random token, e.g. http://127.0.0.1:8766/?token=...; only a browser given that URL gets
    in. Shows the namespaces with counts, each namespace's memories (validity, who wrote
    them), a memory's history; searches in each mode with why each result ranks; edits,
    forgets and erases a memory (after a confirmation); exports a namespace as JSON Lines.
    Its Held page lists the memories the poisoning firewall keeps out of prompts, each with
    why, and releases one after review (as memvault release does). Runs until Ctrl-C.
    Needs pip install 'memvault[ui]'.
    """
    from memvault.listening import check_host

    check_host(host, allow_remote, why=UI_EXPOSES)
    try:
        import jinja2  # noqa: F401 - checked here, used by memvault.inspector
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        from memvault.inspector import INSTALL

        raise InvalidArgumentError(f"the inspector needs its web packages: {INSTALL}") from None
    store = _existing(ctx, path)
    from memvault.inspector.app import serve

    def announce(url: str) -> None:
        out.print(f"memvault inspector at {url} (Ctrl-C stops it)", markup=False)
        sys.stdout.flush()

    serve(store, host=host, port=port, open_browser=not no_browser, announce=announce)


def main() -> None:
    """Run the CLI (``memvault``); errors are one ``error:`` line, exit status 2 or 1."""
    app()
