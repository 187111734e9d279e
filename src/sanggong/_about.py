"""The installed version of sanggong, in one place (``sanggong.__version__`` reads it
here, as the command line and results' ``versions`` do, without importing the package's
face back from its own modules)."""

from __future__ import annotations

import functools

__all__ = ["package_version"]


@functools.cache
def package_version() -> str:
    """The installed distribution's version (``"0+unknown"`` in a source tree that was
    never installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sanggong")
    except PackageNotFoundError:
        return "0+unknown"
