"""``FieldValue``: the base of the adjudicator's value classes (units, orders, results).

They were frozen dataclasses and NamedTuples; they are plain classes now so that the optional
compiled build (setup.py) makes them native classes, made in a few hundred machine instructions
where a frozen dataclass's ``__init__`` is interpreted Python (6,000-7,000, callgrind: a batch
makes thousands). What the dataclass wrote for each, written once here: a value is compared,
hashed, pickled and printed by its fields, ``_fields()`` in the order ``_NAMES`` names them.
Their fields are ``Final``: the type checker refuses an assignment (the classes themselves do
not, as compiled ones cannot).
"""

from __future__ import annotations

from typing import Any, ClassVar


class FieldValue:
    __slots__ = ()
    _NAMES: ClassVar[tuple[str, ...]] = ()

    def _fields(self) -> tuple[Any, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, FieldValue)
        return self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, FieldValue)
        return self._fields() != other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        # its class and fields: what a value keeps once made (a text, a hash) is not carried,
        # and a native class pickles no other way
        return (type(self), self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._NAMES, self._fields(), strict=True))
        return f"{type(self).__name__}({fields})"
