"""Case files: an incident plus `name` (the ruling it proves) and `expected` (the rulings).

    expected:
      rulings:                    # every ruling the engine gives, no more, no fewer
        - remedy: call-suit       # required
          laws: ["24"]            # required: the citations, in any order
          may_exact: [S]          # required
          may_not_exact: [N, E, W]          # seats; or [{seat: N, laws: ["24"]}, ...]
          status: available       # optional: available, later, exacted, done, applies, none, lost
          against: [E, W]         # optional
          in_favour_of: [N, S]    # optional
          exacted_by: [S]         # optional
          choice: a               # optional: rulings with the same label share one choice;
                                  #   `choice: null` says it is no choice
      findings: [lead-out-of-turn]   # optional: finding ids, or their names, that must be present
      not_findings: [dealt-wrong]    # optional: finding ids, or their names, that must be absent
      error: inconsistent         # instead of rulings: the incident must be refused
      message: "a card too many"  #   ... with this text in the message

A failure reports what was expected and not given, and what was given and not expected.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from adjudicator.core import engine, incident, registry, ruling, unknowns
from adjudicator.core.incident import Incident
from adjudicator.core.reading import path_shown
from adjudicator.core.values import Y, shown
from adjudicator.errors import AdjudicatorError, InconsistentIncident, InputError

SEAT_KEYS = ("may_exact", "against", "in_favour_of", "exacted_by")
OPTIONAL = ("status", "against", "in_favour_of", "exacted_by")


@dataclass
class Outcome:
    path: str
    name: str
    ok: bool
    diff: str = ""


def plain(y):
    """Y values back to plain Python (the expectation is data, not an incident)."""
    if isinstance(y, Y):
        y = y.value
    if isinstance(y, dict):
        return {k: plain(v) for k, v in y.items()}
    if isinstance(y, list):
        return [plain(v) for v in y]
    return y


def _seats(v) -> list[str]:
    """Seats as N/E/S/W; candidates' names as written."""
    if v is None:
        return []
    if isinstance(v, str):
        v = [v]
    out = []
    for s in v:
        s = str(s).strip()
        out.append(s.upper() if s.upper() in ("N", "E", "S", "W") else s)
    return sorted(out)


def _norm_expected(r: dict, file: str) -> dict:
    for req in ("remedy", "laws", "may_exact"):
        if req not in r:
            raise InputError(f"an expected ruling needs `{req}`", file, hint="see adjudicator/core/cases.py")
    out = {"remedy": r["remedy"], "laws": sorted(str(x) for x in r["laws"]), "may_exact": _seats(r["may_exact"])}
    if "may_not_exact" in r:
        mn = r["may_not_exact"] or []
        if mn and isinstance(mn[0], dict):
            out["may_not_exact"] = sorted((_seats(m["seat"])[0], tuple(sorted(str(x) for x in m.get("laws", []))))
                                          for m in mn)
            out["_mn_laws"] = True
        else:
            out["may_not_exact"] = _seats(mn)
    for k in OPTIONAL:
        if k in r:
            out[k] = _seats(r[k]) if k != "status" else r[k]
    if "choice" in r:
        out["choice"] = r["choice"]
    return out


def _matches(exp: dict, act: dict) -> bool:
    if exp["remedy"] != act["remedy"] or exp["laws"] != sorted(act["laws"]):
        return False
    if exp["may_exact"] != sorted(act["may_exact"]):
        return False
    if "may_not_exact" in exp:
        if exp.get("_mn_laws"):
            got = sorted((m["seat"], tuple(sorted(m["laws"]))) for m in act["may_not_exact"])
        else:
            got = sorted(m["seat"] for m in act["may_not_exact"])
        if exp["may_not_exact"] != got:
            return False
    for k in OPTIONAL:
        if k in exp:
            got = act[k] if k == "status" else sorted(act[k])
            if exp[k] != got:
                return False
    if "choice" in exp and exp["choice"] is None and act["choice"] is not None:
        return False
    if "choice" in exp and exp["choice"] is not None and act["choice"] is None:
        return False
    return True


def _assign(expected: list[dict], actual: list[dict]):
    """Match each expected ruling to a distinct actual one, choices consistent; None if impossible."""
    n = len(expected)

    def ok_choices(pairs):
        fwd, back = {}, {}
        for e, a in pairs:
            if "choice" not in e or e["choice"] is None:
                continue
            c = actual[a]["choice"]
            if fwd.setdefault(e["choice"], c) != c or back.setdefault(c, e["choice"]) != e["choice"]:
                return False
        return True

    def go(i, used, pairs):
        if i == n:
            return pairs if ok_choices([(expected[e], a) for e, a in pairs]) else None
        for a in range(len(actual)):
            if a not in used and _matches(expected[i], actual[a]):
                res = go(i + 1, used | {a}, pairs + [(i, a)])
                if res is not None:
                    return res
        return None

    return go(0, frozenset(), [])


def describe(r: dict) -> str:
    parts = [f"{r['remedy']} [{', '.join(r['laws'])}]", f"may_exact={','.join(r['may_exact']) or '-'}"]
    mn = r.get("may_not_exact")
    if mn is not None:
        if mn and isinstance(mn[0], dict):
            parts.append("may_not=" + ",".join(f"{m['seat']}({'/'.join(m['laws'])})" for m in mn))
        elif mn and isinstance(mn[0], tuple):
            parts.append("may_not=" + ",".join(f"{s}({'/'.join(l)})" for s, l in mn))
        else:
            parts.append("may_not=" + (",".join(mn) or "-"))
    for k in ("status", "choice", "exacted_by"):
        if r.get(k) not in (None, []):
            parts.append(f"{k}={r[k] if not isinstance(r[k], list) else ','.join(r[k])}")
    return "  ".join(parts)


# --- the shape of `expected` (the module's docstring), checked before anything is compared ----------
MAX_WORD = 200      # (a message expected of a refusal is the longest: a phrase of it)
STATUSES = ("available", "later", "exacted", "done", "applies", "none", "lost")     # (rights.lp's status/2, r_status/2)
_RULING_KEYS = ("remedy", "laws", "may_exact", "may_not_exact", "status", "against", "in_favour_of",
                "exacted_by", "choice")


def _bad(y: Y, file: str, what: str, want: str) -> InputError:
    return InputError(f"{what}: '{shown(y)}' is not {want}", file, y.line, y.col,
                      hint="see the shape of `expected` in adjudicator/core/cases.py")


def _check_keys(y: Y, file: str, what: str, allowed: tuple[str, ...]) -> None:
    if not isinstance(y.value, dict):
        raise _bad(y, file, what, "a mapping")
    for k in y.value:
        if k not in allowed:
            raise _bad(y.keys[k], file, f"{what} key", "one of " + ", ".join(allowed))


def _check_words(y: Y, file: str, what: str, one_allowed: bool = False) -> None:
    """A list of words (seats, law ids, finding ids); with one_allowed, a single word too."""
    if one_allowed and isinstance(y.value, (str, int)):
        return
    if not isinstance(y.value, list):
        raise _bad(y, file, what, "a list, e.g. [N, S]" if one_allowed else "a list, e.g. [\"24\"]")
    for v in y.value:
        if not isinstance(v.value, (str, int)):
            raise _bad(v, file, f"{what} entry", "a word or a number")
        _check_word(v, file, f"{what} entry")


def _check_word(y: Y, file: str, what: str) -> None:
    """A word of `expected` is printed back when it is not met: one line of printable text, short."""
    text = str(y.value)
    if len(text) > MAX_WORD or not text.isprintable():
        raise _bad(y, file, what, f"a word (printable, one line, at most {MAX_WORD} characters)")


def check_expected(inc: incident.Incident) -> None:
    """`expected` as the module's docstring shows it; else the line and key that is not."""
    exp, file = inc.expected, inc.file
    _check_keys(exp, file, "expected", ("rulings", "findings", "not_findings", "error", "message"))
    err = exp.value.get("error")
    if err is not None and err.value != "inconsistent":     # checked whether or not the incident is refused
        raise InputError(f"expected.error: '{shown(err)}' is not a refusal the engine gives",
                         file, err.line, err.col, hint="the one refusal is `error: inconsistent` (an incident "
                         "that is not well formed is for tests/bad_input/, not a case)")
    if "rulings" in exp.value and exp.value["rulings"].value is not None:
        rulings = exp.value["rulings"]
        if not isinstance(rulings.value, list):
            raise _bad(rulings, file, "expected.rulings", "a list of rulings")
        for n, r in enumerate(rulings.value, 1):
            what = f"expected.rulings, ruling {n}"
            _check_keys(r, file, what, _RULING_KEYS)
            for req in ("remedy", "laws", "may_exact"):
                if req not in r.value:
                    raise InputError(f"{what} needs `{req}`", file, r.line, r.col,
                                     hint="see the shape of `expected` in adjudicator/core/cases.py")
            if not isinstance(r.value["remedy"].value, str):
                raise _bad(r.value["remedy"], file, f"{what}: remedy", "a remedy id")
            if r.value["remedy"].value not in registry.remedies():
                raise InputError(f"{what}: remedy '{shown(r.value['remedy'])}' is not a remedy the engine names",
                                 file, r.value["remedy"].line, r.value["remedy"].col,
                                 hint="the remedies are listed by `adjudicator remedies` (rules/remedies.yaml)")
            _check_words(r.value["laws"], file, f"{what}: laws")
            for k in SEAT_KEYS:
                if k in r.value:
                    _check_words(r.value[k], file, f"{what}: {k}", one_allowed=True)
            if "may_not_exact" in r.value and r.value["may_not_exact"].value is not None:
                mn = r.value["may_not_exact"]
                if not isinstance(mn.value, list):
                    raise _bad(mn, file, f"{what}: may_not_exact", "a list of seats, or of {seat, laws}")
                for m in mn.value:
                    if isinstance(m.value, dict):
                        _check_keys(m, file, f"{what}: may_not_exact entry", ("seat", "laws"))
                        if "seat" not in m.value or not isinstance(m.value["seat"].value, (str, int)):
                            raise InputError(f"{what}: a may_not_exact entry needs `seat`", file, m.line, m.col,
                                             hint="e.g. {seat: N, laws: [\"24\"]}")
                        if "laws" in m.value:
                            _check_words(m.value["laws"], file, f"{what}: may_not_exact laws")
                    elif not isinstance(m.value, (str, int)):
                        raise _bad(m, file, f"{what}: may_not_exact entry", "a seat, or {seat, laws}")
                # (the laws are compared for every entry or for none: a list of both kinds was an
                # internal error, TypeError)
                kinds = [isinstance(m.value, dict) for m in mn.value]
                if len(set(kinds)) > 1:
                    m = next(m for m, k in zip(mn.value, kinds) if k != kinds[0])    # (the first of the other kind)
                    raise InputError(f"{what}: may_not_exact mixes seats and {{seat, laws}} entries", file,
                                     m.line, m.col, hint="write every entry as a seat (N), or every one as "
                                                         "{seat: N, laws: [...]}: the laws are compared for all or none")
            if "status" in r.value and r.value["status"].value not in STATUSES:
                raise _bad(r.value["status"], file, f"{what}: status", "one of " + ", ".join(STATUSES))
            if "choice" in r.value and not isinstance(r.value["choice"].value, (str, int, type(None))):
                raise _bad(r.value["choice"], file, f"{what}: choice", "a label (or null)")
            if "choice" in r.value and r.value["choice"].value is not None:
                _check_word(r.value["choice"], file, f"{what}: choice")
    for k in ("findings", "not_findings"):
        if k in exp.value and exp.value[k].value is not None:
            _check_words(exp.value[k], file, f"expected.{k}")
    if exp.value.get("message") is not None:
        _check_word(exp.value["message"], file, "expected.message")


def compare(inc: incident.Incident, result: dict | None, error: AdjudicatorError | None) -> str:
    """'' when the result meets the expectation, else a readable difference."""
    if isinstance(inc.expected, Y):
        check_expected(inc)
    exp = plain(inc.expected)
    if not isinstance(exp, dict):
        raise InputError("`expected` must be a mapping with `rulings` (or `error`)", inc.file,
                         *(inc.expected_pos or (None, None)))
    if "error" in exp:
        if error is None:
            return f"expected the incident to be refused ({exp['error']}), but it was ruled on:\n" + \
                "\n".join("    + " + describe(r) for r in result["rulings"])
        if exp["error"] != "inconsistent":
            raise InputError(f"`error: {exp['error']}` is not a refusal the engine gives", inc.file,
                             *(inc.expected_pos or (None, None)), hint="the one refusal is `error: inconsistent`")
        if exp.get("message") and str(exp["message"]) not in str(error):
            return f"the message lacks '{exp['message']}':\n    {error}"
        return ""
    if error is not None:
        return f"expected rulings, but the incident was refused:\n    {error}"
    want = [_norm_expected(r, inc.file) for r in exp.get("rulings") or []]
    got = result["rulings"]
    diff = []
    pairs = _assign(want, got)
    if pairs is None or len(want) != len(got):
        matched_e, matched_a = set(), set()
        for i, e in enumerate(want):
            for a, g in enumerate(got):
                if a not in matched_a and _matches(e, g):
                    matched_e.add(i)
                    matched_a.add(a)
                    break
        for i, e in enumerate(want):
            if i not in matched_e:
                diff.append("    - expected, not given:  " + describe(e))
        for a, g in enumerate(got):
            if a not in matched_a:
                diff.append("    + given, not expected:  " + describe(g) + f"\n        ({g['text']})")
        if not diff:
            diff.append("    the choices do not group the rulings as expected:")
            diff += ["      " + describe(g) for g in got]
    for f in exp.get("findings") or []:
        f = str(f)
        if not any(x["finding"] == f or x["finding"].split("(")[0] == f for x in result["findings"]):
            diff.append(f"    - finding expected, not given: {f}")
    for f in exp.get("not_findings") or []:
        f = str(f)
        given = [x["finding"] for x in result["findings"] if x["finding"] == f or x["finding"].split("(")[0] == f]
        if given:
            diff.append(f"    + finding given, expected absent: {given[0]}")
    return "\n".join(diff)


def run(path: str, loaded=None, solution=None) -> Outcome:
    """The outcome of the case at `path`; `loaded` is its incident and `solution` its solution (or
    the error solving it gave), when already worked out."""
    inc = loaded or incident.load(path)
    _is_case(inc)
    if getattr(inc, "unknown", None) is not None:       # facts not known: a conditional ruling
        diff = check_conditional(inc)
        return Outcome(path, inc.name or os.path.basename(path), not diff, diff)
    result, error = None, None
    try:
        if isinstance(solution, Exception):
            raise solution
        result = ruling.build(inc, solution or engine.solve(inc))
    except InconsistentIncident as e:
        error = e
    return judge(inc, result, error)


def run_all(paths: list[str]) -> list:
    """run() of each path, in order (its Outcome, or the AdjudicatorError it raised): the cases ruled
    plainly solved together, a code's at a time (adjudicator/core/batch.py)."""
    from adjudicator.core import batch
    from adjudicator.errors import AdjudicatorError
    loaded: list = []
    for path in paths:
        try:
            inc = incident.load(path)
            _is_case(inc)
        except AdjudicatorError as e:
            inc = e
        loaded.append(inc)
    solved = batch.solve_loaded(loaded)
    out: list = []
    for path, inc in zip(paths, loaded):
        try:
            if isinstance(inc, Exception):
                raise inc
            out.append(run(path, inc, solved.get(id(inc))))
        except AdjudicatorError as e:
            out.append(e)
    return out


def _is_case(inc: incident.Incident):
    if inc.expected is None:
        raise InputError("this is not a case file: it has no `expected`", inc.file,
                         hint="a case file is an incident plus `name` and `expected`")


def judge(inc: incident.Incident, result: dict | None, error: InconsistentIncident | None) -> Outcome:
    """The outcome of a case whose ruling (or refusal) is already known."""
    _is_case(inc)
    diff = compare(inc, result, error)
    return Outcome(inc.file, inc.name or os.path.basename(inc.file), not diff, diff)


def find(paths) -> list[str]:
    """The case files the paths name: a file itself, or every .yaml file under a folder (links to
    folders not followed, so a link back up the tree cannot make the walk endless)."""
    from adjudicator.errors import UsageError
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for folder, subfolders, files in os.walk(p):
                subfolders.sort()
                found += [os.path.join(folder, f) for f in files if f.endswith(".yaml")]
            out += sorted(found)
        elif os.path.lexists(p):
            out.append(p)
        else:
            raise UsageError(f"no file or folder '{path_shown(p, incident.PATH_SHOWN)}'" if p else
                             "an empty argument names no file or folder", hint="give case files or folders that exist")
    return out


# --------------------------------------------------------------------------------------------
# Cases with unknown facts: the expectation of each possibility (docs/unknowns.md)
# --------------------------------------------------------------------------------------------
def _same_value(written, alt: unknowns.Alternative) -> bool:
    v = alt.value
    if isinstance(written, str) and isinstance(v, str):
        return written.strip().lower() == v.strip().lower()
    if isinstance(written, list) and isinstance(v, list):
        return [str(x).upper() for x in written] == [str(x).upper() for x in v]
    return written == v


def _check_unknown_expected(inc: Incident, ids: dict[str, int], space) -> list:
    """The shape of a case's expectation with unknown facts, read from its YAML values (each
    problem at its own line, the value quoted short and escaped): `depends-on` a list of unknown
    ids, `whatever` and each branch of `if` the shape of any case's expectation (cases.py), each
    branch's `when` a mapping of an unknown's id to one of its possibilities. Returns the branches
    of `if` as (when, body): the expectation of each, still as YAML values."""
    exp, file = inc.expected, inc.file
    hint = "see the expectation of a case with unknown facts in adjudicator/core/cases.py (check_conditional)"

    def bad(y: Y, msg: str, h: str = hint) -> InputError:
        return InputError(msg, file, y.line, y.col, hint=h)

    if not isinstance(exp.value, dict) or ("if" not in exp.value and "whatever" not in exp.value):
        raise bad(exp, "a case with unknown facts expects `depends-on` and `if` (and may give `whatever`)",
                  "see docs/unknowns.md")
    for k, ky in exp.keys.items():
        if k not in ("depends-on", "whatever", "if"):
            raise bad(ky, f"expected: '{shown(k)}' is not a key of the expectation of a case with unknown facts "
                      "(depends-on, whatever, if)")
    dep = exp.value.get("depends-on")
    if dep is not None and dep.value is not None:
        if not isinstance(dep.value, list):
            raise bad(dep, f"expected.depends-on: '{shown(dep)}' is not a list of unknowns, e.g. [u1]")
        for d in dep.value:
            if not isinstance(d.value, str) or d.value not in ids:
                raise bad(d, f"expected.depends-on: '{shown(d)}' is not an unknown (they are {', '.join(ids)})",
                          "name the unknowns by their ids: u1 for the first entry of `unknown`, u2 ...")
    if "whatever" in exp.value:
        check_expected(_Expecting(exp.value["whatever"], file))
    branches = []
    ifs = exp.value.get("if")
    if ifs is not None and ifs.value is not None:
        if not isinstance(ifs.value, list):
            raise bad(ifs, f"expected.if: '{shown(ifs)}' is not a list of branches, each `- when: {{u1: ...}}` "
                      "with its rulings")
        for k, branch in enumerate(ifs.value, start=1):
            what = f"expected.if, entry {k}"
            when = branch.value.get("when") if isinstance(branch.value, dict) else None
            if when is None or not isinstance(when.value, dict) or not when.value:
                raise bad(when or branch, f"{what}: needs `when`, a mapping of each unknown to its value, "
                          "e.g. when: {u1: spades}")
            for uid, written in when.value.items():
                ky = when.keys[uid]
                if uid not in ids:
                    raise bad(ky, f"{what}: '{shown(uid)}' is not an unknown (they are {', '.join(ids)})")
                alts = space.unknowns[ids[uid]].alternatives
                if not any(_same_value(plain(written), a) for a in alts):
                    raise bad(written, f"{what}: '{shown(written)}' is not a possibility of {uid}",
                              "possibilities: " + ", ".join(shown(a.value) for a in alts))
            body = Y({k2: v for k2, v in branch.value.items() if k2 != "when"}, branch.line, branch.col)
            body.keys = {k2: v for k2, v in branch.keys.items() if k2 != "when"}
            check_expected(_Expecting(body, file))
            branches.append((when, body))
    return branches


class _Expecting:
    """What check_expected and compare read of a case: its expectation and its file."""

    def __init__(self, expected: Y, file: str):
        self.expected, self.file = expected, file
        self.expected_pos = (expected.line, expected.col)


def check_conditional(inc: Incident) -> str:
    """'' when the conditional ruling meets a case's expectation, else a readable difference.

    The expectation of a case with unknown facts:
        expected:
          depends-on: [u1]              # the unknowns the ruling turns on (u1 = the first entry)
          whatever: {rulings: [...]}    # what holds whatever the facts were (optional)
          if:
            - when: {u1: spades}        # each relevant unknown's value, as the entry would write it
              rulings: [...]            # the whole ruling on that branch, as in any case file
              findings: [...]
    """
    if not isinstance(inc.expected, Y):
        raise InputError("a case with unknown facts expects `depends-on` and `if` (and may give `whatever`)",
                         inc.file, hint="see docs/unknowns.md")
    space = unknowns.Space(inc)
    ids = {u.id: i for i, u in enumerate(space.unknowns)}
    branches = _check_unknown_expected(inc, ids, space)
    result = unknowns.conditional(inc, space)
    diff: list[str] = []
    dep = inc.expected.value.get("depends-on")
    want_dep = sorted(d.value for d in (dep.value or [])) if dep is not None else []
    got_dep = sorted(u["id"] for u in result["unknowns"] if u["relevant"])
    if want_dep != got_dep:
        diff.append(f"    the ruling turns on {', '.join(got_dep) or 'no unknown fact'}, "
                    f"expected {', '.join(want_dep) or 'none'}")
    if "whatever" in inc.expected.value:
        d = compare(_Expecting(inc.expected.value["whatever"], inc.file),
                          {"rulings": result["rulings"], "findings": result["findings"]}, None)
        if d:
            diff.append("    whatever the facts:\n" + d)
    tree = unknowns.decide(space)
    leaves = list(unknowns._leaves(tree))
    for when, body in branches:
        cond = set()
        for uid, written in when.value.items():
            ui = ids[uid]
            alts = [ai for ai, a in enumerate(space.unknowns[ui].alternatives)
                    if _same_value(plain(written), a)]
            cond.add((ui, alts[0]))
        said = "{" + ", ".join(f"{uid}: {shown(v)}" for uid, v in when.value.items()) + "}"
        # the leaf on this branch: every condition on its path is given, and it holds under the branch
        match = [n for path, n in leaves if set(path) <= cond]
        if len(match) != 1:
            diff.append(f"    when {said}: the ruling does not turn on exactly these facts "
                        f"({len(match)} branches match)")
            continue
        node = match[0]
        ns = _Expecting(body, inc.file)
        if node.result is None:
            d = compare(ns, None, InconsistentIncident(inc.file, node.impossible or []))
        else:
            d = compare(ns, node.result, None)
        if d:
            diff.append(f"    when {said}:\n" + d)
    return "\n".join(diff)
