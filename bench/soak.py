"""Soak: agents, an ingest and searchers on one store folder for minutes; nothing acknowledged
is lost or doubled, even by an agent killed with SIGKILL midway (issue 28, item 2).

Processes, all on one store folder (the default embedder, MiniLM, as ``memvault ingest`` uses):

- ``--agents`` agent processes (default 4), each one user (``agent0``, ``agent1``, ...; the
  namespace ``("users", "<user>")``): a real ``langchain.agents.create_agent`` agent with a
  scripted chat model (it answers "Noted.") and ``MemoryMiddleware(store,
  extractor=FactExtractor(llm), background=True)``, whose extraction model is scripted too
  (after ``--llm-seconds`` it answers one fact per user line, ``"The user says: <line>"``).
  Each runs turns in a loop: the user states a note only this turn has ("I keep note 12 of
  agent1: <made-up words>."), and every seventh turn repeats the note of three turns before,
  so the stored fact is merged into (a history of ``add`` then ``merge``).
- ``memvault ingest`` (the command line, a process of its own) of LoCoMo conversations, one
  after another, started while the agents run (at least one, at most ``--ingests``; with
  ``--sessions N`` each cut to its first N sessions), each into its own namespace
  ``("locomo", "<conversation>")``.
- ``--searchers`` processes (default 2) searching in a loop (dense, lexical and hybrid in turn;
  one agent's namespace, the LoCoMo namespaces or the whole store), ``--pause`` seconds apart.

Every child loads its models (one agent turn, or one search, of its own) before the clock
starts; then the agents run for ``--minutes``, and the searchers until the last ingest has
ended too (it may end after the agents: ``seconds`` in the results).

Midway (at half the agents' run) the parent kills agent 0 with SIGKILL and starts it again (a
new process for the same user, numbering its notes afresh; it loads its models first, so it
joins late).

**Acknowledged.** A turn is acknowledged when ``agent.invoke`` returned (the middleware's
``after_agent`` handed the turn to the memory's worker thread) and then
``MemoryMiddleware.flush()`` returned ``True`` (the worker finished every turn submitted so
far: the extraction call and the store's writes returned) while the memory's
``ingestion.failures`` stayed the same (so the fact was stored, not the raw-statement
fallback). The agent then appends one JSON line for the turn to its log and ``fsync``s it
before the next turn, so the log names every acknowledged turn even after SIGKILL.

**Checked afterwards** (in this process, the store reopened), each a problem if not so:

- every acknowledged fact is stored exactly once in its user's namespace (one live memory with
  that text), and every memory there is a fact an agent tried to store (no raw fallback);
- each key's history (``MemoryStore.history``) is unbroken: ordered by time, an ``add`` (with
  no ``before``) first, each entry's ``before`` equal to the previous entry's ``after``, and the
  last ``after`` the memory's value; for every agent memory and every ingested turn;
- every ``memvault ingest`` exited 0 and each ingested namespace holds exactly the turns of
  its conversation file;
- 0 errors in any process (an exception, a failed flush, a warning logged by memvault, a child
  that exited non-zero); agent 0 had acknowledged turns before the kill, and the other agents
  acknowledged turns after it.

Figures, milliseconds, p50 / p99 (nearest rank): ``reply`` (``agent.invoke``: recall and the
model), ``save`` (the ``flush`` after it: the part of the turn's extraction and writes the
reply did not cover), ``turn`` (both: from the user's message to the acknowledgement, the
latency of a put through the agent), and ``search`` (one ``MemoryStore.search`` in a
searcher).

Usage:
    uv run python bench/soak.py --minutes 10                    # the long run
    uv run python bench/soak.py --minutes 0.25 --ingests 1 --sessions 1   # CI size

Exits 1 when any problem was found (they are printed), else 0; writes ``soak.json`` to
``--out``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a script, bench/ is on the path, not the repository

from tests.core.processes import error_name, wait_for_go  # noqa: E402

LOCOMO_BESIDE = REPO.parent / "shared" / "data" / "locomo"
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
REPEAT_EVERY = 7  # every seventh turn repeats the note of REPEAT_BACK turns before
REPEAT_BACK = 3
GENERATION = 1_000_000  # note numbers of an agent's n-th process start at n * GENERATION
FACT = "The user says: "
MODES: tuple[Literal["dense", "lexical", "hybrid"], ...] = ("dense", "lexical", "hybrid")


# -- what the agents say and their models answer -------------------------------------------


def statement(user: str, number: int) -> str:
    """The note ``user`` states in turn ``number``: the same in every process, only its own."""
    rng = random.Random(f"{user}:{number}")
    words = " ".join("".join(rng.choice(SYLLABLES) for _ in range(3)) for _ in range(5))
    return f"I keep note {number} of {user}: {words}."


def fact_of(line: str) -> str:
    """The fact the scripted extraction model draws from a user line."""
    return FACT + line


class ExtractionLLM:
    """The scripted extraction model, a callable :class:`memvault.FactExtractor` takes.

    Args:
        seconds: How long each call takes, before it answers one fact per user line of the
            transcript (:func:`fact_of`).
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self, prompt: list[dict[str, str]]) -> str:
        transcript = json.loads(prompt[-1]["content"].split("\n", 1)[1])
        lines = [line[6:] for line in transcript.split("\n") if line.startswith("user: ")]
        time.sleep(self.seconds)
        return json.dumps({"facts": [fact_of(line) for line in lines]})


class Errors(logging.Handler):
    """Keeps every record of WARNING or above logged under ``memvault`` / ``langchain_memvault``
    (a background failure, a fallback): the soak counts each as an error."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []
        for name in ("memvault", "langchain_memvault"):
            logging.getLogger(name).addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}"[:500])


def append_line(path: Path, fields: dict[str, Any]) -> None:
    """Append ``fields`` to ``path`` as one JSON line, and fsync it before returning."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(fields) + "\n")
        out.flush()
        os.fsync(out.fileno())


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The complete JSON lines of ``path`` (a last line cut by a kill is left out)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


# -- the child processes ------------------------------------------------------------------


def run_agent(run: Path, user: str, generation: int, llm_seconds: float) -> None:
    """One agent process: turns in a loop until ``run/stop-agents`` exists (module docstring).

    Its warm-up turn, before the clock starts, is the user ``<user>-warm-up``'s. Appends to
    ``run/acks-<user>-<generation>.jsonl`` one line per acknowledged turn
    (``{"turn", "fact", "at" (Unix seconds), "reply_ms", "save_ms"}``), one per error
    (``{"error"}``) and, at a clean end, ``{"done": turns, "failures": int}``.
    """
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_memvault import MemoryMiddleware

    from memvault import FactExtractor, MemoryStore

    class ChatModel(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> ChatModel:
            return self

    errors = Errors()
    log = run / f"acks-{user}-{generation}.jsonl"
    store = MemoryStore(run / "store")
    middleware = MemoryMiddleware(
        store, extractor=FactExtractor(ExtractionLLM(llm_seconds)), background=True
    )
    agent = create_agent(ChatModel(messages=itertools.repeat("Noted.")), middleware=[middleware])
    agent.invoke(  # loads the embedder, off the clock
        {"messages": [("user", statement(user, -1))]}, context={"user_id": f"{user}-warm-up"}
    )
    middleware.flush()
    wait_for_go(run, f"{user}-{generation}", timeout=600)
    said: list[str] = []
    number = generation * GENERATION
    while not (run / "stop-agents").exists():
        repeat = number % REPEAT_EVERY == REPEAT_EVERY - 1 and len(said) >= REPEAT_BACK
        text = said[-REPEAT_BACK] if repeat else statement(user, number)
        failures = middleware.memory.ingestion.failures
        thread = f"{user}-{generation}-{number // 10}"  # a session of ten turns
        try:
            start = time.perf_counter()
            agent.invoke(
                {"messages": [("user", text)]},
                {"configurable": {"thread_id": thread}},
                context={"user_id": user},
            )
            replied = time.perf_counter()
            flushed = middleware.flush(timeout=120)
            saved = time.perf_counter()
        except Exception as error:
            append_line(log, {"error": error_name(error)})
            continue
        finally:
            number += 1
        if errors.messages:
            append_line(log, {"error": errors.messages.pop(0)})
        elif not flushed:
            append_line(log, {"error": f"turn {number - 1}: flush timed out after 120 s"})
        elif middleware.memory.ingestion.failures != failures:
            append_line(log, {"error": f"turn {number - 1}: the background work failed"})
        else:
            said.append(text)
            append_line(
                log,
                {
                    "turn": number - 1,
                    "fact": fact_of(text),
                    "at": time.time(),
                    "reply_ms": 1000 * (replied - start),
                    "save_ms": 1000 * (saved - replied),
                },
            )
    for message in errors.messages:
        append_line(log, {"error": message})
    append_line(log, {"done": len(said), "failures": middleware.memory.ingestion.failures})
    store.close()


def run_searcher(run: Path, name: str, agents: int, pause: float) -> None:
    """One searching process: searches in a loop until ``run/stop`` exists, ``pause`` seconds
    apart; writes ``run/searcher-<name>.json``: ``{"latency_ms": [...], "errors": [...]}``."""
    from memvault import MemoryStore

    store = MemoryStore(run / "store")
    rng = random.Random(name)
    store.search(("users",), query="warm up")  # loads the embedder, off the clock
    wait_for_go(run, name, timeout=600)
    latencies: list[float] = []
    errors: list[str] = []
    for count in itertools.count():
        if (run / "stop").exists():
            break
        user = f"agent{rng.randrange(agents)}"
        scope, query = rng.choice(
            [
                (("users", user), statement(user, rng.randrange(200))),
                (("locomo",), "When did she go to the support group?"),
                ((), statement(user, rng.randrange(200))[:40]),
            ]
        )
        start = time.perf_counter()
        try:
            store.search(scope, query=query, mode=MODES[count % len(MODES)], limit=10)
            latencies.append(1000 * (time.perf_counter() - start))
        except Exception as error:
            errors.append(error_name(error))
        time.sleep(pause)
    store.close()
    out = run / f"searcher-{name}.json"
    out.with_suffix(".tmp").write_text(json.dumps({"latency_ms": latencies, "errors": errors}))
    out.with_suffix(".tmp").rename(out)


# -- the parent ---------------------------------------------------------------------------


def spawn(run: Path, name: str, *args: Any) -> subprocess.Popen[bytes]:
    """Start this script as a child (``args`` its command line), output to ``run/<name>.log``."""
    with open(run / f"{name}.log", "w") as log:
        return subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), *map(str, args)],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def tail(run: Path, name: str, lines: int = 15) -> str:
    """The last lines of a child's output."""
    text = (run / f"{name}.log").read_text(errors="replace")
    return "\n".join(text.splitlines()[-lines:])


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50 and p99 (nearest rank) of ``values``, rounded to 0.01; ``None`` for no values."""
    if not values:
        return {"p50": None, "p99": None}
    ordered = sorted(values)

    def rank(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 2)

    return {"p50": rank(0.5), "p99": rank(0.99)}


def history_problems(store: Any, namespace: tuple[str, ...], key: str, value: Any) -> list[str]:
    """What is wrong with the history of one live memory (see the module docstring)."""
    entries = store.history(namespace, key)
    where = f"{'/'.join(namespace)} {key}"
    if not entries or entries[0].event != "add" or entries[0].before is not None:
        return [f"{where}: history does not start with an add: {entries[:1]}"]
    found = []
    for previous, entry in itertools.pairwise(entries):
        if entry.at < previous.at:
            found.append(f"{where}: {entry.event} at {entry.at} before {previous.at}")
        if entry.before != previous.after:
            found.append(f"{where}: {entry.event} at {entry.at}: before is not the last after")
    if entries[-1].after != value:
        found.append(f"{where}: the last history entry is not the stored value")
    return found


def check(
    run: Path, agents: int, ingested: list[dict[str, Any]], killed_at: float | None
) -> tuple[list[str], dict[str, Any]]:
    """Reopen the store and check it against the logs (see the module docstring).

    Args:
        run: The run folder (``store/`` and the children's logs).
        agents: How many agents ran.
        ingested: Per ``memvault ingest``: ``{"file", "namespace", "returncode", "reported",
            "turns"}`` (``reported``: its JSON output's ``ingested``, ``turns``: the file's).
        killed_at: When agent 0 was killed (Unix seconds), if it was.

    Returns:
        The problems found (empty when all holds) and the counts and latencies.
    """
    from memvault import MemoryStore

    problems: list[str] = []
    reply, save, turn, acked_after_kill = [], [], [], 0
    store = MemoryStore(run / "store")
    export = run / "export.jsonl"
    figures: dict[str, Any] = {"acknowledged": {}, "memories": {}}
    try:
        for number in range(agents):
            user = f"agent{number}"
            namespace = ("users", user)
            acks: list[dict[str, Any]] = []
            for log in sorted(run.glob(f"acks-{user}-*.jsonl")):
                lines = read_lines(log)
                problems += [f"{log.name}: {line['error']}" for line in lines if "error" in line]
                acks += [line for line in lines if "fact" in line]
                killed = killed_at is not None and log.name == "acks-agent0-0.jsonl"
                if not killed and (not lines or "done" not in lines[-1]):
                    problems.append(f"{log.name}: the agent did not finish cleanly")
            store.export_jsonl(export, namespace)
            items = [
                json.loads(line)
                for line in export.read_text(encoding="utf-8").splitlines()
                if '"kind": "history"' not in line
            ]
            texts = Counter(item["value"]["text"] for item in items)
            for fact in sorted({ack["fact"] for ack in acks}):
                if texts[fact] != 1:
                    problems.append(f"{user}: acknowledged {fact!r} is stored {texts[fact]} times")
            problems += [
                f"{user}: stored {text!r}, which is no fact an agent said"
                for text in texts
                if not text.startswith(FACT + "I keep note ")
            ]
            for item in items:
                problems += history_problems(store, namespace, item["key"], item["value"])
            figures["acknowledged"][user] = len(acks)
            figures["memories"][user] = len(items)
            reply += [ack["reply_ms"] for ack in acks]
            save += [ack["save_ms"] for ack in acks]
            turn += [ack["reply_ms"] + ack["save_ms"] for ack in acks]
            if killed_at is not None and number > 0:
                acked_after_kill += sum(ack["at"] > killed_at for ack in acks)
        for ingest in ingested:
            namespace = tuple(ingest["namespace"].split("/"))
            count = store.count(namespace)
            if ingest["returncode"] != 0:
                problems.append(f"memvault ingest {ingest['file']} exited {ingest['returncode']}")
            elif not count == ingest["reported"] == ingest["turns"]:
                problems.append(
                    f"{ingest['namespace']}: {count} memories, the ingest reported "
                    f"{ingest['reported']}, the file has {ingest['turns']} turns"
                )
            store.export_jsonl(export, namespace)
            for line in export.read_text(encoding="utf-8").splitlines():
                if '"kind": "history"' not in line:
                    item = json.loads(line)
                    problems += history_problems(store, namespace, item["key"], item["value"])
    finally:
        store.close()
    if killed_at is not None and not read_lines(run / "acks-agent0-0.jsonl"):
        problems.append("agent0 had acknowledged no turn when it was killed")
    if killed_at is not None and acked_after_kill == 0:
        problems.append("no other agent acknowledged a turn after the kill")
    searches: list[float] = []
    for result in sorted(run.glob("searcher-*.json")):
        found = json.loads(result.read_text())
        searches += found["latency_ms"]
        problems += [f"{result.stem}: {error}" for error in found["errors"]]
    figures.update(
        acknowledged_after_kill=acked_after_kill,
        searches=len(searches),
        ingested={ingest["namespace"]: ingest["turns"] for ingest in ingested},
        latency_ms={
            "reply": percentiles(reply),
            "save": percentiles(save),
            "turn": percentiles(turn),
            "search": percentiles(searches),
        },
    )
    return problems, figures


def conversations(data: Path, run: Path, sessions: int) -> list[tuple[Path, int]]:
    """The LoCoMo files of ``data`` in name order, each with its number of turns.

    Args:
        data: The LoCoMo folder (``*.json``, one conversation each).
        run: With ``sessions``: where the shortened files are written (``conversations/``).
        sessions: ``0``: the files as they are; else each cut to its first ``sessions``
            sessions (a LoCoMo file of its own, for a short run).

    Raises:
        SystemExit: If ``data`` holds no ``*.json`` file.
    """
    from memvault.conversations import load_conversation

    files = sorted(data.glob("*.json"))
    if not files:
        raise SystemExit(f"no LoCoMo conversation (*.json) in {data}")
    if sessions:
        (run / "conversations").mkdir()
        for number, file in enumerate(files):
            whole = json.loads(file.read_text(encoding="utf-8"))
            kept = {
                f"session_{n}{end}" for n in range(1, sessions + 1) for end in ("", "_date_time")
            }
            cut = {k: v for k, v in whole.items() if k in kept or k.startswith("speaker_")}
            files[number] = run / "conversations" / file.name
            files[number].write_text(json.dumps(cut), encoding="utf-8")
    return [(file, len(load_conversation(file))) for file in files]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the soak, print its figures and problems, write ``soak.json`` to ``--out``.

    Returns:
        ``{"minutes", "agents", "searchers", "problems": [str], "acknowledged": {user: int},
        "memories": {user: int}, "acknowledged_after_kill", "searches",
        "ingested": {namespace: turns}, "latency_ms": {"reply" | "save" | "turn" | "search":
        {"p50", "p99"}}, "killed_after_s", "seconds", "folder"}``.
    """
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["agent"]:
        run_agent(Path(argv[1]), argv[2], int(argv[3]), float(argv[4]))
        return {}
    if argv[:1] == ["searcher"]:
        run_searcher(Path(argv[1]), argv[2], int(argv[3]), float(argv[4]))
        return {}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "data",
        type=Path,
        nargs="?",
        default=Path(os.environ.get("MEMVAULT_LOCOMO_DIR", LOCOMO_BESIDE)),
        help="LoCoMo folder (default $MEMVAULT_LOCOMO_DIR, else ../shared/data/locomo)",
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="how long the load runs")
    parser.add_argument("--agents", type=int, default=4, help="agent processes")
    parser.add_argument("--searchers", type=int, default=2, help="searching processes")
    parser.add_argument("--ingests", type=int, default=100, help="most conversations ingested")
    parser.add_argument(
        "--sessions", type=int, default=0, help="first sessions of a conversation ingested; 0 all"
    )
    parser.add_argument("--llm-seconds", type=float, default=0.0, help="per extraction call")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between searches")
    parser.add_argument(
        "--path", type=Path, help="run folder (store/ and logs; must not exist); default a temp"
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    if min(args.agents, args.ingests) < 1 or min(args.searchers, args.sessions) < 0:
        parser.error("--agents and --ingests must be >= 1, --searchers and --sessions >= 0")
    if args.minutes <= 0:
        parser.error("--minutes must be > 0")
    if args.path is None:
        run = Path(tempfile.mkdtemp(prefix="memvault-soak-"))
    else:
        run = args.path
        run.mkdir(parents=True)
    files = conversations(args.data, run, args.sessions)[: args.ingests]
    # The children create the store as they open it, before the clock starts (processes
    # creating one store at once make one: tests/core/backends/).
    children = {
        f"agent{n}-0": spawn(run, f"agent{n}-0", "agent", run, f"agent{n}", 0, args.llm_seconds)
        for n in range(args.agents)
    }
    children |= {
        f"s{n}": spawn(run, f"s{n}", "searcher", run, f"s{n}", args.agents, args.pause)
        for n in range(args.searchers)
    }
    spawned = time.monotonic()
    deadline = spawned + 600
    while len(list(run.glob("ready-*"))) < len(children):
        dead = [name for name, child in children.items() if child.poll() is not None]
        if dead:
            (run / "stop-agents").touch()
            (run / "stop").touch()
            raise SystemExit(f"{dead[0]} died before the start:\n{tail(run, dead[0])}")
        if time.monotonic() > deadline:
            raise SystemExit("the children did not get ready within 10 minutes")
        time.sleep(0.05)
    (run / "go").touch()
    began = time.monotonic()
    startup = began - spawned
    end, kill = began + 60 * args.minutes, began + 30 * args.minutes
    ingested: list[dict[str, Any]] = []
    ingest: subprocess.Popen[bytes] | None = None
    killed_at: float | None = None
    killed_after = 0.0
    while True:
        if ingest is not None and ingest.poll() is not None:
            output = ingest.stdout.read() if ingest.stdout else b""
            try:
                reported = json.loads(output)["ingested"]
            except (ValueError, KeyError):
                reported = None
            ingested[-1].update(returncode=ingest.returncode, reported=reported)
            ingest = None
        now = time.monotonic()
        if ingest is None and len(ingested) < len(files) and (now < end or not ingested):
            file, turns = files[len(ingested)]
            namespace = f"locomo/{file.stem}"
            ingested.append({"file": file.name, "namespace": namespace, "turns": turns})
            with open(run / f"ingest-{file.stem}.log", "w") as log:
                ingest = subprocess.Popen(
                    [sys.executable, "-m", "memvault", "ingest", str(file), "-n", namespace]
                    + ["--path", str(run / "store"), "--json"],
                    cwd=REPO,
                    stdout=subprocess.PIPE,
                    stderr=log,
                )
        if killed_at is None and now >= kill:
            os.kill(children["agent0-0"].pid, signal.SIGKILL)
            children["agent0-0"].wait()
            killed_at = time.time()
            killed_after = now - began
            children["agent0-1"] = spawn(
                run, "agent0-1", "agent", run, "agent0", 1, args.llm_seconds
            )
        if now >= end:
            if not (run / "stop-agents").exists():
                (run / "stop-agents").touch()  # the searchers go on while an ingest finishes
            if ingest is None:
                break
        time.sleep(0.05)
    seconds = time.monotonic() - began
    (run / "stop").touch()
    exits = {}
    for name, child in children.items():
        try:
            exits[name] = child.wait(timeout=300)
        except subprocess.TimeoutExpired:
            child.kill()
            exits[name] = child.wait()
    problems = [
        f"{name} exited {code}:\n{tail(run, name)}"
        for name, code in exits.items()
        if code != 0 and name != "agent0-0"
    ]
    found, figures = check(run, args.agents, ingested, killed_at)
    results = {
        "minutes": args.minutes,
        "agents": args.agents,
        "searchers": args.searchers,
        "problems": problems + found,
        **figures,
        "startup_s": round(startup, 1),
        "killed_after_s": round(killed_after, 1),
        "seconds": round(seconds, 1),
        "folder": str(run),
    }
    show(results)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "soak.json").write_text(json.dumps(results, indent=1))
    return results


def show(results: dict[str, Any]) -> None:
    """Print the figures and the problems of a run."""
    print(
        f"soak: {results['seconds']} s (after {results['startup_s']} s starting the processes), "
        f"{results['agents']} agents, {results['searchers']} "
        f"searchers, agent0 killed with SIGKILL after {results['killed_after_s']} s and started "
        f"again; folder {results['folder']}"
    )
    print(
        f"acknowledged turns {sum(results['acknowledged'].values())} "
        f"({', '.join(f'{u} {n}' for u, n in results['acknowledged'].items())}; "
        f"{results['acknowledged_after_kill']} by the others after the kill), memories "
        f"{sum(results['memories'].values())}, ingested "
        f"{', '.join(f'{ns} {n}' for ns, n in results['ingested'].items())}, "
        f"searches {results['searches']}"
    )
    print(f"{'latency, ms':<12} {'p50':>9} {'p99':>9}")
    for name, quantiles in results["latency_ms"].items():
        print(f"{name:<12} {quantiles['p50']!s:>9} {quantiles['p99']!s:>9}")
    print(f"problems: {len(results['problems'])}")
    for problem in results["problems"][:50]:
        print(f"  {problem}")


if __name__ == "__main__":
    got = main()
    sys.exit(1 if got.get("problems") else 0)
