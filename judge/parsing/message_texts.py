"""The texts of the order reader's refusals and notes, in English: the msgids of the
catalogs (judge/locale), translated when a reply is written (judge.parsing.messages).

Keyed by the :class:`~judge.parsing.errors.ParseError` and :class:`~judge.parsing.errors.Note`
values; ``%(name)s`` are the parameters the reader records with each reason.
"""

from __future__ import annotations

from judge.i18n import N_

ERRORS: dict[str, str] = {
    'empty': N_('no order found'),
    'unknown_province': N_('unknown province "%(word)s"%(suggestions)s'),
    'ambiguous_province': N_('"%(word)s" means %(meanings)s: write the standard code (%(codes)s)'),
    'unrecognised_order': N_('cannot read the order at "%(word)s" (expected H, -, S, C, R, D...)'),
    'incomplete_order': N_('the order is incomplete'),
    'trailing_text': N_('unexpected words at the end: "%(text)s"'),
    'no_such_coast': N_('%(province)s has no coast "%(coast)s"'),
    'missing_unit_type': N_('say whether the unit in %(province)s is an army (A) or a fleet (F)'),
    'no_unit_there': N_('there is no unit in %(province)s'),
    'not_your_unit': N_('%(unit)s belongs to %(owner)s'),
    'wrong_unit_type': N_('the unit there is %(unit)s, not %(written)s'),
    'not_dislodged': N_('no dislodged unit in %(province)s has to retreat'),
    'wrong_phase': N_('this kind of order is not possible in phase %(phase)s'),
    'army_at_sea': N_('an army cannot be in %(province)s, a sea'),
    'fleet_inland': N_('a fleet cannot be in %(province)s, an inland province'),
    'not_adjacent': N_('%(province)s does not border %(target)s'),
    'army_to_sea': N_('an army cannot go to %(province)s, a sea'),
    'fleet_to_inland': N_('a fleet cannot go to %(province)s, an inland province'),
    'missing_coast': N_('say which coast of %(province)s (for example %(province)s/NC)'),
    'coast_not_reachable': N_('the fleet cannot reach %(target)s'),
    'move_to_own_province': N_('a unit cannot move to the province it is in (%(province)s)'),
    'impassable': N_('%(province)s cannot be entered'),
    'support_not_adjacent': N_('the supporting unit in %(province)s does not border %(target)s'),
    'support_without_sea_border': N_('a fleet in %(province)s borders %(target)s only by land, so it cannot support there'),
    'support_from_wrong_coast': N_('a fleet on %(location)s cannot reach %(target)s, so it cannot support there'),
    'army_supports_into_sea': N_('an army cannot support into %(province)s, a sea'),
    'fleet_supports_inland': N_('a fleet cannot support into %(province)s, an inland province'),
    'supports_itself': N_('a unit cannot support itself (%(province)s)'),
    'supported_move_impossible': N_('%(unit)s cannot move to %(target)s, so that move cannot be supported'),
    'no_unit_to_support': N_('there is no unit in %(province)s to support'),
    'support_ambiguous': N_('a support must say whether the supported unit holds or moves (house rules): write H after the unit in %(province)s, or where it moves'),
    'support_hold_of_moving_unit': N_('the unit in %(province)s is ordered to move, so it cannot be supported in place'),
    'convoy_by_army': N_('only a fleet can convoy'),
    'convoy_by_coastal_fleet': N_('a fleet in %(province)s, a coastal province, cannot convoy'),
    'convoy_of_fleet': N_('only an army can be convoyed'),
    'convoy_not_coastal': N_('a convoy goes from one coastal province to another (%(province)s to %(target)s)'),
    'no_unit_to_convoy': N_('there is no army in %(province)s to convoy'),
    'retreat_not_allowed': N_('the unit cannot retreat to %(target)s'),
    'build_not_home': N_('%(province)s is not a home supply centre of %(power)s'),
    'build_not_owned': N_('you do not control %(province)s'),
    'build_occupied': N_('%(province)s is occupied by %(unit)s'),
    'not_reachable_from_coast': N_('a fleet on %(location)s cannot reach %(target)s (only the other coast can)'),
    'support_cannot_be_convoyed': N_("only an army's move can be convoyed, not a support"),
    'no_builds_available': N_('%(power)s has no build to make'),
    'no_removals_needed': N_('%(power)s has no unit to remove'),
    'too_many_builds': N_('more builds than %(power)s is entitled to'),
    'too_many_removals': N_('more removals than %(power)s owes'),
    'no_fleets_to_convoy': N_('%(province)s does not border %(target)s, and no fleets at sea could convoy the army there'),
    'convoy_not_on_route': N_('a fleet in %(province)s is not on any convoy route from %(army)s to %(target)s'),
    'not_legal': N_('this order is not possible here (%(refusal)s)'),
}

NOTES: dict[str, str] = {
    'replaces_earlier': N_('replaces the earlier order for %(unit)s'),
    'replaced_by_later': N_('replaced by a later order for %(unit)s'),
    'coast_filled_in': N_('read as %(location)s, the only coast the fleet can reach'),
    'unit_type_filled_in': N_('read as %(unit)s'),
    'unit_coast_from_position': N_('the unit is %(unit)s'),
    'read_as_retreat': N_('read as a retreat'),
    'read_as_support_hold': N_('read as support for the unit in %(province)s to hold'),
    'read_as_build': N_('read as a build'),
    'comment_ignored': N_('ignored "(%(text)s)"'),
    'support_coast_ignored': N_('a support needs no coast (%(location)s)'),
    'army_coast_ignored': N_('armies have no coast (%(province)s)'),
    'needs_convoy': N_('not adjacent: the move needs a convoy to %(province)s'),
    'support_does_not_match': N_('does not match the order given to %(unit)s (%(order)s)'),
    'read_in_game_notation': N_("%(word)s read as %(province)s, in the game's notation (%(others)s)"),
    'coast_missing_holds': N_('the order does not give the coast of %(province)s: under the house rules the fleet holds'),
}

# what follows an unknown province: the likeliest provinces, joined by OR
SUGGESTIONS = N_('; did you mean %(choices)s?')
OR = N_(' or ')
# how a reply names the notation a code was read in
NOTATIONS: dict[str, str] = {
    'en': N_('in English notation'),
    'fr': N_('in French notation'),
    'it': N_('in Italian notation'),
}
