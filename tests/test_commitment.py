"""Issue 47, item 4: deals anyone can check (docs/formats.md, "Deal commitments";
docs/notation.md, "Checking a deal").

The commitment is SHA-256 over documented bytes: the vector test computes it here with
hashlib from the spec's words, not with the library. The notation writes it in every
audience's copy and the seed once the round is over; the reader rebuilds the deal from a
revealed seed and checks both; ``chickenfoot verify`` says in one line what failed and where.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.commitment import (
    SEED_BITS,
    check_commitment,
    commitment,
    commitment_bytes,
    fresh_seed,
    round_seed,
)
from chickenfoot.notation import CommitmentError, read_game, write_game
from chickenfoot.record import Record

SMALL = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)


def played(rules: cf.Rules, seed: int, round: int = 0, *, plies: int | None = None) -> Record:
    rng = random.Random(seed)
    rec = Record(cf.deal(rules, seed, round))
    while not rec.final().is_over() and (plies is None or len(rec.moves) < plies):
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


# -- the construction ---------------------------------------------------------------------------


def test_the_commitment_is_sha256_of_the_documented_bytes() -> None:
    seed = 0x0123456789ABCDEF0123456789ABCDEF
    rules = cf.Rules.preset("classic", players=3)
    fields = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    text = f"chickenfoot/deal-commitment/1\n{fields}\n{seed}\n7"
    expected = hashlib.sha256(text.encode("ascii")).hexdigest()
    assert commitment_bytes(rules, seed, round=7) == text.encode("ascii")
    assert commitment(rules, seed, round=7) == expected
    assert check_commitment(expected, rules, seed, round=7)
    assert not check_commitment(expected, rules, seed + 1, round=7)
    assert not check_commitment(expected, rules, seed, round=6)
    assert not check_commitment(expected.upper(), rules, seed, round=7)
    assert not check_commitment("00", rules, seed, round=7)


def test_a_pinned_vector_stays_the_same_in_every_release() -> None:
    pinned = "2eb6b1e78998c64440633c148bb109a50c96b708566989f50494a2c164fa4d6d"
    assert commitment(cf.Rules(), 1000) == pinned
    assert (
        pinned
        == hashlib.sha256(
            b"chickenfoot/deal-commitment/1\n"
            b'{"centre":"set_aside","double_blank":50,"draw":"one","drawn_tile":"must_play",'
            b'"first_leader":0,"foot_toes":3,"hand_size":11,"match":{"rounds":10},'
            b'"max_pip":9,"may_draw_instead":false,"opening_toes":6,"players":4,'
            b'"tie_break":"shared"}\n1000\n0'
        ).hexdigest()
    )


def test_commitments_differ_between_deals_rules_and_rounds() -> None:
    seen = {commitment(SMALL, s, round=k) for s in range(50) for k in range(3)}
    seen |= {commitment(cf.Rules(), s) for s in range(50)}
    assert len(seen) == 50 * 3 + 50


def test_a_fresh_seed_has_128_bits_and_deals_a_well_defined_round() -> None:
    seeds = [fresh_seed() for _ in range(64)]
    assert SEED_BITS == 128 and len(set(seeds)) == 64
    assert all(0 <= s < 1 << 128 for s in seeds)
    assert max(s.bit_length() for s in seeds) > 120
    big = (1 << 128) - 1
    # the documented deal: random.Random(f"{seed}:{round}") shuffles the tiles
    tiles = [t for t in cf.tiles_of_set(9) if t != cf.Tile(9, 9)]
    random.Random(f"{big}:0").shuffle(tiles)
    assert cf.deal(cf.Rules(), big).hand(0) == tuple(sorted(tiles[:11]))
    assert cf.deal(cf.Rules(), big) == cf.deal(cf.Rules(), big)


def test_round_seeds_are_128_bit_and_independent_of_each_other() -> None:
    secret = 12345
    derived = [round_seed(secret, k) for k in range(20)]
    assert len(set(derived)) == 20 and all(0 <= d < 1 << 128 for d in derived)
    expected = hashlib.sha256(b"chickenfoot/round-seed/1\n12345\n3").digest()[:16]
    assert derived[3] == int.from_bytes(expected, "big")


def test_bad_arguments_are_the_librarys_errors() -> None:
    with pytest.raises(TypeError):
        commitment("house", 1)  # type: ignore[arg-type]
    with pytest.raises(cf.ChickenFootError):
        commitment(cf.Rules(), "1")  # type: ignore[arg-type]
    with pytest.raises(cf.ChickenFootError):
        commitment(cf.Rules(), 1, round=-1)
    with pytest.raises(TypeError):
        check_commitment(b"ab", cf.Rules(), 1)  # type: ignore[arg-type]


# -- the notation -------------------------------------------------------------------------------


def copies(rec: Record, seed: int, round: int = 0) -> dict[str, str]:
    heads = {"DealSeed": str(seed), "Round": str(round)}
    return {
        who: write_game(rec, audience=who, headers=heads)
        for who in ("full", "spectator", *(f"seat {k}" for k in range(rec.start.players)))
    }


def header(text: str, name: str) -> str | None:
    for line in text.splitlines():
        if line.startswith(f"[{name} "):
            return line.split('"')[1]
    return None


def test_every_copy_carries_the_commitment_and_the_seed_only_at_the_end() -> None:
    seed = fresh_seed()
    whole = played(SMALL, seed, 2)
    assert whole.final().is_over()
    c = commitment(SMALL, seed, round=2)
    for k in range(len(whole.moves)):
        part = Record(whole.start, whole.moves[:k])
        for who, text in copies(part, seed, 2).items():
            assert header(text, "Commitment") == c, who
            assert (header(text, "DealSeed") is not None) == (who == "full"), who
            assert str(seed) not in text.replace(f'[DealSeed "{seed}"]', ""), who
            game = read_game(io.StringIO(text), strict=True)
            assert game is not None and game.errors == ()
    for who, text in copies(whole, seed, 2).items():
        assert header(text, "DealSeed") == str(seed), who
        game = read_game(io.StringIO(text), strict=True)
        assert game is not None and game.errors == (), who


def test_hidden_twins_differ_only_in_the_commitment() -> None:
    """Two deals with the same public history (the twin drawn from seat 0's view): their
    spectator copies and their seat 0 copies, at every prefix before the end, differ in
    the ``Commitment`` line alone, which says nothing of either deal."""
    rules = SMALL
    rng = random.Random(5)
    compared = 0
    for seed in range(30):
        whole = played(rules, seed, plies=8)
        twin_whole = whole.final().view(0).sample_record(rng)
        if twin_whole.start == whole.start:
            continue
        for k in range(len(whole.moves) + 1):
            rec = Record(whole.start, whole.moves[:k])
            if rec.final().is_over():
                break  # the end reveals the hands (and the seed)
            twin = Record(twin_whole.start, twin_whole.moves[:k])
            for who in ("spectator", "seat 0"):
                mine = write_game(rec, audience=who, headers={"DealSeed": str(seed)})
                theirs = write_game(twin, audience=who, headers={"Commitment": "ab" * 32})
                a = [line for line in mine.splitlines() if not line.startswith("[Commitment ")]
                b = [line for line in theirs.splitlines() if not line.startswith("[Commitment ")]
                assert a == b, (seed, k, who)
                assert header(mine, "Commitment") != header(theirs, "Commitment")
                compared += 1
    assert compared > 100


def test_the_writer_refuses_a_seed_that_does_not_deal_the_round() -> None:
    rec = played(SMALL, 3)
    with pytest.raises(cf.FormatError, match="DealSeed"):
        write_game(rec, headers={"DealSeed": "4"})
    with pytest.raises(cf.FormatError, match="Commitment"):
        write_game(rec, headers={"DealSeed": "3", "Commitment": "00" * 32})
    with pytest.raises(cf.FormatError, match="DealSeed"):
        write_game(rec, headers={"DealSeed": "three"})


def _tamper(text: str, name: str, value: str) -> tuple[str, int]:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(f"[{name} "):
            lines[i] = f'[{name} "{value}"]'
            return "\n".join(lines), i + 1
    raise AssertionError(name)


@pytest.mark.parametrize("who", ["full", "spectator", "seat 1"])
def test_a_tampered_seed_or_commitment_is_a_commitment_error_at_its_line(who: str) -> None:
    seed = fresh_seed()
    rec = played(SMALL, seed)
    text = copies(rec, seed)[who]
    bad, line = _tamper(text, "DealSeed", str(seed + 1))
    game = read_game(io.StringIO(bad))
    assert game is not None
    errors = [e for e in game.errors if isinstance(e, CommitmentError)]
    assert [(e.line, e.column) for e in errors] == [(line, 1)], game.errors
    assert "deal" in str(errors[0])
    bad, line = _tamper(text, "Commitment", "ab" * 32)
    with pytest.raises(CommitmentError) as caught:
        read_game(io.StringIO(bad), strict=True)
    assert caught.value.line == line and isinstance(caught.value, cf.FormatError)


def test_a_seed_in_a_hidden_copy_before_the_end_is_an_error() -> None:
    seed = 77
    rec = played(SMALL, seed, plies=3)
    text = write_game(rec, audience="seat 0", headers={"DealSeed": str(seed)})
    leaked = text.replace("[Audience", f'[DealSeed "{seed}"]\n[Audience')
    with pytest.raises(CommitmentError, match="before the round is over"):
        read_game(io.StringIO(leaked), strict=True)


def test_a_hidden_copy_with_its_seed_is_replayed_in_full() -> None:
    seed = 91
    rec = played(SMALL, seed)
    spectator = copies(rec, seed)["spectator"]
    lines = spectator.split("\n")
    # a spectator copy whose moves are public but wrong about a hidden draw's effect:
    # the result header is changed, which the deal's replay catches
    i = next(i for i, line in enumerate(lines) if line.startswith("[Result "))
    lines[i] = '[Result "0 0"]'
    game = read_game(io.StringIO("\n".join(lines)))
    assert game is not None and any(e.line == i + 1 for e in game.errors), game.errors


# -- chickenfoot verify -------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent / "src")}
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def _file(tmp_path: Path, rounds: int = 5) -> tuple[Path, str]:
    parts = []
    for k in range(rounds):
        seed = fresh_seed()
        parts.append(copies(played(SMALL, seed, k), seed, k)["full" if k % 2 else "spectator"])
    path = tmp_path / "rounds.cfn"
    path.write_text("".join(parts), encoding="utf-8")
    return path, "".join(parts)


def test_verify_says_a_good_file_is_good(tmp_path: Path) -> None:
    path, _ = _file(tmp_path)
    done = run("verify", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines()[-1].startswith(f"{path}: 5 rounds verified")


def test_verify_names_the_line_and_game_of_each_tampering(tmp_path: Path) -> None:
    path, text = _file(tmp_path, 3)
    games = text.split("[Notation")
    lines = text.split("\n")
    seed_line = next(i for i, line in enumerate(lines) if line.startswith("[DealSeed "))
    lines[seed_line] = '[DealSeed "12"]'
    commit_line = [i for i, line in enumerate(lines) if line.startswith("[Commitment ")][1]
    lines[commit_line] = f'[Commitment "{"0" * 64}"]'
    # game 3 is a spectator copy: a public move changed
    third = len("[Notation".join(games[:3]).split("\n"))
    move_line = next(i for i in range(third, len(lines)) if lines[i].startswith("0. "))
    old = lines[move_line].split()[1]
    lines[move_line] = lines[move_line].replace(old, "pass", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    done = run("verify", str(path))
    assert done.returncode == 1
    out = done.stdout.splitlines()
    assert "Traceback" not in done.stdout + done.stderr
    assert any(f":{seed_line + 1}:1: game 1: " in line and "deal" in line for line in out), out
    assert any(f":{commit_line + 1}:1: game 2: " in line and "ommitment" in line for line in out)
    assert any(f":{move_line + 1}:" in line and "game 3" in line for line in out), out
    assert out[-1].startswith(f"{path}: 3 rounds, 3 failed")


def test_verify_refuses_a_round_without_a_seed_and_never_prints_a_traceback(
    tmp_path: Path,
) -> None:
    rec = played(SMALL, 5, plies=3)
    path = tmp_path / "open.cfn"
    path.write_text(write_game(rec, audience="seat 0", headers={"DealSeed": "5"}))
    done = run("verify", str(path))
    assert done.returncode == 1 and "the seed is not revealed" in done.stdout
    for junk in (b"\x00\xff[[[", b'[Notation "1"]\n[DealSeed "1' + b"9" * 5000 + b'"]\n\n*\n'):
        bad = tmp_path / "junk.cfn"
        bad.write_bytes(junk)
        done = run("verify", str(bad))
        assert done.returncode in (1, 2) and "Traceback" not in done.stdout + done.stderr
    done = run("verify", str(tmp_path / "missing.cfn"))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_verify_reads_a_json_record_and_says_it_has_no_seed(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(played(SMALL, 4).to_json())
    done = run("verify", str(path))
    assert done.returncode == 1 and "no seed" in done.stdout, done
