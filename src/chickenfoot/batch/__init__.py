"""Batched play: thousands of rounds in lockstep on numpy arrays (docs/batch.md)."""

from __future__ import annotations

from chickenfoot.batch._engine import MAX_GAMES, BatchEngine, Policy, Results

__all__ = ["MAX_GAMES", "BatchEngine", "Policy", "Results"]
