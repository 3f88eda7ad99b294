"""A trained policy at a served table (issue 50, item 9): the person who starts the server
offers a policy file under a name (``chickenfoot serve --policy NAME=FILE``,
``create_app(policies=...)``); a page names the policy, never a file; a table of rules the
policy was not trained for is refused, naming the rules it was trained for."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.policy import PolicyAgent
from chickenfoot.server import create_app
from server_helpers import ORIGIN, make_table

POLICY = Path(__file__).resolve().parent.parent / "examples" / "policies" / "ppo_numpy.npz"


def test_the_example_policy_is_for_four_seats_of_house_rules() -> None:
    # what the tests below rest on: the file says it learned the default rules
    assert PolicyAgent.load(POLICY).rules == cf.Rules()


def test_a_policy_offered_by_name_plays_whole_rounds_at_a_table(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", policies={"ppo": POLICY})
    with TestClient(app) as client:
        assert client.get("/api/options").json()["policies"] == ["ppo"]  # names, not files
        seats = [{"kind": "bot", "spec": "policy:ppo"}] + [
            {"kind": "bot", "spec": "heuristic"} for _ in range(3)
        ]
        made = make_table(client, seats, preset="house", rules={"match": {"rounds": 1}})
        table = app.state.hub.tables[made["table"]]
        deadline = time.monotonic() + 60
        while table.match.round is not None:
            assert time.monotonic() < deadline and table.error is None, table.error
            time.sleep(0.05)
        assert table.error is None and table.n > 10
        assert table.seats[0].spec == "policy:ppo"


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        (f"policy:{POLICY}", "is not one this server was started with"),  # a path: never
        ("policy:strong", "is not one this server was started with"),
    ],
)
def test_a_page_names_only_an_offered_policy(tmp_path: Path, spec: str, says: str) -> None:
    with TestClient(create_app(tmp_path / "t.db", policies={"ppo": POLICY})) as client:
        seats = [{"kind": "bot", "spec": spec}, {"kind": "person"}, {"kind": "person"},
                 {"kind": "person"}]  # fmt: skip
        r = client.post(
            "/api/tables",
            json={"players": 4, "preset": "house", "seats": seats},
            headers={"origin": ORIGIN},
        )
        assert r.status_code == 400 and says in r.json()["error"]


def test_a_table_of_other_rules_is_refused_naming_the_policys(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db", policies={"ppo": POLICY})) as client:
        r = client.post(
            "/api/tables",
            json={"players": 2, "preset": "house",
                  "seats": [{"kind": "bot", "spec": "policy:ppo"}, {"kind": "person"}]},
            headers={"origin": ORIGIN},
        )  # fmt: skip
        assert r.status_code == 400
        assert "trained for 4 players, double-9" in r.json()["error"]


def test_serve_refuses_a_policy_file_it_cannot_read_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    db = tmp_path / "t.db"
    code = main(["serve", "--db", str(db), "--policy", f"mine={junk}"])
    err = capsys.readouterr().err
    assert code == 2 and "junk.npz" in err and err.count("\n") == 1
    assert not db.exists()  # refused before the database was opened
