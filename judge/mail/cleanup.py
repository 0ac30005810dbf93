"""Plain text from HTML, and the part of a body that can hold commands.

Quoted lines, the attribution line that opens a quoted reply ("On ... wrote:", "Il giorno ...
ha scritto:", "Le ... a écrit :") with everything after it, forwarded-message separators and
the signature (a line ``-- `` and after) are never commands. Outlook quotes without ``>``: its
line of underscores (or "-----Ursprüngliche Nachricht-----") opens the quoted mail.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

BLOCK_TAGS = {
    "p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
    "table", "ul", "ol", "hr", "section", "article",
}
SKIP_TAGS = {"script", "style", "head", "title"}

ATTRIBUTION = re.compile(
    r"^(On\s.+\swrote:|Il giorno\s.+\sha scritto:|Le\s.+\sa\s[ée]crit\s?:|.+\sscrisse:)\s*$",
    re.IGNORECASE,
)
SEPARATOR = re.compile(
    r"^\s*-{2,}\s*(Original Message|Messaggio originale|Message d'origine|"
    r"Forwarded message|Messaggio inoltrato|Message transféré|Ursprüngliche Nachricht|"
    r"Weitergeleitete Nachricht)\s*-{2,}\s*$"
    r"|^\s*_{10,}\s*$",
    re.IGNORECASE,
)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skip = 0
        self._quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP_TAGS:
            self._skip += 1
        elif tag == "blockquote":
            self._quote += 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TAGS and self._skip:
            self._skip -= 1
        elif tag == "blockquote" and self._quote:
            self._quote -= 1
        if tag in BLOCK_TAGS:
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._quote:
            # an HTML quote becomes a text quote, which cleanup then drops
            data = "\n".join("> " + part for part in data.split("\n"))
        self.chunks.append(data)


def html_to_text(html: str) -> str:
    parser = _TextCollector()
    parser.feed(html)
    parser.close()
    text = "".join(parser.chunks).replace("\xa0", " ")
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def command_lines(text: str) -> list[str]:
    """The lines of ``text`` that may hold commands, right-stripped, blank lines kept."""
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(raw):
        stripped = line.rstrip()
        if stripped in ("--", "-- ") or line == "-- ":
            break
        if SEPARATOR.match(stripped) or ATTRIBUTION.match(stripped.strip()):
            break
        # attributions wrapped over two lines by the sender's client
        nxt = raw[index + 1].strip() if index + 1 < len(raw) else ""
        if (
            nxt
            and stripped.strip()
            and ATTRIBUTION.match(stripped.strip() + " " + nxt)
            and _quoted_follows(raw, index + 2)
        ):
            break
        if stripped.lstrip().startswith(">"):
            continue
        kept.append(stripped)
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return kept


def _quoted_follows(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return line.lstrip().startswith(">")
    return True
