"""The agent layer's logger.

Its name is ``"memvault.agent_memory"``, the layer's module before it became the
:mod:`memvault.agent` package: applications that filter or silence the layer's warnings (a
model reply that could not be used, a reconciliation decision left stale) by that name keep
doing so.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("memvault.agent_memory")
"""Where every module of :mod:`memvault.agent` logs."""
