"""Plain-text output: the ruling as a referee would read it out, 80 columns wide."""
from __future__ import annotations

import textwrap

WIDTH = 80
STATUS = {
    "available": "",
    "later": "Not yet: it may be exacted only later.",
    "exacted": "",
    "applies": "This follows of itself: any player may insist on it.",
    "none": "",
}
# The rulings that give nothing: no one may exact them, and none is against anyone (the side in
# fault is named as such).
NONE_REMEDIES = ("no-penalty", "no-remedy")


def status_sentence(r: dict) -> str:
    """What a ruling's status says beneath it ('' for none): a ruling that follows of itself is
    any player's to insist on, but not the players the law takes out of it (Dummy, "blind and
    deaf", Dummy law III), who are named under "May not"."""
    if r.get("status") == "applies" and r.get("may_not_exact"):
        return "This follows of itself: any player not named under \"May not\" may insist on it."
    return STATUS.get(r.get("status"), "")


def wrap(text: str, width: int = WIDTH, first: str = "", rest: str = "") -> list[str]:
    """The text in lines of at most `width`, broken only at spaces: never inside a word, nor at its
    hyphens, so that a file path, a law id (`variations.five-card-loo`) or a case's name can be
    copied back whole. A word longer than the line goes on a line of its own, whole: the one line
    that may be wider (`too_wide`)."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False) or [first.rstrip()]


def too_wide(text: str, width: int = WIDTH) -> list[str]:
    """The lines of a text wider than `width`, but for a line holding one word alone (after its
    indent): a path or an id longer than the line, which `wrap` never breaks."""
    return [line for line in text.splitlines() if len(line) > width and len(line.split()) != 1]


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return wrap(text, WIDTH, first, rest)


def _who(seats, players, game: str = "whist") -> str:
    from adjudicator.core import registry
    table = registry.table(game)
    out = []
    for s in seats:
        name = players.get(s)
        out.append(f"{name} ({s})" if name else table.word(s))
    return ", ".join(out) if out else "no one"


def laws_tag(laws) -> str:
    return "law " + laws[0] if len(laws) == 1 else "laws " + ", ".join(laws)


def alternatives(rulings: list[dict]) -> list[str | None]:
    """For each ruling, the sentence that says which rulings it is one choice with ("One of rulings
    1, 3 and 4: only one of them may be had"), by their numbers in the list; None for a ruling that
    is no choice. (The choice's id is the rules' term: data for --json, never a sentence's words.)"""
    numbers: dict[str, list[int]] = {}
    for i, r in enumerate(rulings, start=1):
        if r.get("choice"):
            numbers.setdefault(r["choice"], []).append(i)
    out: list[str | None] = []
    for r in rulings:
        group = numbers.get(r.get("choice")) if r.get("choice") else None
        if not group:
            out.append(None)
        elif len(group) == 1:
            out.append("One of the law's alternatives, the only one open here.")
        else:
            told = ", ".join(map(str, group[:-1])) + " and " + str(group[-1])
            out.append(f"One of rulings {told}: only one of them may be had.")
    return out


def ruling_text(result: dict, players: dict[str, str]) -> str:
    game = result.get("game") or "whist"
    lines: list[str] = []
    head = f"{result['code_title']} -- {result['file']}"
    if result.get("code_given") is False:
        head += f" (no `code` given: {result['game']}'s default code rules it)"
    lines += _wrap(head, "", "  ")
    lines.append("")
    findings = {f["finding"]: f for f in result["findings"]}
    choices = alternatives(result["rulings"])
    for i, r in enumerate(result["rulings"], start=1):
        num = f"{i}. "
        pad = " " * len(num)
        tag = f" [{laws_tag(r['laws'])}]" if r["laws"] else ""    # (a code with no general law on penalties)
        lines += _wrap(f"{r['text']}.{tag}", num, pad)
        if r["status"] == "exacted":
            lines += _wrap(f"Exacted by {_who(r['exacted_by'], players, game)}.", pad, pad)
        elif r["status"] == "done":
            lines += _wrap(f"Done: by {_who(r['exacted_by'], players, game)}.", pad, pad)
        elif r["status"] == "later" and r.get("when"):
            lines += _wrap(f"Not yet: {r['when']}.", pad, pad)
        elif status_sentence(r):
            lines += _wrap(status_sentence(r), pad, pad)
        if choices[i - 1]:
            lines += _wrap(choices[i - 1], pad, pad)
        if r["remedy"] in NONE_REMEDIES:
            if r["against"]:        # (no penalty is against anyone: the side in fault is named)
                lines += _wrap(f"In fault: {_who(r['against'], players, game)}.", pad, pad)
        elif r["against"] or r["in_favour_of"]:
            lines += _wrap(f"Against: {_who(r['against'], players, game)}.  In favour of: "
                           f"{_who(r['in_favour_of'], players, game)}.", pad, pad)
        if r["remedy"] not in NONE_REMEDIES:
            lines += _wrap(f"May exact it: {_who(r['may_exact'], players, game)}.", pad, pad)
        groups: dict[tuple, list[str]] = {}
        for m in r["may_not_exact"]:
            groups.setdefault((m["reason"], tuple(m["laws"])), []).append(m["seat"])
        for (reason, laws), seats in groups.items():
            lines += _wrap(f"May not: {_who(seats, players, game)} -- {reason} ({', '.join(laws)}).", pad, pad + "  ")
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


def _ref_line(r: dict, code: str, law_id: str, outgoing: bool) -> str:
    """One reference: the law at the other end (its code too, if another), the paragraph holding
    the words when it is a clause or exception, and the words themselves."""
    other_code = r["code"] if outgoing else r.get("from_code", code)
    law = r["to"] if outgoing else r["from"]
    name = ("" if other_code == code else f"{other_code} ") + f"law {law or '?'}"
    inside = f" (in {r['in']})" if r["in"] != r["from"] else ""
    words = f": \u201c{r['words']}\u201d" if r["words"] else " (a reference noted with the text)"
    topic = f", topic {r['topic']}" if r.get("topic") else ""
    if outgoing:
        return name + words + inside + topic
    onto = f", to {r['to']}" if r["to"] != law_id else ""
    return name + inside + words + onto + topic


def law_text(code_info: dict, law: dict, clause: str | None, links: dict | None = None) -> str:
    """A law as the referee reads it: heading, text (the clause or exception asked for marked
    '> '), exceptions for other games, our summary, notes on the text, and, given `links`
    (laws.py), its references both ways, its topics, where it is encoded and which cases exercise
    it; then the source."""
    links = links or {}
    lines: list[str] = []
    title = f"{code_info['title']}, law {law['id']}"
    if law.get("section"):
        title += f" -- {law['section']}"
    lines += _wrap(title, "", "  ")
    lines.append("")
    if law.get("games"):
        lines += _wrap(f"For {', '.join(law['games'])} only.", "  ", "    ")
    for para in law["text"].split("\n"):
        mark = ""
        if clause and para.startswith(f"{clause}. "):
            mark = "> "
        lines += _wrap(para, "  " + mark, "    " + " " * len(mark))
    missing = [c for c in law.get("clauses") or [] if c["text"] not in law["text"]]
    if missing:
        lines.append("")
        lines.append("Clauses:")
        for c in missing:
            mark = "> " if clause == c["id"] else ""
            lines += _wrap(f"{c['id']}. {c['text']}", "  " + mark, "    " + " " * len(mark))
    if law.get("exceptions"):
        lines.append("")
        lines.append("Exceptions inserted for other games:")
        for ex in law["exceptions"]:
            mark = "> " if links.get("exception") == ex["id"] else ""
            lines += _wrap(f"[{ex['id']}] {ex['text']}", "  " + mark, "    " + " " * len(mark))
    lines.append("")
    lines += _wrap(f"In short: {law['summary']}", "", "  ")
    if law.get("refers_to") and "refers_to" not in links:
        refs = "; ".join(f"{r['code']} law {r['id']}" + (f" ({r['exception']})" if r.get("exception") else "")
                         if isinstance(r, dict) else f"law {r}" for r in law["refers_to"])
        lines += _wrap(f"Refers to: {refs}.", "", "  ")
    if law.get("adjudication"):
        why = f" -- {law['reason']}" if law.get("reason") else ""
        lines += _wrap(f"Nothing to adjudicate{why}.", "", "  ")
    notes = list(law.get("notes") or []) + [f"[{ex['id']}] {ex['note']}" for ex in law.get("exceptions") or []
                                            if ex.get("note")]
    if notes and links.get("notes", True):
        lines.append("Notes on the text:")
        for n in notes:
            lines += _wrap(n, "  - ", "    ")
    if "refers_to" in links:
        lines.append("")
        for head, key in (("Refers to", "refers_to"), ("Referred to by", "referred_by")):
            if not links[key]:
                lines.append(f"{head}: none.")
                continue
            lines.append(f"{head}:")
            for r in links[key]:
                lines += _wrap(_ref_line(r, code_info["code"], law["id"], key == "refers_to"), "  ", "    ")
    if links.get("topics") is not None:
        lines += _wrap("Topics: " + (", ".join(links["topics"]) + " (adjudicator topic NAME)"
                                     if links["topics"] else "none."), "", "  ")
    if "encoded_in" in links:
        lines += _listing("Encoded in", links["encoded_in"], "not yet (this code has its law texts only).",
                          "no rule file cites it.", lambda e: _encoding_lines(e, law["id"]))
    if "cases" in links:
        cases = links["cases"]
        lines += _listing("Cases" if not cases else f"Cases exercising it ({len(cases)})", cases,
                          "not available (no folder of cases found).", "none exercise it.", None)
        if cases:
            folder = None
            for c in cases[:CASES_SHOWN]:
                head, _, name = c["file"].rpartition("/")
                if head != folder:
                    folder = head
                    lines.append(f"  {head}/")
                lines += wrap(name, WIDTH, "    ", "        ")       # whole: it can be copied back
            if len(cases) > CASES_SHOWN:
                lines.append(f"  ... and {len(cases) - CASES_SHOWN} more (--json lists them all).")
    src = code_info.get("source") or {}
    if src:
        lines.append("")
        lines += _wrap("Source: " + "; ".join(p for p in (
            ", ".join(x for x in (src.get("author"), src.get("book"), src.get("edition")) if x),
            src.get("year", "")) if p) + ".", "", "  ")
    return "\n".join(lines).rstrip() + "\n"


CASES_SHOWN = 10


def _listing(head: str, items, absent: str, empty: str, item_lines) -> list[str]:
    """A heading and its items; or, on one line, why there are none (None: not available)."""
    if items is None:
        return [f"{head}: {absent}"]
    if not items:
        return [f"{head}: {empty}"]
    lines = [f"{head}:"]
    for item in items if item_lines else []:
        lines += item_lines(item)
    return lines


def _encoding_lines(e: dict, law_id: str) -> list[str]:
    cites = "" if e["citations"] == [law_id] else f" (as {', '.join(e['citations'])})"
    if e.get("through"):
        cites = f" (shared, through {e['through']})"
    return _wrap(f"rules/{e['file']}, line{'s' if len(e['lines']) > 1 else ''} "
                 f"{', '.join(map(str, e['lines']))}{cites}", "  ", "    ")


def search_more(result: dict) -> tuple[int, int, int] | None:
    """(the first rank shown, the last, the next page) when more laws were found than are shown
    after them; None when the last shown is the last found."""
    shown = result["results"]
    total = result.get("total")
    if not shown or total is None or shown[-1]["rank"] >= total:
        return None
    limit = result.get("limit") or len(shown)
    return shown[0]["rank"], shown[-1]["rank"], (result.get("offset") or 0) // limit + 2


def search_text(result: dict) -> str:
    """Search results: how many laws were found and which are shown; rank, code and law, section,
    and the words found in context; the command for the next page."""
    from adjudicator.errors import safe
    lines: list[str] = []
    total = result.get("total")
    if not result["results"]:
        if total:
            return (f"No more laws: {total} found for \u201c{safe(result['query'], 80)}\u201d, "
                    f"fewer than {result.get('offset', 0) + 1}.\n")
        return f"No law matches \u201c{safe(result['query'], 80)}\u201d.\n"
    if total is not None:
        first, last = result["results"][0]["rank"], result["results"][-1]["rank"]
        lines += _wrap(f"{total} law{'' if total == 1 else 's'} found" + (f"; {first}-{last} shown, the best first."
                                                                          if last < total or first > 1 else "."),
                       "", "  ")
        lines.append("")
    for r in result["results"]:
        head = f"{r['rank']}. {r['code']}, law {r['id']}"
        if r.get("section"):
            head += f" -- {r['section']}"
        pad = " " * len(f"{r['rank']}. ")
        lines += _wrap(head, "", pad + "  ")
        lines += _wrap(r["snippet"], pad, pad)
    lines.append("")
    lines.append("(*word*: a match.  `adjudicator law CODE ID` prints a law in full.)")
    more = search_more(result)
    if more:
        rest = result["total"] - more[1]
        options = (f" --code {result['code']}" if result.get("code") else "") + (
            f" --limit {result['limit']}" if result.get("limit") not in (None, 10) else "")
        lines += _wrap(f"{rest} more law{'' if rest == 1 else 's'}: `adjudicator search {safe(result['query'], 80)}"
                       f"{options} --page {more[2]}`", "", "  ")
    return "\n".join(lines) + "\n"


def topic_text(topic: dict) -> str:
    """One topic: its laws in every code, the code's name above its laws, each law's id beside
    our one-sentence summary."""
    lines: list[str] = []
    lines += _wrap(f"{topic['name']} -- {topic['title']}", "", "  ")
    for code in topic["codes"]:
        lines.append("")
        lines += _wrap(f"{code['code']} -- {code['title']}", "", "  ")
        width = max(len(law["id"]) for law in code["laws"])
        width = min(width, 10)
        for law in code["laws"]:
            if len(law["id"]) > width:
                lines.append(f"  {law['id']}")
                lines += _wrap(law["summary"], "  " + " " * (width + 2), "  " + " " * (width + 2))
            else:
                lines += _wrap(law["summary"], f"  {law['id']:<{width}}  ", "  " + " " * (width + 2))
    if topic.get("not_covered"):
        lines.append("")
        lines += _wrap("Not filed under this topic: " + ", ".join(topic["not_covered"]) + ".", "", "  ")
    return "\n".join(lines) + "\n"


def topics_text(topics: list[dict]) -> str:
    """The list of topics: name, title and the codes filed under each."""
    lines: list[str] = []
    width = max(len(t["name"]) for t in topics) + 2
    width = min(width, 32)
    for t in topics:
        text = f"{t['title']} ({len(t['codes'])} code{'s' if len(t['codes']) != 1 else ''})"
        if len(t["name"]) + 2 > width:
            lines.append(t["name"])
            lines += _wrap(text, " " * width, " " * width)
        else:
            lines += _wrap(text, f"{t['name']:<{width}}", " " * width)
    lines.append("")
    lines.append("`adjudicator topic NAME` lists the laws of every code on one topic.")
    return "\n".join(lines) + "\n"


# (an event no code's rules read: said by `adjudicator events NAME` and the web page's event page)
NO_LAWS_READ = "No code's rules read this event: it is part of the account, but no law rules on it."


def event_text(data: dict) -> str:
    """An event of the incident format (or a top-level key) explained, as `adjudicator events NAME`
    prints it before wrapping to the terminal: what it records, each field, an example, the laws
    of every code whose rules read it."""
    if "key" in data:
        return (f"{data['key']} (top-level key, {data['type']}{', required' if data['required'] else ''})\n"
                f"  {data['doc']}")
    return "\n".join([f"{data['event']} ({data['group']})", f"  {data['doc']}", "", "Fields (* required):"]
                     + [f"  {f['name'] + ('*' if f['required'] else ''):<16} {f['doc']}"
                        + (f" (one of: {', '.join(f['choices'])})" if f.get("choices") else "") for f in data["fields"]]
                     + ["", f"Example:\n  {data['example']}"]
                     + ([f"Laws that read it ({c}): {', '.join(ls)}" for c, ls in data["laws_by_code"].items()]
                        or [NO_LAWS_READ]))


def laws_turned_on(tree) -> list[str]:
    """The laws whose rulings differ between the branches of a conditional ruling (its
    `depends_on`), in the order of the laws: what the facts not known decide."""
    if not tree:
        return []
    from adjudicator.core.ruling import law_key
    laws = set(tree["laws"])
    for b in tree["branches"]:
        laws.update(laws_turned_on(b["depends_on"]))
    return sorted(laws, key=law_key)
