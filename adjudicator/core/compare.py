"""One incident ruled under several codes of the same game, side by side (`adjudicator compare`).

Each code rules on the same events (the incident vocabulary is shared by the codes of a game);
the rulings are then lined up by remedy, and each remedy is marked where the codes part: a remedy
one code gives and another does not, different persons who may exact it, different laws cited,
a different status.
"""
from __future__ import annotations

from adjudicator.core import engine, incident, registry, ruling
from adjudicator.errors import AdjudicatorError, InputError

ASPECTS = ("remedy", "may_exact", "status", "choice", "text")
# Words that say nothing of a remedy's substance, left out when two codes' sentences are compared
_FILLER = frozenset("a an and are as at be by for from he him his if in is it its may must no not of on one "
                    "or that the their them then they this to was which who with".split())


def _words(text: str, players: dict) -> frozenset:
    """A remedy's sentence as the words that carry its substance: lower case, no players' names or
    seats, no law numbers, no filler."""
    import re
    for name in players.values():
        text = text.replace(name, " ")
    return frozenset(w for w in re.findall(r"[a-z]+", text.lower()) if w not in _FILLER and len(w) > 1
                     and w not in ("n", "e", "s", "w"))


def _differ_in_substance(per: dict, players: dict) -> bool:
    """Whether the codes' sentences for a remedy say different things (not only in other words):
    fewer than half of their substantial words shared ("trump or not" against "win or lose the
    trick")."""
    sets = [_words(" ".join(i["text"] for i in items), players) for items in per.values() if items]
    for a in sets:
        for b in sets:
            if a and b and len(a & b) / len(a | b) < 0.5:
                return True
    return False


def _summary(r: dict) -> dict:
    return {"laws": r["laws"], "may_exact": r["may_exact"], "status": r["status"],
            "choice": bool(r.get("choice")), "text": r["text"],
            "may_not_exact": [{"seat": m["seat"], "laws": m["laws"]} for m in r["may_not_exact"]]}


def _shape(items: list[dict]) -> list[tuple]:
    """What is compared between codes: how many such rulings, who may exact each, status, choice."""
    return sorted((tuple(i["may_exact"]), i["status"], i["choice"]) for i in items)


def _same_book(code: str, other: str) -> bool:
    """Whether two codes read one book of laws (Boston's code is the American whist code with
    Foster's exceptions for Boston): an incident of one game may then be ruled under the other."""
    return registry.code_info(code).get("laws") == registry.code_info(other).get("laws")


def wanted(codes: str | None, path: str, stdin_text: str | bytes | None = None, name: str | None = None) -> list[str]:
    """The codes `--codes` names (a code, or a game's name for its default code), each once; with
    none given, every encoded code of the incident's game."""
    if codes is None:
        inc = incident.load(path, stdin_text, name=name)
        out = [c for c in registry.codes_of(inc.game) if registry.encoded(c)]
        if len(out) == 1:   # (a "comparison" of one code was printed, "The codes give the same remedies")
            other = _another(out[0])
            raise InputError(f"game: {inc.game} is ruled by one code, {out[0]}: a comparison needs two or more",
                             inc.file, inc.key_lines.get("game"),
                             hint=(f"give --codes with a second code{other}, or rule" if "e.g." in other else "rule")
                             + f" under {out[0]} alone with `adjudicator adjudicate FILE`")
        return out
    out = list(dict.fromkeys(registry.resolve_code(c, "adjudicator compare --codes")
                             for c in codes.split(",") if c.strip()))
    if not out:
        raise InputError(f"--codes is '{incident.shown(codes)}', which names no code" if codes else
                         "--codes is empty: it names no code", "adjudicator compare",
                         hint="give the codes separated by commas, e.g. --codes american-1893,english-1864, "
                              "or leave --codes out for every code of the incident's game")
    for c in out:
        registry.code_info(c)
    if len(out) == 1:
        raise InputError(f"--codes is '{incident.shown(codes)}', which names one code ({out[0]}): a comparison "
                         "needs two or more", "adjudicator compare",
                         hint=f"add another code{_another(out[0])}, or rule under one code with "
                              "`adjudicator adjudicate FILE`")
    return out


def differences(per: dict[str, list[dict]], players: dict) -> list[str]:
    """Where the codes part on one remedy, each code's rulings of it given as _summary gives them:
    one code gives it and another not (`remedy`), else different persons who may exact it, a
    different status or choice, or sentences that say different things (`text`)."""
    differs = []
    present = {c: bool(v) for c, v in per.items()}
    if len(set(present.values())) > 1:
        return ["remedy"]
    shapes = {c: _shape(v) for c, v in per.items()}
    if len({tuple(s[0] for s in v) for v in shapes.values()}) > 1:
        differs.append("may_exact")
    if len({tuple(s[1] for s in v) for v in shapes.values()}) > 1:
        differs.append("status")
    if len({tuple(s[2] for s in v) for v in shapes.values()}) > 1:
        differs.append("choice")
    if _differ_in_substance(per, players):
        differs.append("text")
    return differs


def _another(code: str) -> str:
    """An example of a second code to compare with `code`: another encoded code of its game, else
    one of a game ruled by the same book of laws (Boston's beside the American whist code); none
    for a code alone in its book (piquet's, poker's ...)."""
    game = registry.code_info(code)["game"]
    own = [c for c in registry.codes_of(game) if c != code and registry.encoded(c)]
    book = [c for g in registry.games() for c in registry.codes_of(g)
            if c != code and registry.encoded(c) and _same_book(c, code)]
    if own or book:
        return f", e.g. --codes {code},{(own or book)[0]}"
    return f" (no other code rules {game}: there is nothing to compare it with)"


def compare(path: str, codes: list[str], stdin_text: str | bytes | None = None, name: str | None = None) -> dict:
    first = incident.load(path, stdin_text, name=name)
    if getattr(first, "unknown", None) is not None:
        raise InputError("compare rules on an account whose facts are all known, and this one leaves some "
                         "unknown (`unknown`)", first.file, first.key_lines.get("unknown"),
                         hint="`adjudicator adjudicate FILE` gives the ruling for each possibility, and "
                              "`adjudicator ask FILE` asks what the ruling turns on; to compare the codes, "
                              "establish the facts and remove `unknown`")
    for code in codes:
        info = registry.code_info(code)
        if info["game"] != first.game and not _same_book(code, first.code):
            raise InputError(f"'{code}' is a code of {info['game']}, not of {first.game}",
                             first.file, hint="codes of " + first.game + ": "
                             + ", ".join(registry.codes_of(first.game))
                             + " (or of a game ruled by the same book of laws)")
    results: dict[str, dict] = {}
    errors: dict[str, dict] = {}
    refused: dict[str, AdjudicatorError] = {}
    left_out: dict[str, list] = {}
    for code in codes:
        game = registry.code_info(code)["game"]
        # the same account, read as one of the code's own game (the bid left out where it has none)
        # (read under the code: what the account may say, a score below the game, is the code's)
        try:
            inc = incident.load(path, stdin_text, as_game=game if game != first.game else None, as_code=code,
                                name=name)
            if getattr(inc, "left_out", None):
                left_out[code] = inc.left_out
            inc.code = code
            results[code] = ruling.build(inc, engine.solve(inc))
        except AdjudicatorError as e:
            if e.exit_code != 2:
                raise
            refused[code] = e
            problems = getattr(e, "problems", None)
            errors[code] = {"message": ("this incident cannot have happened as described" if problems
                                        else str(e)), "problems": problems}
    if not results:         # no code rules on it: the account is refused as `adjudicate` refuses it
        raise refused[codes[0]]
    remedies: list[str] = []
    for code in codes:
        for r in results.get(code, {}).get("rulings", []):
            if r["remedy"] not in remedies:
                remedies.append(r["remedy"])
    rows = []
    for remedy in remedies:
        per = {code: [_summary(r) for r in results[code]["rulings"] if r["remedy"] == remedy]
               for code in codes if code in results}
        differs = differences(per, first.players)
        rows.append({"remedy": remedy, "differs": differs,
                     "laws": {c: sorted({l for i in v for l in i["laws"]}, key=ruling.law_key)
                              for c, v in per.items()},
                     "codes": per})
    return {"file": first.file, "game": first.game, "codes": codes, "players": first.players,
            "comparison": rows, "differences": sum(1 for r in rows if r["differs"]),
            "errors": errors, "rulings": results, "left_out": left_out}


def render(result: dict) -> str:
    from adjudicator.core.render import _who, _wrap
    players = result.pop("players", {}) or {}
    codes = result["codes"]
    width = max(len(c) for c in codes)
    lines = _wrap(f"{result['file']}: ruled under {', '.join(codes)}", "", "  ")
    lines.append("")
    for code, keys in (result.get("left_out") or {}).items():
        lines += _wrap(f"{code}: the account read without {', '.join('`' + k + '`' for k in keys)}, "
                       f"which its game does not have", "", "  ")
        lines.append("")
    for code, err in result["errors"].items():
        first, *rest = err["message"].split("\n")
        lines += _wrap(f"{code}: no ruling -- {first}", "", "  ")
        for line in rest:           # (its hint)
            lines += _wrap(line.strip(), "  ", "    ")
        for p in err.get("problems") or []:
            lines += _wrap(p, "  - ", "    ")
        lines.append("")
    for row in result["comparison"]:
        mark = "DIFFERS" if row["differs"] else "same"
        what = f" ({', '.join(d.replace('_', ' ') for d in row['differs'])})" if row["differs"] else ""
        if result["errors"]:        # (one code's remedies, or several's, but not every code's)
            mark, what = "given by " + ", ".join(c for c in codes if row["codes"].get(c)), ""
        from adjudicator.core import registry
        words = registry.remedy_words().get(row["remedy"], row["remedy"].replace("-", " "))
        what = what.replace("(text", "(what it says")
        lines += _wrap(f"{words[:1].upper() + words[1:]}: {mark}{what}", "", "  ")
        for code in codes:
            items = row["codes"].get(code)
            if items is None:
                continue
            label = f"  {code:<{width}}  "
            pad = " " * len(label)
            if not items:
                lines += _wrap("not given", label, pad)
                continue
            for i in items:
                who = "" if row["remedy"] in ("no-penalty", "no-remedy") or not i["may_exact"] else \
                    f"; may exact: {_who(i['may_exact'], players)}"
                choice = "; one of a choice" if i["choice"] else ""
                said = f" -- {i['text']}" if "text" in row["differs"] else ""
                lines += _wrap(f"[{', '.join(i['laws'])}] {i['status']}{who}{choice}{said}", label, pad + "  ")
                label = pad
        lines.append("")
    n = result["differences"]
    if result["errors"]:
        ruled = [c for c in codes if c not in result["errors"]]
        lines += _wrap(f"{', '.join(result['errors'])} gave no ruling (above): the remedies are "
                       f"{', '.join(ruled)}'s alone, compared with nothing.", "", "")
    else:
        lines.append(f"{n} of {len(result['comparison'])} remedies differ between the codes."
                     if n else "The codes give the same remedies to the same persons (laws cited may differ).")
    return "\n".join(lines).rstrip() + "\n"
