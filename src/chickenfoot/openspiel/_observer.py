"""The OpenSpiel game's observer: observation and information-state strings and tensors.

Part of :mod:`chickenfoot.openspiel` (which re-exports :class:`ChickenFootObserver` and
builds it in ``make_py_observer``); it reads a state only through the public properties of
:class:`~chickenfoot.openspiel.ChickenFootState` and the library's views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot._checks import instance
from chickenfoot._compact import draw_view
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.moves import Draw
from chickenfoot.openspiel._config import Config, pyspiel
from chickenfoot.tiles import Tile

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from chickenfoot.openspiel import ChickenFootState

__all__ = ["ChickenFootObserver"]


class ChickenFootObserver:
    """Observations and information states, as strings and as the encoding's tensors.

    The tensor is :meth:`chickenfoot.encoding.Encoding.observe` of the player's view (with
    the last ``INFO_HISTORY`` public events under perfect recall, none otherwise), the
    private fields (``hand``, ``drawn``) zeroed when private information is not asked for
    and the public ones zeroed when public information is not; in match scope a ``match``
    field follows (rounds played, then each seat's total, the viewer first).
    """

    def __init__(self, cfg: Config, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params is not None and not (type(params) is dict and not params):
            raise ArgumentError(f"observation parameters are not supported; got {brief(params)}")
        instance(iig_obs_type, pyspiel.IIGObservationType, "the observer")
        self._cfg = cfg
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._enc = cfg.enc_info if self.perfect_recall else cfg.enc
        n = self._enc.observation_size
        self.tensor: NDArray[np.float32] = np.zeros(n + cfg.match_size, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {}
        at = 0
        for name, size in self._enc.fields:
            self.dict[name] = self.tensor[at : at + size]
            at += size
        if cfg.match_size:
            self.dict["match"] = self.tensor[at:]
        self._round = self.tensor[:n]

    def set_from(self, state: ChickenFootState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        cfg = self._cfg
        core = state.round_state
        self.tensor.fill(0.0)
        if core is not None:
            self._enc.observe(core.view(player), out=self._round)
        else:
            hand = self.dict["hand"]
            for t in _dealt_to(state, player, self._cfg.hand_size):
                hand[t] = 1.0
        if not self.private:
            self.dict["hand"].fill(0.0)
            self.dict["drawn"].fill(0.0)
        if not self.public:
            keep_hand = self.dict["hand"].copy()
            keep_drawn = self.dict["drawn"].copy()
            self.tensor.fill(0.0)
            self.dict["hand"][:] = keep_hand
            self.dict["drawn"][:] = keep_drawn
        elif cfg.match_size:
            m = self.dict["match"]
            p = cfg.players
            m[0] = state.rounds_played
            for seat in range(p):
                m[1 + (seat - player) % p] = sum(row[seat] for row in state.scores)

    def string_from(self, state: ChickenFootState, player: int) -> str:
        """``player``'s observation (or information state, under perfect recall) as text."""
        cfg = self._cfg
        core = state.round_state
        parts = [f"seat {player}"]
        if self.public and cfg.scope == "match":
            parts.append(f"round {state.rounds_played}")
            if self.perfect_recall:
                for k, (done, row) in enumerate(zip(state.finished, state.scores, strict=True)):
                    events = " ".join(str(e) for e in done.view(player).history)
                    parts.append(f"round {k}: {events} scores {list(row)}")
            else:
                totals = [sum(row[s] for row in state.scores) for s in range(cfg.players)]
                parts.append(f"totals {totals}")
        if core is None:
            if self.private:
                dealt = " ".join(
                    str(Tile.from_id(t))
                    for t in sorted(_dealt_to(state, player, self._cfg.hand_size))
                )
                parts.append(f"dealing: hand {dealt}")
            elif self.public:
                parts.append("dealing")
            return "\n".join(parts)
        v = core.view(player)
        if not self.perfect_recall and self.public and self.private:
            parts.append(draw_view(v, width=80))
            return "\n".join(parts)
        if self.private:
            parts.append(f"hand {' '.join(str(t) for t in v.hand)}")
            if v.drawn is not None:
                parts.append(f"drawn {v.drawn}")
        if self.public:
            parts.append(
                f"turn {v.turn} hands {list(v.hand_sizes)} boneyard {v.boneyard_size}"
                + (" drawing" if state.drawing else "")
            )
            if self.perfect_recall:
                parts.append("history " + " ".join(_public(e, self.private) for e in v.history))
            else:
                parts.append("board " + " ".join(str(m) for m in v.board))
        return "\n".join(parts)


def _public(event: Any, private: bool) -> str:
    """An event as text; a draw's tile only when private information is shown."""
    if private or not isinstance(event.move, Draw):
        return str(event)
    return f"{event.seat}:draw"


def _dealt_to(state: ChickenFootState, player: int, hs: int) -> tuple[int, ...]:
    return state.dealing[player * hs : (player + 1) * hs]
