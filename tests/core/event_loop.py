"""A probe that the event loop kept running: async tests of calls that must not block it."""

from __future__ import annotations

import asyncio


class Ticker:
    """Counts 10 ms ticks of the running event loop while its ``async with`` block runs.

    A call that blocked the loop for 0.3 s leaves ``ticks`` near 0; one that awaited leaves it
    near 30.
    """

    def __init__(self) -> None:
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Ticker:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._task is not None
        self._task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1
