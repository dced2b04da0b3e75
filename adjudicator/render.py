"""Plain-text output: the ruling as a referee would read it out, 80 columns wide."""
from __future__ import annotations

import textwrap

WIDTH = 80
SEAT_WORD = {"N": "North", "E": "East", "S": "South", "W": "West"}
STATUS = {
    "available": "",
    "later": "Not yet: it may be exacted only later.",
    "exacted": "",
    "applies": "This follows of itself: any player may insist on it.",
    "none": "",
}


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False) or [first.rstrip()]


def _who(seats, players) -> str:
    out = []
    for s in seats:
        name = players.get(s)
        out.append(f"{name} ({s})" if name else SEAT_WORD.get(s, s))
    return ", ".join(out) if out else "no one"


def laws_tag(laws) -> str:
    return "law " + laws[0] if len(laws) == 1 else "laws " + ", ".join(laws)


def ruling_text(result: dict, players: dict[str, str]) -> str:
    lines: list[str] = []
    head = f"{result['code_title']} -- {result['file']}"
    lines += _wrap(head, "", "  ")
    lines.append("")
    findings = {f["finding"]: f for f in result["findings"]}
    for i, r in enumerate(result["rulings"], start=1):
        num = f"{i}. "
        pad = " " * len(num)
        lines += _wrap(f"{r['text']}. [{laws_tag(r['laws'])}]", num, pad)
        if r["status"] == "exacted":
            lines += _wrap(f"Exacted by {_who(r['exacted_by'], players)}.", pad, pad)
        elif r["status"] == "done":
            lines += _wrap(f"Done: by {_who(r['exacted_by'], players)}.", pad, pad)
        elif r["status"] == "later" and r.get("when"):
            lines += _wrap(f"Not yet: {r['when']}.", pad, pad)
        elif STATUS.get(r["status"]):
            lines += _wrap(STATUS[r["status"]], pad, pad)
        if r.get("choice"):
            lines += _wrap("One of the alternatives marked with the same choice; only one may be had "
                           f"(choice {r['choice']}).", pad, pad)
        if r["against"] or r["in_favour_of"]:
            lines += _wrap(f"Against: {_who(r['against'], players)}.  In favour of: "
                           f"{_who(r['in_favour_of'], players)}.", pad, pad)
        if r["remedy"] not in ("no-penalty", "no-remedy"):
            lines += _wrap(f"May exact it: {_who(r['may_exact'], players)}.", pad, pad)
        groups: dict[tuple, list[str]] = {}
        for m in r["may_not_exact"]:
            groups.setdefault((m["reason"], tuple(m["laws"])), []).append(m["seat"])
        for (reason, laws), seats in groups.items():
            lines += _wrap(f"May not: {_who(seats, players)} -- {reason} ({', '.join(laws)}).", pad, pad + "  ")
        for fid in r["because"]:
            f = findings.get(fid)
            if f:
                lines += _wrap(f"Because: {f['text']} ({', '.join(f['laws'])}).", pad, pad + "  ")
        lines.append("")
    if result["findings"]:
        lines.append("Findings:")
        for f in result["findings"]:
            lines += _wrap(f"{f['text']} ({', '.join(f['laws'])}).", "  - ", "    ")
    return "\n".join(lines).rstrip() + "\n"


def law_text(code_info: dict, law: dict, clause: str | None, links: dict | None = None) -> str:
    lines: list[str] = []
    title = f"{code_info['title']}, law {law['id']}"
    if law.get("section"):
        title += f" -- {law['section']}"
    lines += _wrap(title, "", "  ")
    lines.append("")
    for para in law["text"].split("\n"):
        mark = ""
        if clause and para.startswith(f"{clause}. "):
            mark = "> "
        lines += _wrap(para, "  " + mark, "    ")
    if law.get("exceptions"):
        lines.append("")
        lines.append("Exceptions inserted for other games:")
        for ex in law["exceptions"]:
            lines += _wrap(f"[{ex['id']}] {ex['text']}", "  ", "    ")
    lines.append("")
    lines += _wrap(f"In short: {law['summary']}", "", "  ")
    if law.get("refers_to"):
        refs = "; ".join(f"{r['code']} law {r['id']}" + (f" ({r['exception']})" if r.get("exception") else "")
                         for r in law["refers_to"])
        lines += _wrap(f"Refers to: {refs}.", "", "  ")
    if law.get("adjudication"):
        why = f" -- {law['reason']}" if law.get("reason") else ""
        lines += _wrap(f"Nothing to adjudicate{why}.", "", "  ")
    src = code_info.get("source") or {}
    if src:
        lines += _wrap(f"Source: {src.get('author', '')}, {src.get('book', '')}, {src.get('edition', '')}; "
                       f"{src.get('year', '')}.", "", "  ")
    return "\n".join(lines).rstrip() + "\n"
