"""Read a solution back as rulings and findings: the --json contract and its sentences.

The rules decide everything; this module only names things. Sentences come from the templates
the rule files state beside each law (text(Name, "...")), filled with the term's arguments.
"""
from __future__ import annotations

import re
from collections import defaultdict

from clingo import Symbol, SymbolType

from adjudicator.core import registry
from adjudicator.core.engine import Solution
from adjudicator.core.values import law_key  # noqa: F401  (ruling.law_key, as every caller reads it)
from adjudicator.errors import InconsistentIncident, InputError
from adjudicator.core.incident import Incident
from adjudicator.core.narrator import call_said, side_said

RANK = {14: "A", 13: "K", 12: "Q", 11: "J"}
SUIT_MARK = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
SUIT_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


class Namer:
    """Renders terms as sentences (for people) and as ids (for machines).

    A ruling speaks of an event by what happened and when ("at the lead to trick 6", "during trick
    3"), never by a line of the file (a page or an interview has no file); a remedy by its words,
    never its id. Only a contradiction in the account (`in_file`: the account is refused, and the
    user mends his file) cites the lines he wrote."""

    def __init__(self, inc: Incident, templates: dict[str, str], tricks: dict[int, int] | None = None,
                 in_file: bool = False):
        self.inc = inc
        self.templates = templates
        self.tricks = tricks or {}              # event number -> the trick then in progress
        self.in_file = in_file
        table = registry.table(inc.game)        # atoms as facts.py makes them: `N` -> n, `N-S` -> ns
        self.seat_atoms = {x.lower(): x for x in table.seats}
        self.side_atoms = {side.lower().replace("-", ""): side for side in table.sides}

    def in_the_file(self) -> "Namer":
        """The same namer for a contradiction: events and keys by the lines of the user's file."""
        return Namer(self.inc, self.templates, self.tricks, in_file=True)

    def moment(self, t: int) -> str:
        """When event t happened, said by its place in the play: "at the lead to trick 6", "in trick
        6", "when trick 6 was turned and quitted", "during trick 6", "after trick 6" (quitted, the
        next not yet led); '' before the play (the event's own words say what it was: a cut, the
        deal, a bid)."""
        k = self.tricks.get(t)
        if k is None or not 1 <= t <= len(self.inc.events):
            return ""
        name = self.inc.events[t - 1].name
        if name == "lead":
            return f"at the lead to trick {k}"
        if name in ("play", "renounce"):
            return f"in trick {k}"
        if name == "turn-and-quit":
            return ""           # (the sentence says it: "established: trick 6 was turned and quitted")
        last = next((e.name for e in reversed(self.inc.events[:t - 1])
                     if e.name in ("lead", "play", "renounce", "turn-and-quit")), None)
        return f"after trick {k}" if last == "turn-and-quit" else f"during trick {k}"

    # --- ids -------------------------------------------------------------------------
    # (each reads a term's type, name and arguments once: every read is a call into clingo)
    def ident(self, s: Symbol) -> str:
        kind = s.type
        if kind == SymbolType.Number:
            return str(s.number)
        if kind == SymbolType.String:
            return s.string
        if kind != SymbolType.Function:
            return str(s)
        name, args = s.name, s.arguments
        if not args and name in self.seat_atoms:
            return self.seat_atoms[name]
        if name == "c" and len(args) == 2:
            return self._card_id(args)
        if name == "at" and len(args) == 1:
            return self.ident(args[0])
        if name == "key_line" and len(args) == 1:   # the line of a top-level key
            key = self.ident(args[0]).replace("_", "-")
            line = self.inc.key_lines.get(key)
            return f"line {line}" if line else f"`{key}`"
        if name in self.side_atoms and not args:
            return self.side_atoms[name]
        word = name.replace("_", "-")
        if not args:
            return word
        return f"{word}({','.join(self.ident(a) for a in args)})"

    def seat_of(self, s: Symbol) -> str | None:
        """The seat id (`N`, `elder`) an atom of the game's table stands for (facts.py: id lower-cased)."""
        if s.type == SymbolType.Function and not s.arguments:
            return self.seat_atoms.get(s.name)
        return None

    @staticmethod
    def _card_id(args) -> str:
        r, suit = args
        rank = RANK.get(r.number, str(r.number))
        return rank + SUIT_LETTER.get(suit.name, suit.name)

    def _called(self, args, remedy: str) -> str | None:
        """The call a demand of `remedy` made, in words, when the term names the demand's moment
        (`at(T)`) and the demand there called for something of its own ("the lowest card of the
        suit led"); None otherwise."""
        for a in args:
            if a.type == SymbolType.Function and a.name == "at" and len(a.arguments) == 1 \
                    and a.arguments[0].type == SymbolType.Number and 1 <= a.arguments[0].number <= len(self.inc.events):
                ev = self.inc.events[a.arguments[0].number - 1]
                if ev.name == "demand" and ev.fields.get("remedy") == remedy:
                    return call_said(remedy, ev.fields.get("call"))
        return None

    # --- sentences ---------------------------------------------------------------------
    def seat_word(self, seat: str) -> str:
        name = self.inc.players.get(seat)
        return f"{name} ({seat})" if name else registry.table(self.inc.game).word(seat)

    def say(self, s: Symbol, settled: bool = False) -> str:
        """A term in words. `settled`: the ruling it tells was exacted or done, so the account shows
        it was taken in time: its template's clause of the time to act (`{while open: ...}`) goes."""
        kind = s.type
        if kind == SymbolType.Number:
            return str(s.number)
        if kind == SymbolType.String:
            return s.string
        if kind != SymbolType.Function:
            return str(s)
        name, args = s.name, s.arguments
        if not args and name in self.seat_atoms:
            return self.seat_word(self.seat_atoms[name])
        if name == "c" and len(args) == 2:
            r, suit = args
            return RANK.get(r.number, str(r.number)) + SUIT_MARK.get(suit.name, suit.name)
        if name == "at" and len(args) == 1:
            t = args[0].number
            if not self.in_file:
                return self.moment(t)
            line = self.inc.line_of(t)
            return f"line {line}" if line else f"event {t}"
        if name == "hand_line" and len(args) == 1:
            if not self.in_file:
                return ""
            line = self.inc.hand_lines.get(self.seat_of(args[0]) or "")
            return f"line {line}" if line else "`hands`"
        if name == "key_line" and len(args) == 1 and not self.in_file:
            return ""
        if name in self.side_atoms and not args:
            return self.side_atoms[name]
        if name in SUIT_MARK and not args:
            return name
        tmpl = self.templates.get(name)
        if tmpl is None:
            return self.ident(s)
        if "{while open: " in tmpl:
            tmpl = _WHILE_OPEN.sub("" if settled else r"\1", tmpl)
        if "s" in tmpl:
            tmpl = _COUNTED.sub(lambda m: _counted(m, args), tmpl)
        said = {i: self.say(args[i - 1]) for i in map(int, set(_SLOT.findall(tmpl))) if i <= len(args)}
        if not self.in_file:
            for i in said:      # a side in a sentence, by its players' seats ("North and South"), as the story says it
                a = args[i - 1]
                if a.type == SymbolType.Function and not a.arguments and a.name in self.side_atoms:
                    said[i] = side_said(self.inc.game, self.side_atoms[a.name])
            for i, w in said.items():       # a remedy an account names ("demanded {3}"): in words, never its id
                a = args[i - 1]
                if "-" in w and " " not in w and (a.type == SymbolType.String or
                                                  (a.type == SymbolType.Function and not a.arguments)):
                    if re.search(_NAMES_A_REMEDY % i, tmpl):      # (a demand's own call, as he made it)
                        said[i] = self._called(args, w) or remedy_words(w) or w.replace("-", " ")
                    else:                   # an event's name ("the {2}"): its words, not the file's key
                        said[i] = w.replace("-", " ")
            for i, w in said.items():
                if w == "":       # a place told by nothing (an event before the play, a line): its words go too
                    tmpl = re.sub(r" ?\((?:at |on )?\{%d\}\)| (?:at|by|on) \{%d\}" % (i, i), "", tmpl)
                elif w.startswith(_MOMENTS):      # "at {1}" -> "at the lead to trick 6", "in trick 6"
                    tmpl = re.sub(r"\b(?:at|on|by) \{%d\}" % i, "{%d}" % i, tmpl)
        out = _SLOT.sub(lambda m: said.get(int(m.group(1)), m.group(0)), tmpl)
        for w in said.values():     # "a second card to trick 4 in trick 4": the trick said once
            if not self.in_file and w.startswith(_MOMENTS):
                trick = "trick " + w.rsplit(" ", 1)[1]
                if out.count(trick) > 1:
                    out = out.replace(" " + w, "", 1)
        return out


_SLOT = re.compile(r"\{(\d+)\}")        # a template's place for its term's N-th argument
# A clause of a right's template said only while the right is open: the time to act, a condition the
# taking of it settles ("the deal may be stopped by any player{while open: , before the last card is
# dealt}"). Once the right was exacted or done the account has settled it, and the sentence leaves it.
_WHILE_OPEN = re.compile(r"\{while open: ((?:[^{}]|\{\d+\})*)\}")


_MOMENTS = ("at the lead to trick", "in trick", "during trick", "after trick")
# A slot a remedy fills: after a verb of demanding or choosing ("{2} demanded {3}", "asked for {3}")
_NAMES_A_REMEDY = r"\b(?:demand|demanded|demands|declined|declines|decline|chose|choose|chooses|exacted|enforced|claimed|" \
                  r"asked for|for|required) \{%d\}"


def remedy_words(ident: str) -> str | None:
    """A remedy named in a sentence ("North demanded the card called"), in words: rules/remedies.yaml
    gives each id its words; None for a word that names no remedy."""
    return registry.remedy_words().get(ident)
# A place for a number followed by what it counts ("{2} tricks"): one of them is said in the singular.
_COUNTED = re.compile(r"\{(\d+)\} (tricks|points|revokes|honours|cards|counters|games)\b")


def _counted(m: re.Match, args) -> str:
    """'{2} tricks' as it is to be said when the second argument is 1: '{2} trick'."""
    n = int(m.group(1))
    one = n <= len(args) and args[n - 1].type == SymbolType.Number and args[n - 1].number == 1
    return m.group(0)[:-1] if one else m.group(0)


def first_time(s: Symbol) -> int:
    """The first number found in a term: the moment of the offence it names."""
    if s.type == SymbolType.Number:
        return s.number
    if s.type == SymbolType.Function:
        for a in s.arguments:
            t = first_time(a)
            if t >= 0:
                return t
    return -1


def seats_sorted(xs, game: str = "whist") -> list[str]:
    """Seats in the order of the game's table (whist: N, E, S, W), anything else after them."""
    order = {s: i for i, s in enumerate(registry.table(game).seats)}
    return sorted(set(xs), key=lambda x: (order.get(x, len(order)), x))


def _only(attrs: dict, pred: str, r) -> Symbol | None:
    """A ruling's one value of pred (its text, status or choice), or None. Two would leave the
    sentence printed to the order clingo lists atoms in (a no-penalty ruling once printed its own
    term, `none(revoke(2,E,12))`, for its offence's sentence): a fault in the rules, said as one."""
    values = {row[0] for row in attrs[pred]}
    if len(values) > 1:
        from adjudicator.errors import InternalError
        raise InternalError(f"the rules give ruling {r} more than one {pred}",
                            ", ".join(sorted(map(str, values))))
    return next(iter(values), None)


def build(inc: Incident, sol: Solution) -> dict:
    templates = sol.templates
    tricks = {t.number: k.number for t, k in sol.get("event_trick")}
    namer = Namer(inc, templates, tricks)

    in_file = namer.in_the_file()        # a contradiction: the user mends his file, at its lines
    problems = [in_file.say(a[0]) for a in sol.get("inconsistent")]
    if problems:
        refused = InconsistentIncident(inc.file, sorted(set(problems)))
        # (the same problems told by the events, for a conditional ruling's branch that cannot be)
        refused.told = sorted({namer.say(a[0]) for a in sol.get("inconsistent")})
        raise refused

    by = defaultdict(lambda: defaultdict(list))
    for pred in ("r_law", "r_status", "r_may", "r_maynot", "r_choice", "r_favour", "r_against",
                 "r_exacted_by", "r_because", "r_text", "r_reason", "r_later", "turns_on"):
        for args in sol.get(pred):
            by[args[0]][pred].append(args[1:])

    from adjudicator.core.narrator import capital, names_of
    names = names_of(inc)
    rulings = []
    for r, kind in sol.get("ruling"):
        attrs = by[r]
        status = _only(attrs, "r_status", r)
        status = status.name if status is not None else "available"
        text = _only(attrs, "r_text", r)
        text = namer.say(text, settled=status in ("exacted", "done")) if text is not None else namer.ident(r)
        if r.name == "none":
            reasons = sorted({namer.say(w[0]) for w in attrs["r_reason"]})
            lead = "No penalty" if kind.string == "no-penalty" else "No remedy"
            text = f"{lead}: {text}" + (f"; {'; '.join(reasons)}" if reasons else "")
        elif status == "lost":          # a right lost while others of its offence stand: what ended it
            reasons = sorted({namer.say(w[0]) for w in attrs["r_reason"]})
            text = f"Lost: {text}" + (f"; {'; '.join(reasons)}" if reasons else "")
        text = capital(text, names)
        maynot: dict[str, dict] = {}
        for seat_sym, law, why in attrs["r_maynot"]:
            seat = namer.ident(seat_sym)
            entry = maynot.setdefault(seat, {"seat": seat, "laws": set(), "reason": []})
            entry["laws"].add(law.string)
            sentence = namer.say(why)
            if sentence not in entry["reason"]:
                entry["reason"].append(sentence)
        rulings.append({
            "remedy": kind.string,
            "text": text,
            "laws": sorted({l[0].string for l in attrs["r_law"]}, key=law_key),
            "against": seats_sorted((namer.ident(x[0]) for x in attrs["r_against"]), inc.game),
            "in_favour_of": seats_sorted((namer.ident(x[0]) for x in attrs["r_favour"]), inc.game),
            # (a consequence that follows of itself is no one's to exact: any player may insist on it)
            "may_exact": [] if status == "applies" else seats_sorted((namer.ident(x[0]) for x in attrs["r_may"]),
                                                                     inc.game),
            "may_not_exact": [
                {"seat": e["seat"], "laws": sorted(e["laws"], key=law_key), "reason": "; ".join(sorted(e["reason"]))}
                for e in sorted(maynot.values(), key=lambda e: seats_sorted(maynot, inc.game).index(e["seat"]))
            ],
            "choice": namer.ident(choice) if (choice := _only(attrs, "r_choice", r)) is not None else None,
            "because": sorted({namer.ident(f[0]) for f in attrs["r_because"]}),
            "status": status,
            "exacted_by": seats_sorted(namer.ident(x[0]) for x in attrs["r_exacted_by"]),
            "when": "; ".join(sorted({namer.say(w[0]) for w in attrs["r_later"]})) or None,
            # what decided the ruling (rights.lp's turns_on/2): ids, as the findings' are
            "turns_on": sorted({namer.ident(c[0]) for c in attrs["turns_on"]}),
            "_order": (first_time(r.arguments[0]) if r.name == "none" else first_time(r), kind.string, text),
        })
    rulings.sort(key=lambda d: d.pop("_order"))

    found: dict[str, dict] = {}
    order: dict[str, tuple] = {}
    told_by = {f: t for f, t in sol.get("f_text")}      # (a finding told in the account's terms)
    for f, law in sol.get("finding"):
        fid = namer.ident(f)
        entry = found.setdefault(fid, {"finding": fid, "text": namer.say(told_by.get(f, f)), "laws": set()})
        entry["laws"].add(law.string)
        order[fid] = (first_time(f), fid)
    findings = []
    for fid in sorted(found, key=lambda k: order[k]):
        e = found[fid]
        e["text"] = capital(e["text"], names)
        e["laws"] = sorted(e["laws"], key=law_key)
        findings.append(e)

    info = registry.code_info(inc.code)
    out = {"game": inc.game, "code": inc.code, "code_title": info["title"],
           "code_given": getattr(inc, "code_given", True), "file": inc.file,
           "summary": [], "rulings": rulings, "findings": findings}
    from adjudicator.core import render
    out["summary"] = render.summary(out, inc.players)       # the verdict, in the referee's words
    return out
