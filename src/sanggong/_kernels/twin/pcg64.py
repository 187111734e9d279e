"""The kernels' own bit generator (the twin of ``csrc/pcg64.pxi``): numpy's PCG64 as the
specification writes it (``_spec.pcg64``), drawn from by ``random_raw`` as numpy's is."""

from __future__ import annotations

from ..._spec import PCG64

__all__ = ["PCG64"]
