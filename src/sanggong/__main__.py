"""``python -m sanggong`` runs the command line."""

from .cli import run

run()
