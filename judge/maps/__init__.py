"""Maps of any variant's board: a pure SVG renderer and its PNG conversion.

``render_svg(snapshot)`` takes plain dicts (the shape of ``judge adjudicate``'s JSON) so that
bulletins, the archive and the demo can draw a map without this package knowing their models.
"""

from judge.maps.attachment import map_attachment
from judge.maps.png import render_png
from judge.maps.scene import MapSnapshot, snapshot_from_turn
from judge.maps.svg import render_svg

__all__ = ["MapSnapshot", "map_attachment", "render_png", "render_svg", "snapshot_from_turn"]
