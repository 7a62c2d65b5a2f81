"""One in-process Chroma client for the contract's Chroma backends, and fresh collection names."""

from __future__ import annotations

import functools
import uuid

import chromadb
from chromadb.config import Settings


@functools.cache
def ephemeral_client() -> chromadb.ClientAPI:
    """Chroma in this process (``EphemeralClient``), shared by every test of the run."""
    return chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))


def new_collection() -> str:
    """A collection name no other backend of the run uses."""
    return f"contract-{uuid.uuid4().hex}"
