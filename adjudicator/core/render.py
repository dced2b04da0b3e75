"""Plain-text output: the ruling as a referee would read it out, 80 columns wide."""
from __future__ import annotations

import collections
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


# --------------------------------------------------------------------------------------------------
# A ruling as every face says it: the verdict first, then each remedy, each thing said once
# --------------------------------------------------------------------------------------------------
# Findings that state the outcome in numbers (a score, the partie, the game, the stakes): a verdict
# says them, since a player acts on them.
OUTCOME_FINDINGS = ("deal-total", "partie-won", "partie-drawn", "points-won", "rubicon", "capot", "the-cards",
                    "game-value", "rubber-value", "rubber-stands", "honours-scored", "three-added", "three-deducted",
                    "three-deducted-and-added", "game-if", "score-if", "capped", "third-game-not-played",
                    "neither-can-win", "misere-lost", "pam-wins", "bidder-abandoned", "whole-stakes",
                    "abandoned-for-stakes", "pays-for-partners", "reckons-nothing-scored")
# A finding that says, with its numbers, what a remedy says in words: the verdict says the finding.
SAID_WITH_NUMBERS = {"capped": "cannot-win-game"}
# Remedies paid into the pool: in favour of the pool, not of a player.
TO_THE_POOL = ("pay-pool", "winnings-to-pool", "double-pool", "pay-double-ante", "looed-single", "looed-full")
# The reason a side in fault may exact nothing, said once for all the remedies (American 39, English 62 ...)
SIDE_IN_FAULT = "on the side in fault"


def _names(seats, players, game: str, joiner: str = "and") -> str:
    """Seats as a sentence names them: "Ames (N) and Clark (S)", "North or South"."""
    from adjudicator.core import registry
    table = registry.table(game)
    told = [f"{players[s]} ({s})" if players.get(s) else table.word(s) for s in seats]
    if len(told) <= 1:
        return "".join(told) or "no one"
    return ", ".join(told[:-1]) + f" {joiner} " + told[-1]


def _laws_in(laws) -> str:
    return f" ({laws_tag(list(laws))})" if laws else ""


_PROPER = ("North", "South", "East", "West", "Dummy", "Pam")


def mid_sentence(text: str, names=()) -> str:
    """A sentence as it is said after a semicolon: its first letter small, unless it begins with a
    player's name, a seat, a side (N-S) or another proper name ("Ames (N) ...", "North ...")."""
    first = text.split(" ", 1)[0]
    if not text or any(text.startswith(n) for n in names if n) or first.startswith(_PROPER) \
            or not first[:1].isupper() or not first[1:].islower() and first != "A":
        return text         # (a seat, N, or a side, N-S, keeps its capital)
    return text[:1].lower() + text[1:]


def _end(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _law_set(items) -> list[str]:
    from adjudicator.core.values import law_key
    return sorted({law for r in items for law in r["laws"]}, key=law_key)


def summary(result: dict, players: dict[str, str]) -> list[str]:
    """The verdict: one to three sentences a player at the table acts on. What went wrong (the fact
    the remedies rest on), what happens now (what follows of itself, the score), who chooses and
    between what; a "no penalty" ruling says so and why. Each with its laws."""
    from adjudicator.core import registry
    game = result.get("game") or "whist"
    rulings, findings = result["rulings"], {f["finding"]: f for f in result["findings"]}
    words = registry.remedy_words()
    real = [r for r in rulings if r["remedy"] not in NONE_REMEDIES]
    nones = [r for r in rulings if r["remedy"] in NONE_REMEDIES]
    outcomes = [f for f in result["findings"] if f["finding"].split("(")[0] in OUTCOME_FINDINGS]
    out: list[str] = []
    if not real:
        said = [_end(r["text"] + _laws_in(r["laws"])) for r in nones[:2]]
        if len(nones) > 2:
            said[-1] = said[-1][:-1] + f"; and {len(nones) - 2} more below."
        said += [_end(f["text"] + _laws_in(f["laws"])) for f in outcomes[-1:]]
        return said or ["Nothing in this account calls for a ruling."]
    # 1. what went wrong: the fact most of the remedies rest on
    cited: dict[str, int] = {}
    for r in real:
        for fid in r["because"]:
            if fid in findings:
                cited[fid] = cited.get(fid, 0) + 1
    if cited:
        top = max(cited, key=lambda k: (cited[k], -list(findings).index(k)))
        # (an offence that carries no penalty, though something follows of it: the verdict says so first)
        free = next((r for r in nones if r["remedy"] == "no-penalty" and top in r["because"]
                     and findings[top]["text"] in r["text"]), None)
        said = free if free is not None else findings[top]
        out.append(_end(said["text"] + _laws_in(said["laws"])))
    # 2. what happens now: what follows of itself, what was done, the score
    now = [r for r in real if r["status"] in ("applies", "done", "exacted")]
    scores = sorted(outcomes, key=lambda f: OUTCOME_FINDINGS.index(f["finding"].split("(")[0]))[:2]
    # a finding that says a remedy's consequence in numbers says it for the verdict ("they score up to
    # six only (8 would have made game)" for "the revoking side cannot win the game")
    restated = {SAID_WITH_NUMBERS[f["finding"].split("(")[0]] for f in scores
                if f["finding"].split("(")[0] in SAID_WITH_NUMBERS}
    # the score itself is always said; of the rest, two
    now = [r for r in now if r["remedy"] not in restated and r["remedy"] != "score"] + \
          [r for r in now if r["remedy"] == "score"]
    told, said_now, more = [], [], 0
    seen_now: set[str] = set()
    for r in now:
        if r["text"] in seen_now:           # (the same consequence of two offences: said once)
            continue
        seen_now.add(r["text"])
        if r["remedy"] != "score" and len(said_now) == 2:
            more += 1
            continue
        text = r["text"]
        if r["status"] == "exacted":
            text += f"; {_names(r['exacted_by'], players, game)} exacted it"
        elif r["status"] == "done" and not (r["exacted_by"] and _names(r["exacted_by"], players, game) in text):
            # (a sentence that tells who did it needs no "did so")
            text += f"; {_names(r['exacted_by'], players, game)} did so" if r["exacted_by"] else "; it was done"
        told.append(mid_sentence(text, players.values()) if told else text)
        said_now.append(r)
    scores = [f for f in scores if f["text"] not in told]
    at = next((i for i, r in enumerate(said_now) if r["remedy"] == "score"), len(told))
    told[at:at] = [f["text"] for f in scores]      # (the findings in numbers, then the score they make)
    told = [x if i == 0 else mid_sentence(x, players.values()) for i, x in enumerate(told)]
    if told:
        sentence = "; ".join(told) + _laws_in(_law_set(said_now + scores))
        if more:            # (the rest that follows, or was done, is in the details)
            sentence += f"; and {_NUMBER_WORDS.get(more, str(more))} more, below"
        out.append(_end(sentence))
    # 3. who chooses, and between what
    open_ = [r for r in real if r["status"] in ("available", "later")]
    groups: dict[tuple, list[dict]] = {}
    for r in open_:
        # (one right of each kind, but the same kind against each side apart: each side's tricks transferred)
        key = ("choice", r["choice"]) if r.get("choice") else ("right", r["remedy"], r["status"], tuple(r["against"]))
        groups.setdefault(key, []).append(r)
    rights: list[tuple[tuple, str]] = []       # (who, what they may do), in the order of the rulings
    for key, items in groups.items():
        who = tuple(sorted({s for r in items for s in r["may_exact"]}, key=lambda s: _seat_order(s, game)))
        what = list(dict.fromkeys(words.get(r["remedy"], r["remedy"].replace("-", " ")) for r in items))
        if not who:
            continue
        later = all(r["status"] == "later" for r in items)
        if key[0] == "choice" and len(what) > 1:
            rights.append((who, f"choose {', '.join(what[:-1])} or {what[-1]}" + _laws_in(_law_set(items))))
        else:
            rights.append((who, ("later demand " if later else "demand ") + what[0] + _laws_in(_law_set(items))))
    by_who: dict[tuple, list[str]] = {}       # one sentence for each person: "Brown may demand A and B"
    for who, what in rights:
        by_who.setdefault(who, []).append(what)
    said_rights = []
    for who, whats in by_who.items():
        joined = whats[0] if len(whats) == 1 else ", ".join(whats[:-1]) + " and " + whats[-1].removeprefix("demand ")
        said_rights.append(f"{_names(who, players, game, 'or')} may {joined}")
    rights = said_rights
    if rights:
        sentence = "; ".join(rights[:3]) + (f"; and {len(rights) - 3} more (below)" if len(rights) > 3 else "")
        out.append(_end(sentence[:1].upper() + sentence[1:]))
    if not out:
        out = [_end(r["text"] + _laws_in(r["laws"])) for r in real[:2]]
    return out[:3]


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _seat_order(seat: str, game: str) -> tuple:
    from adjudicator.core import registry
    seats = registry.table(game).seats
    return (seats.index(seat) if seat in seats else len(seats), seat)


def presented(result: dict, players: dict[str, str]) -> dict:
    """What every face shows of a ruling, in one shape: the verdict, each remedy with who may and
    who may not (a reason that holds for a side under every remedy said once, for all of them), the
    facts each rests on stated once and named by a letter, and the rest of the findings."""
    game = result.get("game") or "whist"
    rulings, findings = result["rulings"], result["findings"]
    by_id = {f["finding"]: f for f in findings}
    # the facts the remedies rest on, once each, in the order of the findings
    # (a fact every ruling resting on it says in its own sentence -- a no-penalty ruling's offence and
    # reason -- is not listed again)
    cited = [f for f in findings if any(f["finding"] in r["because"] for r in rulings)
             and not all(f["text"] in r["text"] for r in rulings if f["finding"] in r["because"])]
    seen_text: dict[str, str] = {}
    facts, label_of = [], {}
    for f in cited:
        if f["text"] in seen_text:          # (two findings said in the same words: one fact)
            label_of[f["finding"]] = seen_text[f["text"]]
            continue
        label = chr(ord("a") + len(facts)) if len(facts) < 26 else str(len(facts) + 1)
        facts.append({"label": label, "text": f["text"], "laws": f["laws"]})
        label_of[f["finding"]] = seen_text[f["text"]] = label
    # a may-not reason said for the same seats under every remedy that has may-nots: said once
    per = [{(m["reason"], tuple(m["laws"]), m["seat"]) for m in r["may_not_exact"]} for r in rulings
           if r["remedy"] not in NONE_REMEDIES and r["may_not_exact"]]
    everywhere = set.intersection(*per) if len(per) > 1 else set()
    common: dict[tuple, list[str]] = {}
    for reason, laws, seat in sorted(everywhere, key=lambda x: _seat_order(x[2], game)):
        common.setdefault((reason, laws), []).append(seat)
    items = []
    choices = alternatives(rulings)
    only_fact = len(facts) == 1
    for i, r in enumerate(rulings):
        groups: dict[tuple, list[str]] = {}
        for m in r["may_not_exact"]:
            if (m["reason"], tuple(m["laws"]), m["seat"]) in everywhere:
                continue
            groups.setdefault((m["reason"], tuple(m["laws"])), []).append(m["seat"])
        if r["status"] == "exacted":
            status = f"Exacted by {_who(r['exacted_by'], players, game)}."
        elif r["status"] == "done":
            status = f"Done: by {_who(r['exacted_by'], players, game)}." if r["exacted_by"] else "Done."
        elif r["status"] == "later" and r.get("when"):
            status = f"Not yet: {r['when']}."
        elif r["status"] == "applies" and not r["may_not_exact"]:
            status = "It follows of itself."
        else:
            status = status_sentence(r) or None
        none = r["remedy"] in NONE_REMEDIES
        favour = r["in_favour_of"]
        items.append({
            "number": i + 1, "remedy": r["remedy"], "text": r["text"], "laws": r["laws"], "status": status,
            "choice": choices[i],
            "in_fault": r["against"] if none else None,
            "against": None if none else r["against"],
            "in_favour_of": None if none else (favour or (["the pool"] if r["remedy"] in TO_THE_POOL else [])),
            "may_exact": None if none or r["status"] == "applies" else r["may_exact"],
            # (a no-penalty ruling's own sentence gives its reason: "May not: everyone -- " the same
            # reason again says nothing new; a reason it does not give is said)
            "may_not": [{"seats": seats, "reason": reason, "laws": list(laws)} for (reason, laws), seats in groups.items()
                        if not (none and (reason in r["text"] or _only_facts(reason, r, by_id)))],
            "because": [] if only_fact else
            sorted({label_of[fid] for fid in r["because"] if fid in label_of}),
        })
    shown = {f["text"] for f in cited}
    others, seen = [], set()
    for f in findings:
        if f["text"] not in shown and f["text"] not in seen and \
                not any(f["finding"] in r["because"] and f["text"] in r["text"] for r in rulings):
            seen.add(f["text"])
            others.append(f)
    said = result.get("summary") or summary(result, players)
    if len(facts) == 1 and any(facts[0]["text"] in s for s in said):
        facts = []          # (the one fact the remedies rest on opens the verdict: not said again)
    return {"summary": said, "items": items,
            "none_may": [{"seats": seats, "reason": reason, "laws": list(laws)} for (reason, laws), seats in common.items()],
            "facts": facts, "findings": others, "by_id": by_id}


def _only_facts(reason: str, r: dict, by_id: dict) -> bool:
    """Whether a no-penalty ruling's reason for "May not" is only the facts it rests on (what the
    law allows, said under "The facts"): said there, not again under the ruling."""
    for fid in r["because"]:
        if fid in by_id:
            said = by_id[fid]["text"]       # (a finding opens with a capital; a reason may not)
            reason = reason.replace(said, "").replace(said[:1].lower() + said[1:], "")
    return not reason.replace(";", "").strip()


def none_may_sentence(m: dict, players: dict[str, str], game: str, refs: bool = True) -> str:
    """Who may exact none of the remedies, and why, once for all of them: "Brown (E) and Dodd (W),
    the side in fault, may exact none of these: the offender must await the decision of the
    adversaries (39)."""
    who = _names(m["seats"], players, game)
    reason = m["reason"]
    if reason.startswith(SIDE_IN_FAULT + ": "):
        who, reason = f"{who}, the side in fault,", reason[len(SIDE_IN_FAULT) + 2:]
    return f"{who} may exact none of these: {reason}" + (f" ({', '.join(m['laws'])})." if refs else ".")


def _seats_said(seats, players, game: str) -> str:
    return ", ".join(f"{players[s]} ({s})" if players.get(s) else ("the pool" if s == "the pool" else _word(s, game))
                     for s in seats) or "no one"


def _word(seat: str, game: str) -> str:
    from adjudicator.core import registry
    return registry.table(game).word(seat)


def verdict_text(result: dict, players: dict[str, str]) -> str:
    """The verdict as the command prints it, first: a heading naming the code, the sentences."""
    said = result.get("summary") or summary(result, players)
    lines = _wrap(f"Ruling under {result['code_title']}:", "", "  ")
    lines += _wrap(" ".join(said), "  ", "  ")
    return "\n".join(lines) + "\n"


def ruling_text(result: dict, players: dict[str, str], verdict: bool = True) -> str:
    """The ruling as the command prints it: the verdict (unless `verdict` is False: the caller said
    it), then, for the referee, the source, each remedy with who may and may not, the facts."""
    game = result.get("game") or "whist"
    shown = presented(result, players)
    lines: list[str] = []
    if verdict:
        lines += verdict_text(result, players).rstrip("\n").split("\n")
        lines.append("")
    head = f"In detail -- {result['file']}"
    if result.get("code_given") is False:
        head += f" (no `code` given: {result['game']}'s default code rules it)"
    lines += _wrap(head, "", "  ")
    lines.append("")
    # each remedy's lines under it: its status, who may exact it, against whom (labels, short); a
    # reason why one may not that is the same under several remedies is said once, after them,
    # naming the rulings ("Under rulings 2 and 5, Ames (N) and Clark (S) may not: ...")
    not_under: dict[tuple, list[int]] = {}
    for item in shown["items"]:
        for m in item["may_not"]:
            not_under.setdefault((tuple(m["seats"]), m["reason"], tuple(m["laws"])), []).append(item["number"])
    shared = {k: ns for k, ns in not_under.items() if len(ns) > 1}
    texts = collections.Counter(item["text"] for item in shown["items"])
    whose_of = [(i["text"], tuple(i["may_exact"] or i["in_fault"] or i["against"] or ())) for i in shown["items"]]
    first_with: dict[tuple, int] = {}
    choice_said: set[str] = set()
    for item in shown["items"]:
        num = f"{item['number']}. "
        pad = " " * len(num)
        tag = f" [{laws_tag(item['laws'])}]" if item["laws"] else ""    # (a code with no general law on penalties)
        text = item["text"]
        whose = tuple(item["may_exact"] or item["in_fault"] or item["against"] or ())
        if texts[text] > 1:
            if (text, whose) in first_with:       # (the same consequence of two offences: said once)
                text = f"As ruling {first_with[(text, whose)]}, for this offence too"
            else:
                first_with[(text, whose)] = item["number"]
                if whose and len({w for t, w in whose_of if t == text}) > 1:   # (for each side: whose it is)
                    text += f" (for {_names(whose, players, game)})"
        lines += _wrap(f"{text}.{tag}", num, pad)
        said = [item["status"]] if item["status"] else []
        if item["choice"] and item["choice"] not in choice_said:      # (said under the first of the choice)
            choice_said.add(item["choice"])
            said.append(item["choice"])
        if item["in_fault"]:
            said.append(f"In fault: {_seats_said(item['in_fault'], players, game)}.")
        who = []
        if item["may_exact"] is not None:
            who.append(f"May exact it: {_seats_said(item['may_exact'], players, game)}.")
        if item["against"] or item["in_favour_of"]:
            who.append(f"Against: {_seats_said(item['against'], players, game)}.  In favour of: "
                       f"{_seats_said(item['in_favour_of'], players, game)}.")
        if who:
            said.append("  ".join(who))
        for x in said:
            lines += _wrap(x, pad, pad)
        for m in item["may_not"]:
            if (tuple(m["seats"]), m["reason"], tuple(m["laws"])) not in shared:
                lines += _wrap(f"May not: {_seats_said(m['seats'], players, game)} -- {m['reason']} "
                               f"({', '.join(m['laws'])}).", pad, pad + "  ")
        if item["because"]:
            lines += _wrap(f"Because of {', '.join(f'({x})' for x in item['because'])}.", pad, pad)
        lines.append("")
    for (seats, reason, laws), ns in shared.items():
        whom = "rulings " + ", ".join(map(str, ns[:-1])) + " and " + str(ns[-1])
        who = _names(seats, players, game)
        if reason.startswith(SIDE_IN_FAULT + ": "):
            who, reason = f"{who}, the side in fault,", reason[len(SIDE_IN_FAULT) + 2:]
        lines += _wrap(f"Under {whom}, {who} may not exact it: {reason} ({', '.join(laws)}).", "", "  ")
    if shared:
        lines.append("")
    for m in shown["none_may"]:
        lines += _wrap(none_may_sentence(m, players, game), "", "  ")
        lines.append("")
    if shown["facts"]:
        lines.append("The facts:" if len(shown["facts"]) > 1 else "The fact:")
        for f in shown["facts"]:
            mark = f"  ({f['label']}) " if len(shown["facts"]) > 1 else "  "
            lines += _wrap(f"{f['text']} ({', '.join(f['laws'])}).", mark, "      " if len(shown["facts"]) > 1 else "    ")
        lines.append("")
    if shown["findings"]:
        lines.append("Also found:")
        for f in shown["findings"]:
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
    from adjudicator.core.values import law_key
    laws = set(tree["laws"])
    for b in tree["branches"]:
        laws.update(laws_turned_on(b["depends_on"]))
    return sorted(laws, key=law_key)
