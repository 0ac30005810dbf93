"""What a held mail carries of its passwords (issue 25 point 7): never the password, but what
its handling needs once the confirmation is answered, even when nothing was prepared ahead."""

from __future__ import annotations

from judge.service.auth import verify_password
from judge.service.caller import HASHES_PER_REQUEST, Prepared
from judge.service.confirm import held_secrets


def test_a_prepared_hash_and_check_travel_as_they_are() -> None:
    prepared = Prepared()
    prepared.hash("newpass")
    made = list(prepared.hashes["newpass"])
    prepared.verified[("seatpass", "stored-hash")] = True
    found = held_secrets(prepared, {"newpass": "~pw1~", "seatpass": "~pw2~"})
    assert found == {"~pw1~": {"hashes": made, "checks": []},
                     "~pw2~": {"hashes": [], "checks": [["stored-hash", True]]}}


def test_a_mail_taken_before_it_was_prepared_still_carries_a_hash() -> None:
    # another drain took the mail first: a held CREATE must still be handled once confirmed
    for prepared in (None, Prepared()):
        found = held_secrets(prepared, {"gmpass": "~pw1~"})
        entry = found["~pw1~"]
        assert isinstance(entry, dict) and entry["checks"] == []
        [made] = entry["hashes"]
        assert verify_password("gmpass", made) and "gmpass" not in made


def test_the_hashes_made_late_keep_the_mails_scrypt_budget() -> None:
    words = {f"pass{i}": f"~pw{i}~" for i in range(HASHES_PER_REQUEST + 3)}
    found = held_secrets(None, words)
    made = [e for e in found.values() if isinstance(e, dict) and e["hashes"]]
    assert len(made) == HASHES_PER_REQUEST
