"""Variant folders (package data only): ``<name>/variant.json``, ``map.json``, ``drawing.json``.

Read by ``judge.adjudicator.catalog`` (the rules and the map) and ``judge.maps.layout`` (the
drawing); see docs/variants-format.md for the format.
"""
