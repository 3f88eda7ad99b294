"""A trained policy at the table: :class:`PolicyAgent`, a small network read from a file.

The file is a numpy ``.npz`` archive written by :func:`save_policy`: the rules it was
trained under (their JSON), the layers ``w0, b0, w1, b1, ...`` of a multilayer perceptron
with ``tanh`` between layers, whose last layer gives one logit per action of
:class:`~chickenfoot.encoding.Encoding`. It is read as data, bounded by what it inflates
to: the zip's directory first (at most a few dozen members, stored or deflated), then
every member's ``.npy`` header (shape and dtype: no objects, so nothing is unpickled),
checked against the rules and :data:`MAX_POLICY_BYTES` before any array is read, and each
array inflated to exactly the bytes its header declares (a member that holds more, or
less, is refused). A name that is not a regular file (a named pipe, a device) is refused
without being opened to wait on. The agent observes its view in that encoding
and plays the legal move of the highest logit. numpy is all it needs (the ``batch``
extra); the examples' PPO (``examples/ppo_numpy.py``) writes such files, and the agent
spec ``policy:PATH`` names one (docs: Agents; a spec read from a file may not).

>>> import io, random
>>> import numpy as np
>>> import chickenfoot as cf
>>> from chickenfoot.encoding import Encoding
>>> enc = Encoding(cf.Rules())
>>> layers = [np.zeros((enc.observation_size, enc.num_actions), np.float32),
...           np.zeros(enc.num_actions, np.float32)]
>>> buf = io.BytesIO()
>>> save_policy(buf, cf.Rules(), layers)
>>> agent = PolicyAgent.load(io.BytesIO(buf.getvalue()))
>>> v = cf.deal(cf.Rules(), seed=2).view(0)
>>> str(agent.choose(v, v.legal_moves, random.Random(0)))
'9-2@9-9'
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import zipfile
import zlib
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, Final

import attrs
import numpy as np

from chickenfoot._files import open_regular, why_not
from chickenfoot.encoding import Encoding
from chickenfoot.errors import AgentError, FormatError, brief
from chickenfoot.formats import loads
from chickenfoot.moves import Move
from chickenfoot.rules import Rules
from chickenfoot.state import LegalMoves
from chickenfoot.view import View

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["FORMAT", "MAX_POLICY_BYTES", "PolicyAgent", "save_policy"]

FORMAT: Final = "chickenfoot-policy-1"
"""The ``format`` entry of a policy file."""

MAX_POLICY_BYTES: Final = 64 << 20
"""The most a policy file may inflate to (64 MiB): the total size of its arrays, as their
headers declare them, checked before any is read. The file itself may be at most 1 MiB
larger (an archive of stored arrays, with its headers)."""

_MAX_LAYERS: Final = 16
_NAMES: Final = frozenset(
    ["format.npy", "rules.npy"] + [f"{wb}{k}.npy" for wb in "wb" for k in range(_MAX_LAYERS)]
)
_MAX_MEMBERS: Final = len(_NAMES)
_MAX_DIRECTORY: Final = 64 << 10
_MAX_TEXT: Final = 1 << 16  # characters of the format and rules entries
_MAX_HEADER: Final = 4096  # bytes of an .npy header
_UNREADABLE: Final = (
    OSError,  # the file: missing, no permission, not regular (NotRegularError), not seekable
    ValueError,  # a name with a NUL byte, an array header that is not one
    EOFError,  # a deflate stream cut short
    zipfile.BadZipFile,  # not a zip, a bad CRC...
    zlib.error,  # a deflate stream that is not one
    struct.error,
    RuntimeError,  # zipfile: a password needed
    NotImplementedError,  # zipfile: a method it does not know
)


def save_policy(
    file: str | os.PathLike[str] | IO[bytes], rules: Rules, layers: Sequence[Any]
) -> None:
    """Write a policy file: ``layers`` alternate weights ``(inputs, outputs)`` and biases
    ``(outputs,)``, from ``observation_size`` inputs to ``num_actions`` outputs."""
    arrays: dict[str, Any] = {
        "format": np.array(FORMAT),
        "rules": np.array(json.dumps(rules.to_dict(), sort_keys=True)),
    }
    for k, a in enumerate(layers):
        arrays[f"{'wb'[k % 2]}{k // 2}"] = np.asarray(a, dtype=np.float32)
    np.savez_compressed(file, **arrays)


def rules_in_brief(rules: Rules) -> str:
    """``rules`` in a few words: players and set, then each field of a round that differs
    from the default rules of that table (the match's fields left out).

    >>> rules_in_brief(Rules(players=3, centre="holder"))
    '3 players, double-9, centre=holder'
    """
    base = Rules(players=rules.players, max_pip=rules.max_pip, hand_size=rules.hand_size)
    other = [
        f"{field}={getattr(rules, field)}"
        for field in rules.to_dict()
        if field not in ("players", "max_pip", "match", "tie_break")
        and getattr(rules, field) != getattr(base, field)
    ]
    return ", ".join([f"{rules.players} players, double-{rules.max_pip}", *other])


class PolicyAgent:
    """Plays the legal move its network scores highest (see the module doc).

    Deterministic: the first legal move among equal logits. Make one with :meth:`load`.
    """

    def __init__(self, rules: Rules, layers: Sequence[NDArray[np.float32]]) -> None:
        self.rules = rules
        self.encoding = Encoding(rules)
        self._other: Encoding | None = None  # the encoding of a match's rules
        self.layers = [np.asarray(x, dtype=np.float32) for x in layers]

    @classmethod
    def load(cls, file: str | os.PathLike[str] | IO[bytes]) -> PolicyAgent:
        """The agent of a policy file; :class:`~chickenfoot.AgentError` if it is not one,
        is not a regular file, or would inflate to more than :data:`MAX_POLICY_BYTES`."""
        is_path = isinstance(file, (str, os.PathLike))
        name = brief(str(file) if is_path else "the file", 200)
        try:
            if isinstance(file, (str, os.PathLike)):
                with os.fdopen(open_regular(file), "rb") as f:
                    got = _read(f, name)
            else:
                got = _read(file, name)
        except AgentError:
            raise
        except _UNREADABLE as err:
            why = why_not(err) if isinstance(err, OSError) else brief(str(err), 200)
            raise AgentError(f"policy {name} cannot be read: {why}") from None
        return cls(*got)

    def plays(self, rules: Rules) -> bool:
        """Whether the policy plays rounds of ``rules``: its own, but for the match fields
        (``match``, ``tie_break``), which do not enter a round."""
        same = attrs.evolve(rules, match=self.rules.match, tie_break=self.rules.tie_break)
        return bool(same == self.rules)

    def unfit(self, rules: Rules) -> str | None:
        """Why the policy cannot play rounds of ``rules``, naming the rules it was trained
        for, or ``None`` when it :meth:`plays` them: for a game to say at its start, not
        after its first move.

        >>> from chickenfoot import Rounds
        >>> agent = PolicyAgent(Rules(), [])  # (no layers: enough to ask about rules)
        >>> agent.unfit(Rules(players=2))
        'it was trained for 4 players, double-9 and plays those rules only, not 2 players, double-9'
        >>> agent.unfit(Rules(opening_toes=4))
        'it was trained for 4 players, double-9 and plays those rules only, not 4 players, double-9, opening_toes=4'
        >>> agent.unfit(Rules(match=Rounds(1))) is None  # the match's length is not the round's
        True
        """
        if self.plays(rules):
            return None
        return (
            f"it was trained for {rules_in_brief(self.rules)} and plays those rules only, not "
            f"{rules_in_brief(rules)}"
        )

    def _encoding(self, rules: Rules) -> Encoding:
        if self._other is None or self._other.rules != rules:
            self._other = Encoding(rules)
        return self._other

    def logits(self, observations: NDArray[np.float32]) -> NDArray[np.float32]:
        """The network's logits of observations ``(k, observation_size)``."""
        x = observations
        last = len(self.layers) - 2
        for k in range(0, len(self.layers), 2):
            x = x @ self.layers[k] + self.layers[k + 1]
            if k < last:
                x = np.tanh(x)
        return x

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        """The legal move of the highest logit."""
        if not self.plays(view.rules):
            raise AgentError("PolicyAgent: the table's rules are not the policy's")
        enc = self.encoding if view.rules == self.rules else self._encoding(view.rules)
        scores = self.logits(enc.observe(view)[None, :])[0]
        ids = [enc.action(m) for m in legal]
        best = max(range(len(ids)), key=lambda j: (scores[ids[j]], -j))
        return legal[best]

    def __repr__(self) -> str:
        sizes = [w.shape[1] for w in self.layers[::2]]
        return f"PolicyAgent(layers={sizes})"


# -- reading a policy file, bounded by what it inflates to --------------------------------------


class _Array:
    """An array as its ``.npy`` header declares it: shape, dtype, order."""

    __slots__ = ("dtype", "fortran", "shape")

    def __init__(self, shape: tuple[int, ...], fortran: bool, dtype: np.dtype[Any]) -> None:
        self.shape, self.fortran, self.dtype = shape, fortran, dtype

    @property
    def nbytes(self) -> int:
        n = self.dtype.itemsize
        for d in self.shape:
            n *= d
        return n


def _read(f: IO[bytes], name: str) -> tuple[Rules, list[NDArray[np.float32]]]:
    """The rules and layers of the policy file open as ``f``: its directory, then its
    headers (checked against the rules and :data:`MAX_POLICY_BYTES`), then its arrays."""
    size = f.seek(0, os.SEEK_END)
    if size > MAX_POLICY_BYTES + (1 << 20):
        raise AgentError(f"policy {name}: larger than {MAX_POLICY_BYTES + (1 << 20):,} bytes")
    _check_directory(f, size, name)
    with zipfile.ZipFile(f) as z:
        infos = _members(z, name)
        rules = _read_rules(z, infos, name)
        declared = {k: _header(z, infos[k], k) for k in infos if k not in ("format", "rules")}
        order = _check_layers(rules, declared, name)
        total = sum(a.nbytes for a in declared.values())
        if total > MAX_POLICY_BYTES:
            raise AgentError(
                f"policy {name}: its arrays would inflate to {total:,} bytes, more than "
                f"{MAX_POLICY_BYTES:,} bytes"
            )
        layers = []
        for k in order:
            with np.errstate(over="ignore"):  # a float64 past float32's range: infinity
                a = _array(z, infos[k], declared[k], k, name).astype(np.float32)
            if not np.isfinite(a).all():
                raise AgentError(f"policy {name}: {k} holds NaN or infinity (as float32)")
            layers.append(a)
    return rules, layers


def _check_directory(f: IO[bytes], size: int, name: str) -> None:
    """Refuse a zip directory larger than a policy's before :mod:`zipfile` reads it (it
    holds every entry in memory): its end record, found as zipfile finds it, says how many
    members and how many bytes; a zip64 end record (never needed here) is refused."""
    tail_size = min(size, 22 + 0xFFFF)
    f.seek(size - tail_size)
    tail = f.read(tail_size)
    at = len(tail) - 22
    if not (at >= 0 and tail[at : at + 4] == b"PK\x05\x06" and tail[-2:] == b"\0\0"):
        at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        raise AgentError(f"policy {name} cannot be read: not a zip archive (an .npz)")
    members, directory = struct.unpack("<10xHL6x", tail[at : at + 22])
    if members > _MAX_MEMBERS or directory > _MAX_DIRECTORY:
        raise AgentError(
            f"policy {name}: its zip directory lists {members:,} members in {directory:,} "
            f"bytes (a policy has at most {_MAX_MEMBERS} members)"
        )
    where = size - tail_size + at - 20
    if where >= 0:
        f.seek(where)
        if f.read(4) == b"PK\x06\x07":
            raise AgentError(f"policy {name}: a zip64 archive, which a policy never needs")


def _members(z: zipfile.ZipFile, name: str) -> dict[str, zipfile.ZipInfo]:
    """The members by array name (``w0``...), each known, once, stored or deflated."""
    infos: dict[str, zipfile.ZipInfo] = {}
    for info in z.infolist():
        member = info.filename
        if member not in _NAMES:
            raise AgentError(f"policy {name}: unknown member {brief(member, 40)}")
        key = member[:-4]
        if key in infos:
            raise AgentError(f"policy {name}: the member {member} appears twice")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise AgentError(f"policy {name}: {member} is compressed other than by deflate")
        if info.flag_bits & 1:
            raise AgentError(f"policy {name}: {member} is encrypted")
        infos[key] = info
    for key in ("format", "rules"):
        if key not in infos:
            raise AgentError(f"policy {name}: not a {FORMAT} file (no {key})")
    return infos


def _header(z: zipfile.ZipFile, info: zipfile.ZipInfo, key: str) -> _Array:
    """The array member ``info`` as its header declares it (no data read)."""
    with z.open(info) as m:
        return _parse_header(m, key)


def _parse_header(m: IO[bytes], key: str) -> _Array:
    """The ``.npy`` header at the start of ``m``: its length is read and bounded first
    (numpy would read whatever length it says, 4 GB for a version 2.0 header), then numpy
    parses at most :data:`_MAX_HEADER` bytes of it."""
    magic = m.read(8)
    if len(magic) < 8 or magic[:6] != b"\x93NUMPY" or magic[6:] not in (b"\x01\x00", b"\x02\x00"):
        raise ValueError(f"{key} is not an .npy array of version 1.0 or 2.0")
    size = "<H" if magic[6] == 1 else "<I"
    raw = m.read(struct.calcsize(size))
    length = struct.unpack(size, raw)[0] if len(raw) == struct.calcsize(size) else -1
    if not 0 <= length <= _MAX_HEADER:
        raise ValueError(f"{key} has an .npy header of {length:,} bytes, not an array's")
    header = io.BytesIO(raw + m.read(length))
    try:
        if magic[6] == 1:
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(header, _MAX_HEADER)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(header, _MAX_HEADER)
    except Exception as err:  # numpy parses the header's text: ValueError, SyntaxError,
        # tokenize's TokenError (found by fuzzing)...
        raise ValueError(f"{key} is not an array: {brief(str(err), 120)}") from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise ValueError(f"{key} holds {brief(str(dtype), 60)}, not numbers or text")
    return _Array(tuple(shape), bool(fortran), dtype)


def _array(
    z: zipfile.ZipFile, info: zipfile.ZipInfo, a: _Array, key: str, name: str
) -> NDArray[Any]:
    """The array of member ``info``: exactly the bytes its header declares are inflated,
    then one more must not exist (which also checks the member's CRC)."""
    with z.open(info) as m:
        _parse_header(m, key)
        data = m.read(a.nbytes)
        if len(data) < a.nbytes:
            raise AgentError(f"policy {name}: {key} is shorter than its header declares")
        if m.read(1):
            raise AgentError(f"policy {name}: {key} holds more than its header declares")
    flat: NDArray[Any] = np.frombuffer(data, dtype=a.dtype)
    if a.fortran:
        return np.transpose(flat.reshape(a.shape[::-1]))
    return flat.reshape(a.shape)


def _read_rules(z: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo], name: str) -> Rules:
    """The format entry checked, and the rules entry read (strict JSON)."""
    texts = {}
    for key in ("format", "rules"):
        a = _header(z, infos[key], key)
        if a.shape != () or a.dtype.kind != "U" or a.dtype.itemsize > 4 * _MAX_TEXT:
            raise AgentError(
                f"policy {name}: {key} is not a text of up to {_MAX_TEXT:,} characters"
            )
        texts[key] = str(_array(z, infos[key], a, key, name)[()])
    if texts["format"] != FORMAT:
        raise AgentError(f"policy {name}: not a {FORMAT} file")
    try:
        return Rules.from_dict(loads(texts["rules"]))
    except (FormatError, ValueError, TypeError) as err:  # RulesError is a ValueError
        raise AgentError(f"policy {name}: its rules cannot be read ({brief(str(err))})") from None


def _check_layers(rules: Rules, declared: dict[str, _Array], name: str) -> list[str]:
    """The layers' names in order (``w0, b0, w1, b1...``), their declared shapes and
    dtypes checked: float weights ``(inputs, outputs)`` and biases ``(outputs,)``, from
    the rules' ``observation_size`` to ``num_actions``."""
    enc = Encoding(rules)
    width = enc.observation_size
    order: list[str] = []
    for k in range(_MAX_LAYERS):
        w, b = declared.get(f"w{k}"), declared.get(f"b{k}")
        if w is None and b is None:
            break
        if (
            w is None
            or b is None
            or len(w.shape) != 2
            or w.shape[0] != width
            or b.shape != (w.shape[1],)
            or w.dtype.kind != "f"
            or b.dtype.kind != "f"
            or w.dtype.itemsize > 8
            or b.dtype.itemsize > 8
        ):
            said = ", ".join(
                f"{x}{k} {'missing' if a is None else f'{a.shape} {a.dtype}'}"
                for x, a in (("w", w), ("b", b))
            )
            raise AgentError(
                f"policy {name}: layer {k} has the wrong shape: {brief(said, 120)} "
                f"(expected floats ({width}, n) and (n,))"
            )
        width = w.shape[1]
        order += [f"w{k}", f"b{k}"]
    if len(order) != len(declared):
        raise AgentError(f"policy {name}: its layers are not w0, b0, w1, b1... in turn")
    if not order or width != enc.num_actions:
        raise AgentError(f"policy {name}: the last layer must give {enc.num_actions} logits")
    return order
