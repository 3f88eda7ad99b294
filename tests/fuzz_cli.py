"""Fuzz targets of the command line's streams and of the ``play`` prompt (issue 18, section 3).

Importing this module registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``); ``tests/test_fuzz_cli.py`` runs each for a short fixed budget.
The property is ``fuzz_targets.check``'s, and on top of it:

* ``cli play prompt``: a :class:`~chickenfoot.cli.play.Session` (a small match or round
  against bots) answered with a list of lines built from any text: control characters,
  lines of up to 100,000 characters, numbers that are not ASCII (``²``, ``٣``), the
  prompt's own commands with hostile arguments (``save`` of a NUL byte, of ``/dev/full``,
  of a directory, of a name too long...). The session never raises: it ends with status 0
  at ``quit`` or the end of the answers; every answer gets a reply; an answer that is not
  a move (nor ``undo``, nor Enter) leaves the game unchanged; a reported save reads back.
* ``cli streams``: :func:`chickenfoot.cli.main` on every command with standard output
  closed (``None``), full (``ENOSPC`` at once or after some characters, or when a buffer is
  flushed), a broken pipe, an I/O error, a closed file object or an ASCII-only encoding,
  standard input closed, unreadable, not UTF-8 or holding a document or answers, and
  standard error captured, closed or full. ``main`` never raises; a failure of standard
  output is status 1 with one ``chickenfoot: error: cannot write standard output: ...``
  line (none for a broken pipe); otherwise the usual 0 or 2 and one error line.

Saves are written in a temporary directory (the working directory during the call); a name
that would leave it (``/`` or a leading ``~``) is flattened, except for the fixed hostile
names of :data:`HOSTILE_SAVES` (the absolute ones cannot be written).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import io
import os
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.cli import main as cli_main
from chickenfoot.cli._save import PlaySave
from chickenfoot.cli.play import Game, Session
from chickenfoot.specs import Trust, agents_of
from fuzz_targets import LONG_TEXTS, MOVE_TEXTS, TEXTS, TILE_TEXTS, Case, _target, describe

__all__ = [
    "HOSTILE_SAVES",
    "NAMES",
    "PLAY_ROUND",
    "PromptRun",
    "StreamRun",
    "run_prompt",
    "run_streams",
]

NAMES = ["cli play prompt", "cli streams"]
"""The targets this module registers."""

# -- the play prompt -----------------------------------------------------------------------------

TINY = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
"""A double-4 set, two players of four tiles: a round of a few decisions."""

_GAMES = [
    (
        "a 2-round match, double-4",
        lambda: Game(match=cf.Match.start(TINY.replace(match=cf.Rounds(2)), seed=3)),
    ),
    ("a round, double-4", lambda: Game(record=cf.Record(cf.deal(TINY, 5)))),
    ("a round, double-9", lambda: Game(record=cf.Record(cf.deal(cf.Rules(players=2), 1)))),
    (
        "a 1-round match, double-9, 3 players",
        lambda: Game(match=cf.Match.start(cf.Rules(players=3, match=cf.Rounds(1)), seed=2)),
    ),
    (
        "a threshold match, holder mode",
        lambda: Game(
            match=cf.Match.start(
                cf.Rules.preset("classic", players=2, match=cf.Threshold(20)), seed=4
            )
        ),
    ),
]

HOSTILE_SAVES = [
    "/dev/full",
    "/nonexistent/dir/x.json",
    "a\x00b",
    "x" * 300,  # too long for a name
    "d/" + "x" * 300,
    "\udcff.json",  # a lone surrogate (a byte that was not UTF-8): written as that byte
    ".",
    "..",
    "dir",  # a directory (made in the temporary directory)
    "dir/",
    "missing/x.json",
    "",
    "  ",
    "~nobody-here-at-all/x.json",
]

_WORDS = ["help", "?", "h", "moves", "m", "table", "t", "show", "undo", "save", "quit", "exit"]
_WORDS += ["q", "draw", "pass", "HELP", "Undo", "SAVE", "  moves  "]
_ODD_NUMBERS = ["²", "³", "¹", "٣", "۳", "३", "①", "Ⅻ", "0", "-1", "+1", "1.0", "01", "1e3"]
_ODD_NUMBERS += ["999999", "99999999999999999999", "9" * 5000, " 1 ", "1 2", "\t2", "1\x00"]
_CONTROL = st.text(st.characters(max_codepoint=0x9F, categories=["Cc"]), min_size=1, max_size=8)

_SAVE_NAMES = st.one_of(
    st.sampled_from(HOSTILE_SAVES),
    st.text(max_size=30),
    st.builds("{}.json".format, st.text(max_size=8)),
)
ANSWERS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(_WORDS),
    st.sampled_from(_ODD_NUMBERS),
    st.integers(-2, 40).map(str),
    MOVE_TEXTS,
    TILE_TEXTS,
    _CONTROL,
    st.builds("{}{}{}".format, st.text(max_size=4), _CONTROL, st.text(max_size=4)),
    st.builds("save {}".format, _SAVE_NAMES),
    st.builds("{} {}".format, st.sampled_from(_WORDS), st.text(max_size=12)),
    st.just(""),
    LONG_TEXTS.filter(lambda t: len(t) <= 100_000),
)
"""One line typed at the prompt (without its newline)."""


@st.composite
def _prompt_cases(draw: st.DrawFn) -> Case:
    k = draw(st.integers(0, len(_GAMES) - 1))
    answers = draw(st.lists(ANSWERS, max_size=30))
    if draw(st.booleans()):
        answers.append("quit")
    bots = draw(st.sampled_from(["greedy", "random", "heuristic"]))
    seat = draw(st.integers(0, 1))
    return Case(k, answers, bots, seat, note=_GAMES[k][0])


@dataclass
class PromptRun:
    """What a session did with its answers, and what was wrong with it (``problems``)."""

    status: Any
    output: str
    problems: list[str] = field(default_factory=list)


def _safe_save(answer: str) -> str:
    """``save NAME`` kept inside the working directory (the hostile names stay as they are)."""
    word, sep, rest = answer.strip().partition(" ")
    if word.lower() != "save" or rest.strip() in HOSTILE_SAVES:
        return answer
    return f"{word}{sep}{rest.replace('/', '_').replace('~', '_')}"


def _may_change(answer: str) -> bool:
    """Whether ``answer`` may change the game: a number, a move or tile in notation, undo,
    or an empty line (Enter between rounds deals on, and the bots then move)."""
    text = answer.strip()
    if not text or text.split()[0].lower() == "undo":
        return True
    if text.isascii() and text.isdigit():
        return True
    try:
        cf.parse_move(text, max_pip=18)
    except cf.InvalidMoveError:
        return False
    return True


@contextlib.contextmanager
def _in_temporary_directory() -> Iterator[str]:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "dir"))
        os.chdir(tmp)
        try:
            yield tmp
        finally:
            os.chdir(here)


_SAVED = re.compile(r"Saved the (match|round), your seat and the bots to (.*)\.\n")


def run_prompt(k: int, answers: list[str], bots: str, seat: int) -> PromptRun:
    """Play game ``k`` of the pool at the prompt with ``answers``, then end of input."""
    game = _GAMES[k][1]()
    out = io.StringIO()
    players = game.rules.players
    others = [s for s in range(players) if s != seat]
    queue = [_safe_save(a) for a in answers]
    asked: list[tuple[str, Game, int, int]] = []  # answer given, game, moves, output length
    run = PromptRun(None, "")
    box: list[Session] = []

    def ask(prompt: str) -> str:
        s = box[0]
        if asked:
            answer, before, moves, length = asked[-1]
            if len(out.getvalue()) == length:
                run.problems.append(f"no reply to {describe(answer, 60)}")
            if not _may_change(answer) and (s.game is not before or s.moves != moves):
                run.problems.append(f"the game changed after {describe(answer, 60)}")
        out.write(prompt + "\n")
        if not queue:
            raise EOFError
        answer = queue.pop(0)
        asked.append((answer, s.game, s.moves, len(out.getvalue())))
        return answer

    session = Session(
        game,
        seat=seat,
        bots=dict(
            zip(others, agents_of(bots, len(others), "--bots", trust=Trust.user()), strict=True)
        ),
        rng=random.Random(0),
        out=out,
        ask=ask,
        header="fuzz",
    )
    box.append(session)
    with _in_temporary_directory():
        run.status = session.run()
        run.output = out.getvalue()
        saves = _SAVED.findall(run.output)
        if len(saves) != run.output.count("Saved the "):
            run.problems.append("a save line this check does not recognise (update _SAVED)")
        for kind, name in saves:
            try:
                with open(os.path.expanduser(name), encoding="utf-8") as f:
                    save = PlaySave.from_json(f.read())
                if isinstance(save.game, cf.Match) != (kind == "match"):
                    run.problems.append(f"saved {describe(name, 60)}, not the {kind} it says")
            except (OSError, ValueError) as err:
                run.problems.append(f"saved {describe(name, 60)}, which does not read back: {err}")
    return run


def _prompt_ok(case: Case, run: PromptRun) -> str | None:
    if run.status != 0:
        return f"the session ended with status {describe(run.status, 40)}, not 0"
    if "Traceback" in run.output:
        return "a traceback in the output"
    if run.problems:
        return "; ".join(run.problems[:3])
    if not re.search(
        r"(You left the game\.|you left the game\.|The match is over|the round with \d+\.)",
        run.output,
    ):
        return "the session ended without saying why"
    return None


_target("cli play prompt", _prompt_cases(), run_prompt, _prompt_ok)


# -- the streams of main -------------------------------------------------------------------------

START = cf.deal(cf.Rules(players=2), seed=1)
RECORD = cf.Record(START, [START.legal_moves[0]])
FIRST = str(START.legal_moves[0])


class _Failing(io.StringIO):
    """A text stream whose writes fail with ``error`` once ``after`` characters are in
    (its flush too, once a write failed), until :meth:`disarm`."""

    def __init__(self, error: BaseException, after: int) -> None:
        super().__init__()
        self.error: BaseException | None = error
        self.after = after
        self.failed = False

    def write(self, text: str) -> int:
        if self.error is not None and text and self.tell() + len(text) > self.after:
            self.failed = True
            raise self.error
        return super().write(text)

    def flush(self) -> None:
        if self.error is not None and self.failed:
            raise self.error

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no descriptor")  # main must never dup2 over a real one

    def disarm(self) -> None:
        self.error = None


class _FailingRaw(io.RawIOBase):
    """Bytes that fail with ``error`` once ``after`` are in: under a buffer, the error comes
    when the buffer is flushed (at the end, or in the middle of a long output)."""

    def __init__(self, error: BaseException, after: int) -> None:
        self.error: BaseException | None = error
        self.after = after
        self.written = 0
        self.failed = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        n = len(data)
        if self.error is not None and self.written + n > self.after:
            self.failed = True
            raise self.error
        self.written += n
        return n

    def disarm(self) -> None:
        self.error = None


class _Ascii(io.TextIOWrapper):
    """An ASCII-only standard output (``PYTHONIOENCODING=ascii``)."""

    failed = False

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="ascii")

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except UnicodeEncodeError:
            self.failed = True
            raise

    def disarm(self) -> None:
        pass


class _Unreadable(io.StringIO):
    """A standard input whose reads fail (``EIO``: a terminal that went away)."""

    def read(self, size: int | None = -1) -> str:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def readline(self, size: int | None = -1) -> str:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def _error(kind: str) -> BaseException:
    number = {"full": errno.ENOSPC, "I/O error": errno.EIO, "bad descriptor": errno.EBADF}
    if kind == "broken pipe":
        return BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
    return OSError(number[kind], os.strerror(number[kind]))


_FAILURES = ["full", "broken pipe", "I/O error", "bad descriptor"]
STDOUTS = ["ok", "closed", "closed file", "ascii"]
STDOUTS += [f"{e}, {how}" for e in _FAILURES for how in ("now", "buffered")]
STDINS = ["none", "closed file", "I/O error", "not UTF-8", "document", "answers", "empty"]
STDERRS = ["ok", "ok", "ok", "closed", "full"]

PLAY_ROUND = ["play", "--round", "--players", "2", "--seed", "1", "--bots", "random"]
_COMMANDS = [
    ["demo", "--players", "2"],
    ["demo", "--players", "1"],  # a usage error: nothing on stdout
    ["rules"],
    ["rules", "classic", "--compact"],
    ["--help"],
    ["--version"],
    ["show", "--help"],
    ["validate", "POS"],
    ["show", "POS"],
    ["show", "REC", "--long"],
    ["show", "POS", "--svg", "-"],
    ["show", "POS", "--svg", "/dev/full"],
    ["moves", "POS"],
    ["apply", "POS", FIRST],
    ["perft", "POS", "--depth", "1"],
    ["replay", "REC"],
    ["replay", "REC", "--final"],
    ["convert", "REC", "-", "--to", "notation", "--audience", "seat:1"],
    ["show", "-"],
    ["validate", "-"],
    ["moves", "-"],
    ["simulate", "--games", "1", "--players", "2", "--set", 'match={"rounds": 1}']
    + ["--agents", "random"],
    PLAY_ROUND,
    ["play", "--players", "2", "--set", 'match={"rounds": 1}', "--seed", "2", "--bots", "greedy"],
]
_SHORT_ANSWERS = st.one_of(ANSWERS, TEXTS).filter(lambda a: len(a) < 1000)


@st.composite
def _stream_cases(draw: st.DrawFn) -> Case:
    argv = draw(st.sampled_from(_COMMANDS))
    stdout = draw(st.sampled_from(STDOUTS))
    after = draw(st.sampled_from([0, 1, 10, 100, 1000, 5000, 10**9]))
    stdin = draw(st.sampled_from(STDINS))
    answers = draw(st.lists(_SHORT_ANSWERS, max_size=6)) if stdin == "answers" else []
    stderr = draw(st.sampled_from(STDERRS))
    return Case(argv, stdout, after, stdin, answers, stderr)


@dataclass
class StreamRun:
    """What ``main`` returned, what it wrote on a captured stderr, and how stdout failed."""

    status: Any
    stderr: str | None
    failed: str | None
    """The kind of the stdout failure that happened (``None``: no write failed)."""


def _stdout(kind: str, after: int) -> tuple[Any, Any]:
    """The stream for ``kind``, and the object that records whether a write failed."""
    if kind == "ok":
        return io.StringIO(), None
    if kind == "closed":
        return None, None
    if kind == "closed file":
        s = io.StringIO()
        s.close()
        return s, None
    if kind == "ascii":
        a = _Ascii()
        return a, a
    error, how = kind.split(", ")
    if how == "now":
        f = _Failing(_error(error), after)
        return f, f
    raw = _FailingRaw(_error(error), after)
    return io.TextIOWrapper(io.BufferedWriter(raw, 64), encoding="utf-8"), raw


def _stdin(kind: str, answers: list[str]) -> Any:
    if kind == "none":
        return None
    if kind == "closed file":
        s = io.StringIO()
        s.close()
        return s
    if kind == "I/O error":
        return _Unreadable()
    if kind == "not UTF-8":
        return io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00 1\n\xc3(\nquit\n"), encoding="utf-8")
    if kind == "document":
        return io.StringIO(START.to_json())
    lines = "\n".join(answers).split("\n")  # an answer may hold a newline: more lines
    return io.StringIO("".join(_safe_save(line) + "\n" for line in lines if answers))


_FILES: dict[str, str] = {}
_DIRECTORY: list[tempfile.TemporaryDirectory[str]] = []


def _file(name: str) -> str:
    """The path of the document ``POS`` or ``REC``, written once per process."""
    if not _FILES:
        _DIRECTORY.append(tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-"))
        atexit.register(_DIRECTORY[0].cleanup)
        tmp = _DIRECTORY[0].name
        for key, text in (("POS", START.to_json()), ("REC", RECORD.to_json())):
            path = os.path.join(tmp, f"{key.lower()}.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            _FILES[key] = path
    return _FILES[name]


def run_streams(
    argv: list[str],
    stdout_kind: str,
    after: int,
    stdin_kind: str,
    answers: list[str],
    stderr_kind: str,
) -> StreamRun:
    """Run ``main(argv)`` in this process with the three standard streams replaced."""
    argv = [_file(a) if a in ("POS", "REC") else a for a in argv]
    stdout, recorder = _stdout(stdout_kind, after)
    stdin = _stdin(stdin_kind, answers)
    stderr: Any = {"ok": io.StringIO(), "closed": None}.get(stderr_kind)
    if stderr_kind == "full":
        stderr = _Failing(_error("full"), 0)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        with _in_temporary_directory():
            status = cli_main(argv)
    except cf.ChickenFootError as err:  # allowed by the shared property, but not from main
        raise AssertionError(f"main raised {type(err).__name__}: {err}") from None
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        text = stderr.getvalue() if stderr_kind == "ok" else None
        for stream in (recorder, stderr):  # nothing may fail again when they are collected
            if hasattr(stream, "disarm"):
                stream.disarm()
        for stream in (stdout, stdin, stderr):
            with contextlib.suppress(Exception):
                stream.close()
    failed = None
    if recorder is not None and recorder.failed:
        failed = stdout_kind.split(", ", maxsplit=1)[0]
    return StreamRun(status, text, failed)


_ERROR_LINE = re.compile(r"chickenfoot: error: ([^\n]*)\n\Z")


def _streams_ok(case: Case, run: StreamRun) -> str | None:
    argv, stdout_kind, _, stdin_kind, _, _ = case.args
    if type(run.status) is not int:
        return f"main returned {describe(run.status, 60)}, not an int"
    err = run.stderr
    if err is not None and ("Traceback" in err or "Exception ignored" in err):
        return "a traceback on stderr"
    expected: str | None
    if stdout_kind == "closed":
        expected = "chickenfoot: error: cannot write standard output: it is closed\n"
    elif run.failed == "broken pipe":
        expected = ""
    elif run.failed == "ascii":
        expected = None
        if err is not None and not err.startswith(
            "chickenfoot: error: cannot write standard output: its encoding, ascii, has no "
        ):
            return f"an ASCII stdout failed with {describe(err, 200)}"
    elif run.failed is not None:
        reason = str(_error(run.failed).strerror)
        expected = f"chickenfoot: error: cannot write standard output: {reason}\n"
    elif stdout_kind == "closed file" and run.status == 1:
        expected = "chickenfoot: error: cannot write standard output: it is closed\n"
    else:  # the output did not fail: the usual statuses
        play_unreadable = argv[0] == "play" and stdin_kind in ("I/O error", "closed file")
        allowed = {0, 1, 2} if play_unreadable else {0, 2}
        if run.status not in allowed:
            return f"exit status {run.status} with no failure of standard output"
        if err is None:
            return None
        if run.status == 2:
            if _ERROR_LINE.match(err) is None:
                return f"status 2, but stderr is not one error line: {describe(err, 200)}"
            return None
        expected = ""
    if run.status != 1 and (stdout_kind == "closed" or run.failed is not None):
        return f"exit status {run.status} after standard output failed ({stdout_kind})"
    if err is not None and expected is not None and err != expected:
        return f"stderr is {describe(err, 200)}, expected {describe(expected, 200)}"
    return None


_target("cli streams", _stream_cases(), run_streams, _streams_ok)
