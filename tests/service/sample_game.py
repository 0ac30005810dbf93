"""The sample game of seed 001 (2008 rulebook), Spring 1901 to the Winter 1901 builds."""

from __future__ import annotations

SPRING_1901 = {
    "AUSTRIA": ["A VIE - TRI", "A BUD - GAL", "F TRI - ALB"],
    "ENGLAND": ["A LVP - YOR", "F LON - NTH", "F EDI - NWG"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - PIC"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
    "ITALY": ["A VEN - PIE", "A ROM - VEN", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F STP/SC - BOT", "F SEV - BLA"],
    "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"],
}
FALL_1901 = {
    "AUSTRIA": ["A TRI H", "A BUD - SER", "F ALB - GRE"],
    "ENGLAND": ["A YOR - NWY", "F NTH C A YOR - NWY", "F NWG - BAR"],
    "FRANCE": ["A BUR - MAR", "A SPA - POR", "F PIC - BEL"],
    "GERMANY": ["A KIE - HOL", "A RUH - BEL", "F DEN H"],
    "ITALY": ["A VEN H", "A PIE - MAR", "F ION - TUN"],
    "RUSSIA": ["A UKR S F SEV - RUM", "A WAR - GAL", "F BOT - SWE", "F SEV - RUM"],
    "TURKEY": ["A BUL - SER", "A CON - BUL", "F ANK - BLA"],
}
WINTER_1901 = {
    "AUSTRIA": ["A VIE B"],
    "ENGLAND": ["F EDI B"],
    "FRANCE": ["F MAR B"],
    "GERMANY": ["F KIE B", "A MUN B"],
    "ITALY": ["F NAP B"],
    "RUSSIA": ["A STP B", "A SEV B"],
    "TURKEY": ["A SMY B"],
}
