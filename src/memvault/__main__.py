"""``python -m memvault`` runs the :mod:`memvault.cli`."""

from memvault.cli import main

main()
