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


def test_snapshots_put_the_ledger_back_for_a_rollback(db: Database) -> None:
    from judge.storage.botrepo import restore_snapshot, save_snapshot
    from judge.storage.models import CouncilSnapshot

    council = Council({"FRANCE": "loyal"})
    council.propose(Proposal(Kind.PEACE, "ENGLAND", "FRANCE"), "S1901M")
    council.agreements[0].status = Status.ACTIVE
    council.trust.values[("FRANCE", "ENGLAND")] = 0.1
    with db.session() as s:
        game = Game(name="solo", created=NOW)
        s.add(game)
        s.flush()
        game_id = game.id
        save_council(s, game_id, council)
        spring = council.to_json()
        save_snapshot(s, game_id, "S1901M", council)  # before S1901M's verdicts
        apply_verdicts(council.agreements, [Verdict(1, False, "ENGLAND", "F ENG - BRE")])
        council.trust.values[("FRANCE", "ENGLAND")] = -0.4
        council.trust.betrayals[("FRANCE", "ENGLAND")] = 1
        council.trust.values[("FRANCE", "GERMANY")] = 0.2
        council.propose(Proposal(Kind.DMZ, "GERMANY", "FRANCE", zone="BUR"), "F1901M")
        council.announced.add(("FRANCE", "ENGLAND"))
        save_council(s, game_id, council)
        save_snapshot(s, game_id, "F1901M", council)
    with db.session() as s:
        assert restore_snapshot(s, game_id, "S1901M", ["S1901M", "F1901M"]) is not None
    with db.session() as s:
        again = load_council(s, game_id)
        assert again is not None and again.to_json() == spring
        assert list(s.scalars(select(CouncilSnapshot))) == []
        # nothing kept for these phases: nothing changed
        assert restore_snapshot(s, game_id, "S1901M", ["S1901M"]) is None
        # a snapshot of a later phase only: the game had no council yet at S1901M
        save_snapshot(s, game_id, "F1901M", again)
        emptied = restore_snapshot(s, game_id, "S1901M", ["S1901M", "F1901M"])
        assert emptied is not None and emptied.agreements == [] and not emptied.trust.values
    with db.session() as s:
        last = load_council(s, game_id)
        assert last is not None and last.characters == {"FRANCE": "loyal"}
        assert last.agreements == [] and not last.trust.values
