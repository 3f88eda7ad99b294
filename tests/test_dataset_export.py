"""``chickenfoot dataset export``: a data set as numpy files and as a Minari data set (issue 51,
item 4, "Readers people already use"); the OpenSpiel arrays are tested against pyspiel in
tests_adapters/test_dataset_openspiel.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from chickenfoot.cli import main
from chickenfoot.dataset import arrays, decisions, export
from chickenfoot.errors import ArgumentError, FormatError, SeatError

BUILD = ["--rounds", "6", "--agents", "greedy,random", "--players", "2,3"]
BUILD += ["--presets", "house,classic", "--seed", "3", "--part-rounds", "4"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data") / "set"
    assert main(["dataset", "build", str(root), *BUILD]) == 0
    return root


def _same(a: dict[str, object], b: dict[str, object]) -> None:
    assert sorted(a) == sorted(b)
    for key, value in a.items():
        if isinstance(value, np.ndarray):
            other = b[key]
            assert isinstance(other, np.ndarray) and value.dtype == other.dtype, key
            np.testing.assert_array_equal(value, other)
        else:
            assert value == b[key], key


# -- numpy -------------------------------------------------------------------------------------


def test_the_numpy_files_give_back_the_decisions_batch_for_batch(
    built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "npy"
    assert main(["dataset", "export", str(built), str(out), "--to", "numpy"]) == 0
    index = json.loads((out / "arrays.json").read_text())
    assert index["format"] == "chickenfoot/arrays" and len(index["partitions"]) == 4
    got = list(arrays(out, batch_size=50))
    want = list(decisions(built, batch_size=50))
    assert len(got) == len(want) > 4
    for g, w in zip(got, want, strict=True):
        _same(g, w)


def test_the_numpy_files_load_without_pickles_and_map_into_memory(
    built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "npy"
    export(built, out, to="numpy")
    folder = out / "preset=house" / "players=3"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"{n}.npy" for n in sorted(("action", "hands", "mask", "move", "observation",
                                                  "round", "seat"))]  # fmt: skip
    for path in folder.iterdir():
        mapped = np.load(path, mmap_mode="r", allow_pickle=False)
        assert isinstance(mapped, np.memmap) and mapped.dtype != object


def test_the_numpy_reader_needs_numpy_only(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "npy"
    export(built, out, to="numpy")
    script = textwrap.dedent(
        f"""
        import sys
        for name in ("pyarrow", "pandas", "datasets", "numba", "gymnasium", "minari"):
            sys.modules[name] = None  # import pyarrow raises ImportError
        from chickenfoot.dataset import arrays
        n = sum(len(b["action"]) for b in arrays({str(out)!r}, batch_size=64))
        assert not any(m.startswith("pyarrow") for m in sys.modules if sys.modules[m])
        print(n)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) == sum(len(b["action"]) for b in decisions(built))


def test_arrays_refuses_what_is_not_an_export(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="not a chickenfoot arrays export"):
        next(arrays(tmp_path))
    (tmp_path / "arrays.json").write_text('{"format": "chickenfoot/arrays", "partitions": 3}')
    with pytest.raises(FormatError, match=r"arrays\.json"):
        next(arrays(tmp_path))


def test_a_cut_numpy_file_is_refused(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "npy"
    export(built, out, to="numpy")
    mask = out / "preset=classic" / "players=2" / "mask.npy"
    mask.write_bytes(mask.read_bytes()[:-7])
    with pytest.raises(FormatError, match=r"mask\.npy"):
        list(arrays(out))


# -- bad input -----------------------------------------------------------------------------------


def test_export_refuses_bad_input_in_one_line(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("keep me")
    cases = [
        ([str(tmp_path / "none"), str(tmp_path / "o1"), "--to", "numpy"], "not a chickenfoot data set"),
        ([str(built), str(full), "--to", "numpy"], "not empty"),
        ([str(built), str(tmp_path / "o2"), "--to", "minari", "--seat", "0"], "preset and players"),
        ([str(built), str(tmp_path / "o3"), "--to", "minari", "--seat", "3", "--preset",
          "house", "--players", "3"], "seat"),
        ([str(built), str(tmp_path / "o4"), "--to", "minari", "--preset", "house",
          "--players", "3"], "needs a seat"),
        ([str(built), str(tmp_path / "o5"), "--to", "numpy", "--players", "4"], "players"),
    ]  # fmt: skip
    for args, words in cases:
        assert main(["dataset", "export", *args]) == 2, args
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and words in err, (args, err)
        assert "Traceback" not in err
    assert (full / "mine.txt").read_text() == "keep me"
    assert not any((tmp_path / f"o{i}").exists() for i in range(1, 6))
    with pytest.raises(SeatError, match="seat"):
        export(built, tmp_path / "o6", to="minari", seat=-1, preset="house", players=2)
    with pytest.raises(ArgumentError, match="to="):
        export(built, tmp_path / "o7", to="csv")


def test_a_cut_rounds_file_stops_the_export_in_one_line_and_leaves_nothing(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut"
    shutil.copytree(built, cut)
    part = cut / "rounds" / "preset=classic" / "players=3" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:100])
    for to in ("numpy", "openspiel", "minari"):
        out = tmp_path / f"out-{to}"
        argv = ["dataset", "export", str(cut), str(out), "--to", to, "--preset", "classic"]
        assert main([*argv, "--players", "3", *(["--seat", "0"] if to == "minari" else [])]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "part-00001.parquet" in err, err
        assert not out.exists()


def test_the_command_line_never_shows_a_traceback(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "dataset", "export", str(tmp_path / "none"),
         str(tmp_path / "out"), "--to", "openspiel"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


# -- Minari ----------------------------------------------------------------------------------------


@pytest.fixture
def minari_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "minari"
    root.mkdir()
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(root))
    return root


def test_minari_loads_the_export_and_its_episodes_are_the_seats_rounds(
    built: Path, minari_root: Path
) -> None:
    import minari

    from chickenfoot.gym import ENV_ID

    out = minari_root / "chickenfoot" / "house-3p-seat1-v0"
    argv = ["dataset", "export", str(built), str(out), "--to", "minari", "--seat", "1"]
    assert main([*argv, "--preset", "house", "--players", "3"]) == 0
    assert "chickenfoot/house-3p-seat1-v0" in minari.list_local_datasets()
    ds = minari.load_dataset("chickenfoot/house-3p-seat1-v0")
    assert ds.total_episodes == 6 and ds.env_spec is not None and ds.env_spec.id == ENV_ID
    mine = [
        b
        for b in decisions(built, batch_size=10_000)
        if (b["preset"], b["players"]) == ("house", 3)
    ]
    seat = np.concatenate([b["seat"] for b in mine]) == 1
    obs = np.concatenate([b["observation"] for b in mine])[seat]
    masks = np.concatenate([b["mask"] for b in mine])[seat]
    actions = np.concatenate([b["action"] for b in mine])[seat]
    rounds = np.concatenate([b["round"] for b in mine])[seat]
    assert ds.total_steps == int(seat.sum())
    for k, ep in enumerate(ds.iterate_episodes()):
        mine_k = rounds == k
        n = int(mine_k.sum())
        assert len(ep) == n and len(ep.observations["observation"]) == n + 1
        np.testing.assert_array_equal(ep.observations["observation"][:n], obs[mine_k])
        np.testing.assert_array_equal(ep.observations["action_mask"][:n], masks[mine_k])
        assert ep.observations["action_mask"][n].all()  # the env's mask once a round is over
        np.testing.assert_array_equal(ep.actions, actions[mine_k])
        assert not ep.truncations.any() and ep.terminations.tolist() == [False] * (n - 1) + [True]
        assert (ep.rewards[:-1] == 0).all() and ep.rewards[-1] in (0.0, 0.5, 1.0 / 3, 1.0)
        for i in range(n + 1):  # Minari's DataCollector checks each step so
            step = {key: ep.observations[key][i] for key in ("observation", "action_mask")}
            assert ds.observation_space.contains(step)
        assert all(ds.action_space.contains(int(a)) for a in ep.actions)


def test_the_minari_export_recovers_our_env_and_combines_with_its_episodes(
    built: Path, minari_root: Path
) -> None:
    """An episode played in ``recover_environment()`` and saved by Minari's own
    ``create_dataset_from_buffers`` combines with the export (Minari checks their env specs
    and spaces agree)."""
    import minari
    from minari.data_collector import EpisodeBuffer

    out = minari_root / "cf" / "export-v0"
    export(built, out, to="minari", seat=0, preset="classic", players=2,
           dataset_id="cf/export-v0")  # fmt: skip
    ds = minari.load_dataset("cf/export-v0")
    env = ds.recover_environment()
    assert env.unwrapped.lanes.seat == 0 and env.unwrapped.lanes.rules.hand_size == 7
    assert env.observation_space == ds.observation_space and env.action_space == ds.action_space
    obs, _ = env.reset(seed=1)
    seen, actions, rewards, terms = [obs], [], [], []
    done = False
    while not done:
        a = int(np.flatnonzero(obs["action_mask"])[0])
        obs, r, done, _, _ = env.step(a)
        seen.append(obs)
        actions.append(a)
        rewards.append(r)
        terms.append(done)
    played = EpisodeBuffer(
        observations={k: np.stack([o[k] for o in seen]) for k in ("observation", "action_mask")},
        actions=actions, rewards=rewards, terminations=terms, truncations=[False] * len(actions),
    )  # fmt: skip
    with pytest.warns(UserWarning):  # Minari asks for an author and such; not here
        own = minari.create_dataset_from_buffers(
            "cf/played-v0", [played], env=env, data_format="arrow"
        )
    both = minari.combine_datasets([ds, own], "cf/both-v0")
    assert both.total_episodes == ds.total_episodes + 1
    assert both.total_steps == ds.total_steps + len(actions)
    last = both[both.total_episodes - 1]
    np.testing.assert_array_equal(last.actions, actions)


# -- the page's examples ---------------------------------------------------------------------------


def _examples(heading: str) -> list[str]:
    page = (Path(__file__).resolve().parent.parent / "docs" / "dataset.md").read_text()
    section = page.split(f"### {heading}", 1)[1].split("\n### ", 1)[0]
    return [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]


def test_the_pages_numpy_and_minari_examples_run(built: Path, minari_root: Path) -> None:
    out = minari_root.parent / "npy"
    export(built, out, to="numpy")
    with_us, alone = _examples("`--to numpy`")
    scope: dict[str, object] = {}
    exec(compile(with_us.replace("OUT", str(out)), "docs/dataset.md", "exec"), scope)
    assert scope["b"]["observation"].dtype == np.float32  # type: ignore[index]
    exec(compile(alone.replace("OUT", str(out)), "docs/dataset.md", "exec"), scope)
    first = next(decisions(built, batch_size=1024))
    np.testing.assert_array_equal(scope["mask"], first["mask"])  # type: ignore[arg-type]
    assert np.array_equal(scope["observation"][: len(first["action"])], first["observation"])  # type: ignore[index]
    (example,) = _examples("`--to minari --seat K`")
    export(built, minari_root / "chickenfoot" / "house-4p-seat0-v0", to="minari", seat=0,
           preset="house", players=2, dataset_id="chickenfoot/house-4p-seat0-v0")  # fmt: skip
    exec(compile(example, "docs/dataset.md", "exec"), scope)
    assert scope["ds"].total_episodes == 6  # type: ignore[attr-defined]
