"""Compiled kernels (numba), below everything that uses them.

The contract:

- Every module here imports ``numba`` (and ``numpy``, ``llvmlite``) and nothing from
  :mod:`chickenfoot`; this ``__init__`` imports nothing, so ``import chickenfoot`` and
  ``import chickenfoot.batch`` never import numba. A module above loads a kernel module
  with :func:`importlib.import_module` only when a compiled path was asked for (the
  ``[fast]`` extra).
- The functions take arrays and integers only; what the arrays hold is the caller's
  layout, written in each module's docstring. Their results are exactly those of the pure
  Python rules they mirror: the tests hold each kernel to the core.
- Compiled on first use and cached on disk (numba's ``cache=True``: in ``__pycache__``
  beside the modules, or ``NUMBA_CACHE_DIR``). numba checks only the file that defines a
  cached function, not the files of the functions compiled into it: after editing one
  module here in a checkout, delete the cache (``find src -name '*.nb[ic]' -delete``), or
  a caller in another module keeps running the old code. An installed release replaces
  every file at once, which invalidates all of it.

Modules: :mod:`.rules` (the batch engine's rules on tile-set words), :mod:`.deal` (exact
Mersenne Twister deals and fast splitmix64 deals), :mod:`.keys` (the exact deals' SHA-512
keys), :mod:`.lanes` (the batch engine's calls over many rounds), :mod:`.local` (its
playouts, each round in local state), :mod:`.run` (its two entry points), :mod:`.search`
(the search agent's rollouts) and :mod:`.sample` (its determinization), the last two
reached through ``chickenfoot._rollouts``; :mod:`.seats` (the built-in agents at the
engine's seats) and :mod:`.replay` (rounds replayed from their action ids, judged move by
move, for the engine's ``replay`` and the data sets).
"""
