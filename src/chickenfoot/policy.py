"""A trained policy at the table: :class:`PolicyAgent`, a small network read from a file.

The file is a numpy ``.npz`` archive (read with ``allow_pickle=False``: it holds arrays
only, and nothing in it runs) written by :func:`save_policy`: the rules it was trained
under (their JSON), the layers ``w0, b0, w1, b1, ...`` of a multilayer perceptron with
``tanh`` between layers, whose last layer gives one logit per action of
:class:`~chickenfoot.encoding.Encoding`. The agent observes its view in that encoding
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

import json
import os
import random
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, Final

import attrs
import numpy as np

from chickenfoot.encoding import Encoding
from chickenfoot.errors import AgentError, brief
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
"""The largest policy file read (64 MiB)."""

_MAX_LAYERS: Final = 16


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
        """The agent of a policy file; :class:`~chickenfoot.AgentError` if it is not one
        (or is larger than :data:`MAX_POLICY_BYTES`)."""
        name = brief(str(file) if isinstance(file, (str, os.PathLike)) else "the file", 200)
        try:
            if isinstance(file, (str, os.PathLike)) and os.path.getsize(file) > MAX_POLICY_BYTES:
                raise AgentError(f"policy {name}: larger than {MAX_POLICY_BYTES:,} bytes")
            with np.load(file, allow_pickle=False) as z:
                got = {k: z[k] for k in z.files[: 2 * _MAX_LAYERS + 2]}
        except AgentError:
            raise
        except (OSError, ValueError, EOFError) as err:
            raise AgentError(f"policy {name} cannot be read: {brief(str(err), 200)}") from None
        return cls._of(got, name)

    @classmethod
    def _of(cls, got: dict[str, Any], name: str) -> PolicyAgent:
        if str(got.get("format", "")) != FORMAT:
            raise AgentError(f"policy {name}: not a {FORMAT} file")
        try:
            rules = Rules.from_dict(json.loads(str(got["rules"])))
        except Exception as err:  # a malformed rules entry
            raise AgentError(
                f"policy {name}: its rules cannot be read ({brief(str(err))})"
            ) from None
        layers = []
        for k in range(_MAX_LAYERS):
            w, b = got.get(f"w{k}"), got.get(f"b{k}")
            if w is None:
                break
            layers += [w, b]
        enc = Encoding(rules)
        width = enc.observation_size
        for k in range(0, len(layers), 2):
            w, b = layers[k], layers[k + 1]
            if (
                w.ndim != 2
                or b is None
                or w.shape[0] != width
                or b.shape != (w.shape[1],)
                or w.dtype.kind != "f"
                or b.dtype.kind != "f"
            ):
                raise AgentError(f"policy {name}: layer {k // 2} has the wrong shape")
            width = w.shape[1]
        if not layers or width != enc.num_actions:
            raise AgentError(f"policy {name}: the last layer must give {enc.num_actions} logits")
        return cls(rules, layers)

    def plays(self, rules: Rules) -> bool:
        """Whether the policy plays rounds of ``rules``: its own, but for the match fields
        (``match``, ``tie_break``), which do not enter a round."""
        same = attrs.evolve(rules, match=self.rules.match, tie_break=self.rules.tie_break)
        return bool(same == self.rules)

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
