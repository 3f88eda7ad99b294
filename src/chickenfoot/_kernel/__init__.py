"""The rules kernel: how a position is stored and how it moves (private; this is its contract).

The public face of a round is :mod:`chickenfoot.state` (:class:`~chickenfoot.State`,
:func:`~chickenfoot.legal_moves`, :func:`~chickenfoot.apply`...). What stands behind it,
and is shared by the modules that build or step positions fast (``state``, ``deal``,
``formats``, ``view``, ``sampling``, ``record``, ``playout``, ``perft``, the batch engine
and ``_rollouts``, the compiled search's boundary, the notation's fast reader), lives here. They import these names
from this package, and nothing else by a private name; nothing here imports anything
above the tiles, moves, rules, outcome and errors modules (the ``State`` named in
annotations is a type only).

Representation (docs/performance.md). A position is an instance of
:class:`~chickenfoot.State` with the slots :data:`FIELDS`:

- ``rules``, ``turn`` and ``board`` (the interned :class:`~chickenfoot.Play` objects in the
  order played) are public;
- ``_centre`` and ``_drawn`` are tile ids (``_drawn`` is -1 when nothing was drawn this
  turn); ``_hands`` is one int bitmask over tile ids per seat; ``_bone`` the boneyard's tile
  ids, front first;
- derived, and kept up to date by every transition so that nothing walks the board:
  ``_ends[v]`` the bitmask of the anchor tiles whose line ends in number ``v``;
  ``_pending`` the id of the hub that still needs toes (the centre in the opening) or -1;
  ``_need`` the toes it still needs; ``_mask`` the bitmask of every tile with a legal play
  on this table; ``_nums`` the bitmask of the numbers some line ends in; ``_outcome`` the
  :class:`~chickenfoot.Outcome` once the round is over, else ``None``;
- ``_log``, the history: cons cells ``(earlier, seat, move)`` or ``None``.

Two positions are equal when their primary fields are; derived ones never disagree with
them, because only :func:`make` fills them and only the functions here call it with
derived values they computed (:func:`settle` derives every one from the primary fields).

Trust. :func:`make`, :func:`settle`, :func:`do_play`, :func:`do_draw` and :func:`do_pass`
check nothing: their caller has established legality (:func:`play_ok`, :func:`draw_ok`,
:func:`pass_ok`, or membership in :func:`generate`). :func:`apply`, :func:`legal_moves`,
:func:`is_legal`, :func:`outcome` and :func:`penalties` are the checked public functions
(re-exported by :mod:`chickenfoot.state`), with the error contract of docs/api.md.

The one hook. Positions are instances of :class:`~chickenfoot.State`, which stands above
the readers, views and pictures its convenience methods call; those in turn build
positions here. So the kernel does not import the class: ``chickenfoot.state`` hands it
over once, with :func:`build_as`, right after defining it, and :func:`is_state` is the
kernel's ``isinstance`` test for modules below ``state``.

Replay. :func:`replay` checks a line of moves as ``apply`` would, on local variables, and
builds only its last position (the record and the notation readers replay with it);
:func:`states_of` builds every position of a line already checked.

Memory. :func:`generate` memoises groups of plays and :func:`union` the tile masks of
number sets; both memos are bounded and may be emptied at any time.
"""

from chickenfoot._kernel.legal import (
    LegalMoves,
    draw_ok,
    generate,
    is_legal,
    legal_moves,
    new_legal,
    not_a_state,
    pass_ok,
    play_ok,
)
from chickenfoot._kernel.position import (
    BLOCKED,
    FIELDS,
    NO_LOG,
    OUT,
    UNION,
    Phase,
    Scaffold,
    blocked,
    build_as,
    is_state,
    make,
    restore,
    settle,
    tiles_of,
    union,
)
from chickenfoot._kernel.replay import replay, states_of
from chickenfoot._kernel.transitions import (
    apply,
    check_in_set,
    do_draw,
    do_pass,
    do_play,
    lay,
    outcome,
    penalties,
    why_illegal,
)

__all__ = [
    "BLOCKED",
    "FIELDS",
    "NO_LOG",
    "OUT",
    "UNION",
    "LegalMoves",
    "Phase",
    "Scaffold",
    "apply",
    "blocked",
    "build_as",
    "check_in_set",
    "do_draw",
    "do_pass",
    "do_play",
    "draw_ok",
    "generate",
    "is_legal",
    "is_state",
    "lay",
    "legal_moves",
    "make",
    "new_legal",
    "not_a_state",
    "outcome",
    "pass_ok",
    "penalties",
    "play_ok",
    "replay",
    "restore",
    "settle",
    "states_of",
    "tiles_of",
    "union",
    "why_illegal",
]
