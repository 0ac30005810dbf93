"""The promise ledger stored: a council saved and read back, on SQLite and PostgreSQL; its
migration goes down to the initial schema and up again."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import inspect, select

from judge.adjudicator.orders import Move, UnitType
from judge.bots.council import Council
from judge.bots.ledger import Status, Verdict, apply_verdicts
from judge.bots.proposals import Kind, Proposal
from judge.storage import Database
from judge.storage.botrepo import load_council, save_council
from judge.storage.models import AgreementRecord, Game

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_council_round_trip_and_update(db: Database) -> None:
    council = Council({"FRANCE": "loyal", "GERMANY": "vengeful"})
    council.propose(
        Proposal(Kind.SHARE, "ENGLAND", "FRANCE", shares=(("BEL", "ENGLAND"), ("HOL", "FRANCE"))),
        "S1901M",
    )
    council.propose(
        Proposal(Kind.SUPPORT, "GERMANY", "FRANCE", order=Move(UnitType.ARMY, "MUN", "BUR")),
        "S1901M",
    )
    council.agreements[0].status = Status.ACTIVE
    council.trust.values[("FRANCE", "ENGLAND")] = 0.3
    council.announced.add(("GERMANY", "ENGLAND"))
    with db.session() as s:
        game = Game(name="solo", created=NOW)
        s.add(game)
        s.flush()
        game_id = game.id
        assert load_council(s, game_id) is None
        save_council(s, game_id, council)
    with db.session() as s:
        loaded = load_council(s, game_id)
        assert loaded is not None and loaded.to_json() == council.to_json()
        apply_verdicts(loaded.agreements, [Verdict(1, False, "FRANCE", "A PIC - BEL")])
        loaded.trust.betrayals[("FRANCE", "ENGLAND")] = 1
        loaded.trust.values[("FRANCE", "ENGLAND")] = -0.5
        save_council(s, game_id, loaded)
    with db.session() as s:
        again = load_council(s, game_id)
        assert again is not None and again.to_json() == loaded.to_json()
        row = s.scalar(select(AgreementRecord).where(AgreementRecord.game_id == game_id, AgreementRecord.number == 1))
        assert row is not None and (row.status, row.broken_by, row.evidence) == (
            "broken",
            "FRANCE",
            "A PIC - BEL",
        )


def test_ledger_migration_down_and_up(db_url: str) -> None:
    db = Database(db_url)
    db.migrate()
    ours = {"bot_seat", "agreement", "trust"}
    assert ours <= set(inspect(db.engine).get_table_names())
    db.downgrade("0001")
    tables = set(inspect(db.engine).get_table_names())
    assert not ours & tables and "game" in tables
    db.migrate()
    assert ours <= set(inspect(db.engine).get_table_names())
    db.dispose()
