r"""The ``memvault`` command line: ingest conversations, search and manage a store.

Namespaces are written with ``/`` between segments (``users/alice``); a segment containing ``/``
or ``\`` escapes it with a backslash (``users/a\/b`` is ``("users", "a/b")``). Every command
takes ``--path`` (default ``$MEMVAULT_PATH``, else the per-user data folder) and ``--json``
for machine-readable output. Errors print one line to stderr and exit with status 1.
"""

from __future__ import annotations

import enum
import json
from itertools import groupby
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.progress import track

from memvault.conversations import load_conversation
from memvault.errors import InvalidArgumentError, InvalidFilterError, MemvaultError
from memvault.items import MemoryItem, validate_value
from memvault.namespace import Namespace, format_namespace_path, parse_namespace_path
from memvault.store import DEFAULT_SEARCH_MODE, SEARCH_MODES, MemoryStore

app = typer.Typer(
    help="memvault: long-term memory for LLM agents, on an embedded Chroma store.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

StorePath = Annotated[
    Optional[Path],  # noqa: UP045 - typer reads the annotation at run time on Python 3.10
    typer.Option(
        "--path", envvar="MEMVAULT_PATH", help="Store folder (default: per-user data folder)."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
NamespaceOption = Annotated[
    str, typer.Option("--namespace", "-n", help="Namespace, segments separated by '/'.")
]
PrefixOption = Annotated[
    str,
    typer.Option("--namespace", "-n", help="Namespace prefix ('/'-separated); default: all."),
]
BATCH = 64
SearchMode = enum.Enum("SearchMode", {m: m for m in SEARCH_MODES}, type=str)
DEFAULT_MODE = SearchMode(DEFAULT_SEARCH_MODE)


def _existing(path: Path | None) -> MemoryStore:
    """Open the store for a command that only reads or removes: a mistyped --path is an error."""
    from memvault.backends.chroma import default_path

    folder = path.expanduser() if path else default_path()
    if not (folder / "chroma.sqlite3").exists():
        raise InvalidArgumentError(
            f"no memvault store at {folder}; check --path (or $MEMVAULT_PATH), or create one "
            "with 'memvault ingest' or 'memvault import'"
        )
    return MemoryStore(folder)


def _prefix(text: str) -> Namespace:
    return parse_namespace_path(text) if text else ()


def _json_item(item: MemoryItem) -> dict[str, Any]:
    data = item.model_dump(mode="json")
    data["namespace"] = format_namespace_path(item.namespace)
    return data


def _print_items(items: list[MemoryItem], as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps([_json_item(i) for i in items], ensure_ascii=False))
        return
    if not items:
        out.print("no memories found")
    for rank, item in enumerate(items, 1):
        score = f"{item.score:.3f} " if item.score is not None else ""
        where = f"{format_namespace_path(item.namespace)} {item.key}"
        speaker = item.value.get("speaker")
        said = f"{speaker}: " if isinstance(speaker, str) else ""
        out.print(f"{rank:>2}. {score}[{where}] {said}{item.text}", markup=False)


def _done(payload: dict[str, Any], as_json: bool, text: str) -> None:
    if as_json:
        out.print_json(json.dumps(payload, ensure_ascii=False))
    else:
        out.print(text, markup=False)


@app.command()
def ingest(
    file: Annotated[Path, typer.Argument(help="Conversation: OpenAI messages or LoCoMo JSON.")],
    namespace: NamespaceOption,
    ttl: Annotated[Optional[float], typer.Option(help="Seconds until they expire.")] = None,  # noqa: UP045
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Store every turn of a conversation as a memory (speaker, turn id and date as metadata)."""
    target = parse_namespace_path(namespace)
    turns = load_conversation(file)  # fully parsed and checked before the store is touched
    for turn in turns:
        validate_value(turn.value())
    store = MemoryStore(path, ttl=ttl)  # checks ttl before it creates anything
    batches = []  # one put_many per run of turns said at the same time, at most BATCH long
    for _, same_time in groupby(turns, key=lambda t: t.timestamp):
        run = list(same_time)
        batches += [run[start : start + BATCH] for start in range(0, len(run), BATCH)]
    progress = track(
        batches,
        description="embedding turns",
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    for batch in progress:
        store.put_many(target, [(t.key, t.value()) for t in batch], timestamp=batch[0].timestamp)
    _done(
        {"ingested": len(turns), "namespace": namespace},
        as_json,
        f"ingested {len(turns)} turns from {file} into {namespace}",
    )


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to recall.")],
    namespace: PrefixOption = "",
    k: Annotated[int, typer.Option("-k", "--limit", help="How many memories.")] = 5,
    filter: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--filter", help='JSON filter, e.g. \'{"speaker": "Caroline"}\'.'),
    ] = None,
    mode: Annotated[
        SearchMode, typer.Option(help="hybrid: dense + BM25 fused; dense; or lexical (BM25).")
    ] = DEFAULT_MODE,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Recall the memories most relevant to QUERY in a namespace and below it."""
    try:
        parsed = json.loads(filter) if filter else None
    except json.JSONDecodeError as error:
        raise InvalidFilterError(
            f'--filter is not JSON ({error.msg}); e.g. \'{{"speaker": "user"}}\''
        ) from None
    found = _existing(path).search(
        _prefix(namespace), query=query, filter=parsed, limit=k, mode=mode.value
    )
    _print_items(found, as_json)


@app.command()
def get(
    key: Annotated[str, typer.Argument(help="The memory's key.")],
    namespace: NamespaceOption,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Show one memory by key (exit status 1 if absent)."""
    item = _existing(path).get(parse_namespace_path(namespace), key)
    if item is None:
        err.print(f"error: no memory {key!r} in {namespace}", markup=False)
        raise typer.Exit(1)
    _print_items([item], as_json)


@app.command("list")
def list_items(
    namespace: PrefixOption = "",
    limit: Annotated[int, typer.Option(help="How many memories.")] = 20,
    offset: Annotated[int, typer.Option(help="How many to skip.")] = 0,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """List memories in a namespace and below it, most recently updated first."""
    items = _existing(path).search(_prefix(namespace), limit=limit, offset=offset)
    _print_items(items, as_json)


@app.command()
def namespaces(
    prefix: Annotated[str, typer.Option(help="Only below this namespace.")] = "",
    max_depth: Annotated[Optional[int], typer.Option(help="Cut to this many segments.")] = None,  # noqa: UP045
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """List the namespaces that hold memories."""
    found = _existing(path).list_namespaces(
        prefix=_prefix(prefix), max_depth=max_depth, limit=10_000
    )
    paths = [format_namespace_path(ns) for ns in found]
    _done({"namespaces": paths}, as_json, "\n".join(paths) or "no namespaces")


@app.command()
def forget(
    key: Annotated[str, typer.Argument(help="The memory's key.")],
    namespace: NamespaceOption,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Delete one memory (nothing happens if it is absent)."""
    _existing(path).delete(parse_namespace_path(namespace), key)
    _done({"forgotten": key, "namespace": namespace}, as_json, f"forgot {key} in {namespace}")


@app.command("export")
def export_items(
    file: Annotated[Path, typer.Argument(help="JSON Lines file to write.")],
    namespace: PrefixOption = "",
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Export memories (text, metadata, namespaces, times, TTL) to JSON Lines."""
    count = _existing(path).export_jsonl(file, _prefix(namespace))
    _done({"exported": count, "file": str(file)}, as_json, f"exported {count} memories to {file}")


@app.command("import")
def import_items(
    file: Annotated[Path, typer.Argument(help="JSON Lines file from 'memvault export'.")],
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Import memories from JSON Lines; a bad file changes nothing."""
    count = MemoryStore(path).import_jsonl(file)
    _done({"imported": count, "file": str(file)}, as_json, f"imported {count} memories")


@app.command()
def stats(path: StorePath = None, as_json: AsJson = False) -> None:
    """Show how many memories each namespace holds, and the embedder."""
    store = _existing(path)
    counts = {
        format_namespace_path(ns): store.count(ns) for ns in store.list_namespaces(limit=1_000_000)
    }
    info = store.backend.get_info() or {}
    payload = {"memories": sum(counts.values()), "namespaces": counts, **info}
    lines = [f"{sum(counts.values())} memories in {len(counts)} namespaces"]
    lines += [f"  {ns}: {n}" for ns, n in counts.items()]
    lines.append(f"embedder: {info.get('embedder')} (dim {info.get('dim')})")
    _done(payload, as_json, "\n".join(lines))


@app.command()
def cleanup(
    max_age: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(help="Also delete memories not updated for this many seconds."),
    ] = None,
    path: StorePath = None,
    as_json: AsJson = False,
) -> None:
    """Delete expired memories from disk."""
    removed = _existing(path).cleanup(max_age)
    _done({"deleted": removed}, as_json, f"deleted {removed} memories")


def main() -> None:
    """Run the CLI, turning memvault errors into one line on stderr and exit status 1."""
    try:
        app()
    except MemvaultError as error:
        err.print(f"error: {error}", markup=False)
        raise SystemExit(1) from None
