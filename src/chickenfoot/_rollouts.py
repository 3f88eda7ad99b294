"""The typed boundary of the compiled search (``SearchAgent(backend="numba")``).

:class:`Rollouts` turns a sampled world (a :class:`~chickenfoot.State`) into the arrays of
the kernel :mod:`chickenfoot._jit.search` and runs, in one call, the rollouts a search
iteration makes: each legal move made, the round played to its end with the greedy or
the random rollout, each seat's penalty. The results are exactly those of the pure path
(``playout(apply(world, move), ...)``); the kernel is the speed-up, never another game.
:meth:`Rollouts.search` runs whole iterations: with a plain :class:`random.Random` the
kernel :mod:`chickenfoot._jit.sample` also deals the worlds, exactly as
:meth:`View.sample <chickenfoot.View.sample>` would from the same generator.

numba and numpy are imported here lazily (:func:`load`, on the first compiled decision),
never by ``import chickenfoot`` or ``import chickenfoot.agents``; the kernel is untyped
and reached only through this module, as ``Any``. It is compiled on first use and cached
on disk (numba's ``cache=True``: in ``__pycache__`` beside it, or ``NUMBA_CACHE_DIR``), so
a machine pays the compile once; :func:`load` also makes one small call, so that the
compile (or the load from the cache) happens before a decision's clock starts.

>>> import random
>>> from chickenfoot import Rules, apply, deal, playout
>>> s = deal(Rules(), seed=2)
>>> legal = s.legal_moves
>>> if available():
...     got = Rollouts(s.rules, legal, "random", 0).penalties(s, 7)
... else:  # (without numba: what the kernel gives)
...     got = [playout(apply(s, m), random.Random(7)).penalties() for m in legal]
>>> got == [playout(apply(s, m), random.Random(7)).penalties() for m in legal]
True
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from chickenfoot._slots import Weights
from chickenfoot.errors import AgentError
from chickenfoot.moves import DRAW, PASS, Move, Play
from chickenfoot.rules import Rules
from chickenfoot.sampling import problem
from chickenfoot.state import State, apply
from chickenfoot.tiles import DOUBLE_ID, PIPS, WITH, set_size
from chickenfoot.view import View

__all__ = [
    "BACKENDS",
    "OBJECTIVES",
    "ROLLOUTS",
    "Rollouts",
    "Sampler",
    "agrees",
    "available",
    "heuristic_policy",
    "in_chunks",
    "load",
    "note_lacking",
    "resolve",
    "score",
]

BACKENDS: Final = ("auto", "numba", "python")
"""The values of ``SearchAgent(backend=...)``."""

ROLLOUTS: Final = ("greedy", "random", "heuristic")
"""The values of ``SearchAgent(rollout=...)``, in the kernel's order (its ``mode``)."""
OBJECTIVES: Final = ("margin", "win")
"""The values of ``SearchAgent(objective=...)``, in the kernel's order."""

_MODULES: dict[str, Any] = {}
_CHUNK: Final = 0.0005  # seconds of compiled iterations between two reads of the clock


def in_chunks(
    run: Callable[[int], object], iterations: int, deadline: float | None, seconds: float
) -> None:
    """Call ``run(count)`` until ``iterations`` are done or ``time.perf_counter()`` passes
    ``deadline``: all at once without a deadline, else in chunks sized to take about
    ``seconds`` each (compiled iterations are too quick to read the clock between)."""
    if deadline is None:
        run(iterations)
        return
    done, chunk = 0, 1
    while done < iterations:
        count = min(chunk, iterations - done)
        began = time.perf_counter()
        run(count)
        done += count
        now = time.perf_counter()
        if now > deadline:
            return
        chunk = max(1, int(count * seconds / max(now - began, 1e-9)))


_TABLES: dict[tuple[int, int], tuple[Any, ...]] = {}
_FOUND: list[bool] = []
_DOUBLES: Final = sum(1 << d for d in DOUBLE_ID)  # every double, as a mask of tile ids


def available() -> bool:
    """Whether numba can be imported (without importing it; looked up once a process)."""
    if not _FOUND:
        _FOUND.append(importlib.util.find_spec("numba") is not None)
    return _FOUND[0]


def resolve(backend: str) -> bool:
    """Whether a search with ``backend`` runs compiled: ``"auto"`` when numba can be
    imported; ``"numba"`` without numba raises :class:`~chickenfoot.AgentError` naming the
    extra that brings it."""
    if backend == "python":
        return False
    if backend == "numba" and not available():
        raise AgentError(
            "backend='numba' needs numba, which is not installed: "
            "pip install 'chickenfoot[fast]' (or use backend='python')"
        )
    return available()


def load() -> Any:
    """The kernel module, compiled (or loaded from numba's cache) and warmed up once."""
    if not _MODULES:
        np = importlib.import_module("numpy")
        kernel = importlib.import_module("chickenfoot._jit.search")
        _MODULES["np"] = np
        _MODULES["kernel"] = kernel
        _MODULES["sample"] = importlib.import_module("chickenfoot._jit.sample")
        _MODULES["mt0"] = np.array(_init_genrand(19650218), dtype=np.uint64)
        # One call per rollout, so that numba compiles (or loads) both before any clock.
        warm = _warm_up()
        for rollout in ROLLOUTS:
            Rollouts(warm.rules, warm.legal_moves, rollout, warm.turn).run(warm, 1)
        agrees()  # compiles the sampler, and checks it against this Python's random module
    return _MODULES["kernel"]


def _warm_up() -> State:
    from chickenfoot.deal import deal

    return deal(Rules(), seed=0)


def _init_genrand(s: int) -> list[int]:
    """The Mersenne Twister's state after ``init_genrand(s)`` (CPython's ``_random``)."""
    mt = [s & 0xFFFF_FFFF]
    for i in range(1, 624):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFF_FFFF)
    return mt


def _tables(max_pip: int, double_blank: int) -> tuple[Any, ...]:
    """``(px, py, val, withw)`` of a set (cached)."""
    key = (max_pip, double_blank)
    got = _TABLES.get(key)
    if got is None:
        np = _MODULES["np"]
        size = set_size(max_pip)
        words = (size + 63) // 64
        full = (1 << size) - 1
        px = np.array([PIPS[t][0] for t in range(size)], dtype=np.int64)
        py = np.array([PIPS[t][1] for t in range(size)], dtype=np.int64)
        val = px + py
        val[0] = double_blank
        withw = np.frombuffer(
            b"".join((WITH[v] & full).to_bytes(8 * words, "little") for v in range(max_pip + 1)),
            dtype="<u8",
        ).reshape(max_pip + 1, words)
        got = _TABLES[key] = (px, py, val, withw.copy())
    return got


class Rollouts:
    """The compiled rollouts of one decision: the legal moves of the seat ``seat`` to act
    under ``rules``, finished by ``rollout`` (``"greedy"`` or ``"random"``).

    :meth:`run` adds one sampled world's results to :attr:`totals`, the search agent's
    scores summed over the worlds (per move, with ``objective="margin"``: the seat's
    penalty minus the others' mean; with ``"win"``: minus its share of the round's win).
    """

    def __init__(
        self,
        rules: Rules,
        legal: Sequence[Move],
        rollout: str,
        seat: int,
        objective: str = "margin",
    ) -> None:
        kernel = load()
        np = _MODULES["np"]
        self._run = kernel.rollouts
        self._np = np
        self._mt0 = _MODULES["mt0"]
        self.seat = seat
        self.mode = ROLLOUTS.index(rollout)
        self.players = rules.players
        self.words = (rules.set_size + 63) // 64
        self.full = (1 << rules.set_size) - 1
        self.px, self.py, self.val, self.withw = _tables(rules.max_pip, rules.double_blank)
        self.cf = np.array(
            [
                rules.players,
                self.words,
                rules.max_pip + 1,
                rules.draw == "until_playable",
                rules.may_draw_instead,
                rules.drawn_tile == "may_play",
                rules.opening_toes,
                rules.foot_toes,
                OBJECTIVES.index(objective),
            ],
            dtype=np.int64,
        )
        self.moves = np.array([_code(m) for m in legal], dtype=np.int64).reshape(len(legal), 2)
        self.pens = np.zeros((len(legal), rules.players), dtype=np.int64)
        self.scores = np.zeros(len(legal), dtype=np.float64)

    def run(self, world: State, seed: int) -> None:
        """Add the rollouts of ``world`` (the random rollout: ``random.Random(seed)``)."""
        np = self._np
        nbytes = 8 * self.words
        full = self.full
        parts = [h.to_bytes(nbytes, "little") for h in world._hands]
        parts += [e.to_bytes(nbytes, "little") for e in world._ends]
        parts.append((world._mask & full).to_bytes(nbytes, "little"))
        bits = np.frombuffer(b"".join(parts), dtype="<u8")
        sc = np.array(
            [
                world.turn,
                world._drawn,
                world._pending,
                world._need,
                world._nums,
                1 if world.board else 0,
                world._centre,
            ],
            dtype=np.int64,
        )
        bone = np.array(world._bone, dtype=np.int64)
        self._run(
            bits,
            sc,
            bone,
            self.moves,
            self.px,
            self.py,
            self.val,
            self.withw,
            self.cf,
            self.mode,
            np.uint64(seed),
            self._mt0,
            self.pens,
            self.scores,
            self.seat,
        )

    def search(
        self, view: View, rng: random.Random, iterations: int, deadline: float | None
    ) -> None:
        """Add up to ``iterations`` sampled worlds of ``view`` (``view.sample(rng)``, the
        seed ``rng.getrandbits(64)``), stopping once past ``deadline`` (compiled, the clock
        is read about every half millisecond).

        With a plain :class:`random.Random` the samples are dealt by the kernel too, from
        ``rng``'s state, which is then written back: the same samples, seeds and state as
        the pure loop; otherwise (a subclass, or a Python whose generator the self-check found
        to differ) the pure sampler deals them."""
        sampler = Sampler(view, self) if type(rng) is random.Random and agrees() else None
        if sampler is None or not sampler.ok:
            for _ in range(iterations):
                self.run(view.sample(rng), rng.getrandbits(64))
                if deadline is not None and time.perf_counter() > deadline:
                    break
            return
        sampler.start(rng)
        try:
            in_chunks(sampler.iterate, iterations, deadline, _CHUNK)
        finally:
            sampler.finish(rng)

    def penalties(self, world: State, seed: int) -> list[tuple[int, ...]]:
        """Each move's final penalties in ``world`` (what :meth:`run` adds up)."""
        self.run(world, seed)
        return [tuple(int(x) for x in row) for row in self.pens]

    @property
    def totals(self) -> list[float]:
        """The scores so far, one per legal move."""
        return [float(x) for x in self.scores]


def score(pens: Sequence[int], seat: int, objective: str) -> float:
    """What one rollout adds to a move's total (lower is better), as the kernel adds it:
    ``"margin"``, the seat's penalty minus the others' mean; ``"win"``, minus its share of
    the round's win (``1 / k`` when it is one of ``k`` seats with the lowest penalty)."""
    own = pens[seat]
    if objective == "margin":
        return own - (sum(pens) - own) / (len(pens) - 1)
    low = min(pens)
    return -1.0 / pens.count(low) if own == low else 0.0


def heuristic_policy(state: State, legal: Sequence[Move], lacking: Sequence[int] = ()) -> Move:
    """The rollout ``"heuristic"``: :class:`~chickenfoot.HeuristicAgent`'s choice at its
    default weights, on a full state. Each play scores the points it sheds; plus 2 for each
    kept tile matching the number it leaves open (6 each when it also keeps the double of
    that number); a double laid on an open end plus 6 if a kept tile matches it, else minus
    6; minus 3 for a non-double sharing a number with a double still held; ``hurt``: plus 3
    for each other seat lacking that number by ``lacking`` (:func:`note_lacking`; none by
    default). The best play, the first listed among equals; without a play, the first move
    (the draw or the pass). In integers: the kernel's ``heuristic_play`` is the same."""
    # Over the kernel's bitmasks (chickenfoot._kernel's contract: a hand is a mask of tile
    # ids, ``_ends[v]`` the anchors whose line ends in ``v``): a rollout calls this at
    # every move, and ``state.open_ends`` per play would cost most of the rollout.
    hand = state._hands[state.turn]
    doubles = hand & _DOUBLES
    ends = state._ends
    pending = state._pending
    blank = state.rules.double_blank
    best, best_score = legal[0], -(1 << 30)
    for m in legal:
        if not isinstance(m, Play):
            continue
        tile, anchor = m.tile, m.anchor
        t, h, low = tile.id, tile.high, tile.low
        rest = hand & ~(1 << t)
        score = blank if t == 0 else h + low
        number = -1  # the number the play leaves open (none for the centre or a double)
        if anchor is not None:
            if h == low:
                score += 6 if rest & WITH[h] else -6
            elif pending >= 0:  # a toe
                number = low if h == PIPS[pending][0] else h
            else:
                number = low if ends[h] >> anchor.id & 1 else h
        if number >= 0:
            followers = (rest & WITH[number]).bit_count()
            score += 2 * followers * (3 if rest >> DOUBLE_ID[number] & 1 else 1)
            for seat, lacks in enumerate(lacking):
                if seat != state.turn and lacks >> number & 1:
                    score += 3
        if h != low and doubles & (WITH[h] | WITH[low]):
            score -= 3
        if score > best_score:
            best, best_score = m, score
    return best


def note_lacking(state: State, legal: Sequence[Move], lacking: list[int]) -> None:
    """Before ``state``'s move: a seat without a play (a draw or a pass) lacks the numbers
    open to it (the hub's while a hub needs toes) and no others, as ``public_facts`` reads
    the house rules' history; the kernel's ``note`` (``_jit.ismcts``) is the same."""
    if not any(isinstance(m, Play) for m in legal):
        pending = state._pending
        lacking[state.turn] = 1 << PIPS[pending][0] if pending >= 0 else state._nums


def _code(m: Move) -> tuple[int, int]:
    if isinstance(m, Play):
        return m._t, m._a
    if m is DRAW:
        return -1, -1
    if m is PASS:
        return -2, -1
    raise AgentError(f"{m} is not a listed legal move")  # a named draw is never listed


class Sampler:
    """The arrays of a view's sampling problem (:func:`chickenfoot.sampling.problem`), for
    the kernels :mod:`chickenfoot._jit.sample` and :mod:`chickenfoot._jit.ismcts` (the
    IS-MCTS of :mod:`chickenfoot.ismcts`): ``ok`` whether the kernel can deal this view;
    between :meth:`start` and :meth:`finish` the arrays ``mt`` and ``pos`` are the
    generator's state, which a kernel advances as ``View.sample`` would (``weights``: as
    ``sample_state`` deals with them)."""

    def __init__(self, view: View, rollouts: Rollouts, weights: Weights | None = None) -> None:
        p = problem(view)
        table = view._table
        self.ok = p.drawn_slot < 0 and table._drawn == (-1 if view.drawn is None else view.drawn.id)
        if not self.ok:  # (another seat's drawn tile to deal: never at a decision)
            return
        np = _MODULES["np"]
        self.np = np
        self.rollouts = rollouts
        r = rollouts
        nbytes = 8 * r.words
        zero = bytes(nbytes)
        parts = [zero] * view.players
        parts += [e.to_bytes(nbytes, "little") for e in table._ends]
        parts.append((table._mask & r.full).to_bytes(nbytes, "little"))
        self.bits = np.frombuffer(b"".join(parts), dtype="<u8").copy()
        self.hand = np.frombuffer(table._hands[view.seat].to_bytes(nbytes, "little"), dtype="<u8")
        self.sc = np.array(
            [
                view.turn,
                table._drawn,
                table._pending,
                table._need,
                table._nums,
                1 if view.board else 0,
                view.centre.id,
            ],
            dtype=np.int64,
        )
        i64, w = np.int64, weights or [dict.fromkeys(gs, 1.0) for gs in p.feasible]
        offsets = [0]
        for slots in p.feasible:
            offsets.append(offsets[-1] + len(slots))
        tables = [0]  # each slot's list of tiles, with room for one more than it holds
        for cap in p.cap:
            tables.append(tables[-1] + cap + 1)
        self.pr = (
            np.array(p.tiles, dtype=i64),
            np.array(offsets, dtype=i64),
            np.array([g for slots in p.feasible for g in slots] or [0], dtype=i64),
            np.array(p.cap, dtype=i64),
            np.array(p.owner, dtype=i64),
            np.array(p.base, dtype=i64),
            np.array(p.force, dtype=i64).reshape(len(p.force), 2),
            np.array([t in p.played for t in p.tiles], dtype=np.bool_),
            np.array(tables, dtype=i64),
            np.array([view.players, p.bone_slot, view.seat], dtype=i64),
            np.array([w[x][g] for x, gs in enumerate(p.feasible) for g in gs] or [1.0]),
        )

    def start(self, rng: random.Random) -> None:
        np = self.np
        self.version, words, self.gauss = rng.getstate()
        self.mt = np.array(words[:624], dtype=np.uint64)
        self.pos = np.array(words[624:], dtype=np.int64)

    def iterate(self, count: int) -> None:
        r = self.rollouts
        ok = _MODULES["sample"].iterations(
            self.pr,
            self.mt,
            self.pos,
            count,
            self.bits,
            self.sc,
            r.moves,
            (r.px, r.py, r.val, r.withw),
            r.cf,
            r.mode,
            r._mt0,
            r.pens,
            r.scores,
            r.seat,
            self.hand,
        )
        if not ok:  # pragma: no cover - assign never fails once the problem is built
            raise AssertionError("a compiled sample failed")

    def finish(self, rng: random.Random) -> None:
        words = (*(int(x) for x in self.mt), int(self.pos[0]))
        rng.setstate((self.version, words, self.gauss))


def agrees() -> bool:
    """Whether the compiled sampler deals as this Python does (checked once a process)."""
    got = _MODULES.get("agree")
    if got is None:
        got = _MODULES["agree"] = _self_check()
    return bool(got)


def _self_check() -> bool:
    """Compare compiled and pure searches on a few views with histories (draws, passes)."""
    from chickenfoot.deal import deal

    for k, rules in enumerate(
        (Rules(), Rules(players=2), Rules(centre="holder", draw="until_playable"))
    ):
        s = deal(rules, seed=k)
        rng = random.Random(k)
        for ply in range(200):
            if s.is_over():
                break
            legal = s.legal_moves
            if ply % 9 == 4 and len(legal) > 1:
                v = s.view(s.turn)
                a = Rollouts(rules, legal, "random", s.turn)
                b = Rollouts(rules, legal, "random", s.turn)
                ra, rb = random.Random(ply), random.Random(ply)
                _MODULES["agree"] = True
                a.search(v, ra, 3, None)
                _MODULES["agree"] = None
                for _ in range(3):
                    b.run(v.sample(rb), rb.getrandbits(64))
                if a.totals != b.totals or ra.getstate() != rb.getstate():
                    return False
            s = apply(s, rng.choice(legal))
    return True
