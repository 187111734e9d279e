"""``python -m sanggong.cli`` runs the command line, as ``python -m sanggong`` does."""

from ._main import run

run()
