"""Background ingestion: store finished turns on a worker thread, off the reply path.

With ``AgentMemory(..., background=True)``, :meth:`memvault.MemoryScope.save_turns` checks the
turn in the caller (bad input still raises there, at once) and hands the slow part (fact
extraction, one LLM call, and the writes) to the memory's :class:`BackgroundWorker`:

- **One thread per memory, in order.** The worker is a daemon thread, started at the first
  submission and stopped after :data:`IDLE_SECONDS` without work (started again by the next).
  Work runs one item at a time, in submission order, so the turns of one user are stored in
  the order they were said.
- **Bounded.** At most :data:`MAX_PENDING` items wait; :meth:`BackgroundWorker.submit` then
  waits for room (backpressure rather than unbounded memory), and
  :meth:`BackgroundWorker.asubmit` waits without blocking the event loop.
- **A turn is never lost.** If the work raises (any ``Exception``: the LLM is down, a timeout,
  a store error), the failure is logged (``logger.warning`` on ``memvault.background``, with
  the traceback), counted in :attr:`BackgroundWorker.failures`, and the fallback runs instead
  (for a turn: the user's statements, stored raw). A fallback that fails as well is logged and
  counted once more; the worker carries on either way.
- **Drained at exit.** At interpreter exit the workers get up to :data:`EXIT_TIMEOUT`
  seconds in all to finish what is pending; the items not done by then (the one running at
  that moment included) run their fallback (the raw turn, no LLM call) in the exiting thread.
  This runs before the stores' own exit hook (which applies the outbox to the vector index and
  closes them), so what the worker stores reaches the index too.
- **Waiting.** :meth:`BackgroundWorker.flush` (and ``await`` :meth:`BackgroundWorker.aflush`,
  which never blocks the event loop) waits until every item submitted before the call is done.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import queue
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memvault.errors import InvalidArgumentError, shown

logger = logging.getLogger(__name__)

MAX_PENDING = 100
"""Most items (turns) a worker holds waiting; a submission beyond it waits for room."""

EXIT_TIMEOUT = 30.0
"""Seconds the interpreter-exit hook waits, for all workers together, for pending items before
storing the rest through their fallbacks (the raw turns); an item running at that moment (one
LLM call) is left to finish or be cut off with the process."""

IDLE_SECONDS = 5.0
"""Seconds without work after which a worker's thread ends (the next submission starts one)."""

Work = Callable[[], Any]

_workers: weakref.WeakSet[BackgroundWorker] = weakref.WeakSet()
"""Workers that have started a thread: their pending items are drained at interpreter exit."""


def check_timeout(timeout: Any) -> float | None:
    """A flush timeout checked: ``None`` (wait as long as it takes) or seconds >= 0.

    Args:
        timeout: The value given.

    Returns:
        The timeout as a float, or ``None``.

    Raises:
        InvalidArgumentError: If it is not ``None`` or a number of seconds from 0 to
            ``threading.TIMEOUT_MAX`` (about 292 years, the longest a thread can wait; a bool
            is not a number here, and NaN, infinity and an int too large for a float are out
            of range).
    """
    if timeout is None:
        return None
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not 0 <= timeout <= threading.TIMEOUT_MAX
    ):
        raise InvalidArgumentError(
            f"timeout must be seconds from 0 to {threading.TIMEOUT_MAX:.0f} (e.g. 5.0), or None "
            f"to wait until done, got {shown(timeout)}"
        )
    return float(timeout)


@dataclass(frozen=True)
class IngestionStats:
    """Counts of a memory's background ingestion (all ``0`` without ``background=True``).

    Attributes:
        pending: Items submitted and not finished (waiting or running).
        done: Items finished, whether their work succeeded or their fallback ran.
        failures: Works that raised, plus fallbacks that raised too.
    """

    pending: int = 0
    done: int = 0
    failures: int = 0


@dataclass
class _Item:
    work: Work
    fallback: Work | None


class BackgroundWorker:
    """A bounded, ordered worker thread (see the module docstring).

    Args:
        name: Names the thread (``memvault-background-<name>``) and the log lines.
        max_pending: Most items waiting before :meth:`submit` waits; default
            :data:`MAX_PENDING`.

    Raises:
        InvalidArgumentError: If ``max_pending`` is not an int >= 1.
    """

    def __init__(self, name: str = "memvault", *, max_pending: int = MAX_PENDING) -> None:
        if isinstance(max_pending, bool) or not isinstance(max_pending, int) or max_pending < 1:
            raise InvalidArgumentError(f"max_pending must be an int >= 1, got {shown(max_pending)}")
        self.name = name
        self.max_pending = max_pending
        self._queue: queue.Queue[_Item] = queue.Queue(maxsize=max_pending)
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._submitted = 0
        self._done = 0
        self._failures = 0
        self._abandon = False  # set at exit: run the fallbacks of what is left
        self._running: _Item | None = None  # the item the thread is on
        self._waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    # -- counts -----------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Items submitted and not finished (waiting or running)."""
        with self._lock:
            return self._submitted - self._done

    @property
    def done(self) -> int:
        """Items finished (work done, or its fallback run)."""
        with self._lock:
            return self._done

    @property
    def failures(self) -> int:
        """Works that raised, plus fallbacks that raised too."""
        with self._lock:
            return self._failures

    def stats(self) -> IngestionStats:
        """The three counts, read at one moment."""
        with self._lock:
            return IngestionStats(self._submitted - self._done, self._done, self._failures)

    # -- submitting -------------------------------------------------------------------------

    def submit(self, work: Work, fallback: Work | None = None) -> None:
        """Queue ``work`` to run on the worker thread after everything submitted before it.

        Waits (blocking the caller) while :attr:`max_pending` items are pending already. A call
        from the worker thread itself runs ``work`` at once instead, as waiting there would
        never end.

        Args:
            work: A callable without arguments; its result is dropped.
            fallback: Run instead when ``work`` raises an ``Exception`` (and at exit for items
                not done in time); ``None``: nothing.
        """
        item = _Item(work, fallback)
        if threading.current_thread() is self._thread:
            self._submit_count()
            self._run(item)
            return
        self._submit_count()
        self._queue.put(item)

    async def asubmit(self, work: Work, fallback: Work | None = None) -> None:
        """Async form of :meth:`submit`, which never blocks the event loop.

        Returns at once unless the queue is full, and then waits for room in a thread.

        Args:
            work: As :meth:`submit`.
            fallback: As :meth:`submit`.
        """
        item = _Item(work, fallback)
        self._submit_count()
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            await asyncio.to_thread(self._queue.put, item)

    def _submit_count(self) -> None:
        """Count a submission and make sure a thread will take it."""
        with self._lock:
            self._submitted += 1
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name=f"memvault-background-{self.name}", daemon=True
                )
                self._thread.start()
                _workers.add(self)
                # atexit runs the last registered hook first: registering again now puts the
                # drain ahead of the exit hooks of every store opened before this submission.
                atexit.unregister(_drain_at_exit)
                atexit.register(_drain_at_exit)

    # -- the thread -------------------------------------------------------------------------

    def _serve(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if self._submitted == self._done:  # nothing on its way either
                        self._thread = None
                        return
                continue
            self._running = item
            try:
                self._run(item)
            finally:
                self._running = None

    def _run(self, item: _Item) -> None:
        try:
            if self._abandon:
                raise _Abandoned
            item.work()
        except Exception as error:
            if not isinstance(error, _Abandoned):
                logger.warning(
                    "background memory work failed (%s: %s); storing the raw turn instead",
                    type(error).__name__,
                    error,
                    exc_info=True,
                )
                with self._lock:
                    self._failures += 1
            if item.fallback is not None:
                try:
                    item.fallback()
                except Exception:
                    logger.exception("background memory fallback failed too; the turn is lost")
                    with self._lock:
                        self._failures += 1
        finally:
            with self._lock:
                self._done += 1
                self._lock.notify_all()
                ready = [w for w in self._waiters if w[0] <= self._done]
            for _, loop, future in ready:
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    loop.call_soon_threadsafe(_resolve, future)

    # -- waiting ----------------------------------------------------------------------------

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every item submitted before this call is done.

        Args:
            timeout: Most seconds to wait (>= 0); ``None`` waits as long as it takes.

        Returns:
            ``True`` if those items are all done, ``False`` if the timeout came first.

        Raises:
            InvalidArgumentError: If ``timeout`` is not ``None`` or seconds >= 0, or the call
                comes from the worker thread itself (from inside a turn's work, e.g. a model
                callable), where waiting for the item being run would never end.
        """
        timeout = check_timeout(timeout)
        if threading.current_thread() is self._thread:
            raise InvalidArgumentError(
                "flush() was called from the background worker itself (inside a turn's work, "
                "e.g. the model), where it would wait for itself forever; call it from the "
                "code that hands turns over"
            )
        with self._lock:
            target = self._submitted
            return self._lock.wait_for(lambda: self._done >= target, timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async form of :meth:`flush`: the same arguments, result and errors.

        It waits on the event loop (the worker wakes it), never blocking it.
        """
        timeout = check_timeout(timeout)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            target = self._submitted
            if self._done >= target:
                return True
            waiter = (target, loop, future)
            self._waiters.append(waiter)
        try:
            await asyncio.wait_for(future, timeout)
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            with self._lock:
                self._waiters.remove(waiter)

    def _drain(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds, then run the fallbacks of the items not done.

        The item running then (its work may still finish before the process ends) has its
        fallback run too, so its turn is stored raw whatever becomes of the work.
        """
        if self.flush(timeout):
            return
        self._abandon = True
        running = self._running
        left = 0
        if running is not None and running.fallback is not None:
            left += 1
            try:
                running.fallback()
            except Exception:
                logger.exception("background memory fallback failed at exit; the turn is lost")
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            left += 1
            self._run(item)
        logger.warning(
            "memvault background worker %r: pending work not done within %g s of exit; "
            "stored %d raw turn(s) instead of extracting facts",
            self.name,
            timeout,
            left,
        )


class _Abandoned(Exception):
    """The interpreter is exiting: run the fallback, without logging a failure."""


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _drain_at_exit() -> None:
    """At interpreter exit, drain every worker, within :data:`EXIT_TIMEOUT` seconds in all."""
    deadline = time.monotonic() + EXIT_TIMEOUT
    for worker in list(_workers):
        with contextlib.suppress(Exception):
            worker._drain(max(0.0, deadline - time.monotonic()))
