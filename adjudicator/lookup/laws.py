"""The law texts of each code: number, clauses, verbatim text, our summary, source."""
from __future__ import annotations

import functools
import os
import re

import yaml

from adjudicator.core import registry, render, rulefiles
from adjudicator.errors import InputError, safe

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def book(code: str) -> dict:
    info = registry.code_info(code)
    with open(os.path.join(registry.rules_dir(), info["laws"]), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader)


def _codes_with(ident: str, but: str) -> list[str]:
    """The other codes that have a law with this id (`24.boston` is the American code's, not the
    English)."""
    def ids(code):
        for law in book(code)["laws"]:
            yield law["id"]
            yield from (ex["id"] for ex in law.get("exceptions") or [])
    return [c["code"] for c in registry.all_codes() if c.get("laws") and c["code"] != but and ident in ids(c["code"])]


def lookup(code: str, ident: str) -> tuple[dict, str | None]:
    """The law with this id, and the clause asked for (e.g. '17.II' -> law 17, clause 'II')."""
    laws = {law["id"]: law for law in book(code)["laws"]}
    ident = ident.strip()
    if ident in laws:
        return laws[ident], None
    head, _, clause = ident.rpartition(".")
    if head in laws and clause:
        law = laws[head]
        if any(c["id"] == clause for c in law.get("clauses", [])):
            return law, clause
        elsewhere = _codes_with(ident, code)
        clauses = ", ".join(c["id"] for c in law.get("clauses", []))
        hint = f"its clauses: {clauses}" if clauses else f"law {head} of {code} has no clauses"
        if elsewhere:
            hint = (f"{ident} is a law of {', '.join(elsewhere)}: `adjudicator law {elsewhere[0]} {ident}`; "
                    + (f"law {head} of {code} has the clauses {clauses}" if clauses else hint))
        raise InputError(f"law {head} of {code} has no clause '{safe(clause, 40)}'", file="adjudicator law",
                         hint=hint)
    ids = list(laws)
    named = {f"{law['id']}.{c['id']}".lower(): f"{law['id']}.{c['id']}"
             for law in laws.values() for c in law.get("clauses") or []}
    named |= {str(ex["id"]).lower(): str(ex["id"]) for law in laws.values() for ex in law.get("exceptions") or []}
    dotted = named.get(re.sub(r" +", ".", ident).lower())
    if dotted:      # `17 II`, `24 boston`: a clause or an exception is named after a dot, not a space
        raise InputError(f"{code} has no law '{safe(ident, 40)}'", file="adjudicator law",
                         hint=f"a clause or an exception is written after its law's number with a dot: "
                              f"`adjudicator law {code} {dotted}`")
    span = "its laws are " + outline(ids)
    if not ident.strip():       # (`law CODE ''`, GET /api/law/CODE: no law named at all)
        raise InputError(f"no law of {code} is named: give its number", file="adjudicator law", hint=span)
    sections = _sections(ids)
    key = re.sub(r" +", "-", ident.lower())
    if key in sections:         # `law whist etiquette`: a section, not one law of it
        members = sections[key]
        raise InputError(f"{safe(ident, 40)} is a section of {code}, not one law: its laws are {outline(members, 30, False)}",
                         file="adjudicator law",
                         hint=f"name one: `adjudicator law {code} {members[0]}`")
    head, _, tail = key.rpartition(".")
    if head in sections:        # `etiquette.10`: a law the section has not
        raise InputError(f"{code} has no law '{safe(ident, 40)}'", file="adjudicator law",
                         hint=f"the section {head} has {outline(sections[head])}")
    if re.fullmatch(r"\d+|[ivxlc]+", key):       # a number out of range: no near miss by spelling
        raise InputError(f"{code} has no law '{safe(ident, 40)}'", file="adjudicator law", hint=span)
    import difflib
    close = difflib.get_close_matches(key, [i.lower() for i in ids] + list(sections), n=1)
    if close and close[0] in sections:
        hint = f"did you mean the section '{close[0]}' ({outline(sections[close[0]])})?"
    elif close:
        hint = f"did you mean '{next(i for i in ids if i.lower() == close[0])}'?"
    else:
        hint = span
    raise InputError(f"{code} has no law '{safe(ident, 40)}'", file="adjudicator law", hint=hint)


def _sections(ids: list[str]) -> dict[str, list[str]]:
    """The sections of a code's ids that are not laws themselves, each with its laws in order:
    `etiquette` (etiquette.1 ... etiquette.9), `variations` (variations.agreement ...)."""
    out: dict[str, list[str]] = {}
    for i in ids:
        head = i.split(".")[0]
        if head != i and head not in ids:
            out.setdefault(head.lower(), []).append(i)
    return out


def outline(ids: list[str], most: int = 14, sections: bool = True) -> str:
    """A code's (or a section's) law ids in brief, in the book's order: runs of numbers as a span
    (`1 to 39`, `etiquette.1 to etiquette.9`), three or more named laws of one section as the
    section (`say.* (9 laws)`: with `sections`), other ids as they are (`erroneous-scores`)."""
    runs: list[list] = []           # [head, last number or None, ids]
    for i in ids:
        head, _, n = i.rpartition(".")
        num = int(n) if n.isdigit() else None
        prev = runs[-1] if runs else None
        if prev and prev[0] == head and (
                (num is not None and prev[1] is not None and num == prev[1] + 1)
                or (num is None and prev[1] is None and sections and head)):
            prev[1] = num
            prev[2].append(i)
        else:
            runs.append([head, num, [i]])
    parts: list[str] = []
    for head, num, members in runs:
        if len(members) >= 3:
            parts.append(f"{members[0]} to {members[-1]}" if num is not None else f"{head}.* ({len(members)} laws)")
        else:
            parts += members
    if len(parts) > most:
        parts = parts[:most - 1] + [f"{len(parts) - most + 1} more"]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def citations(code: str) -> set[str]:
    """Every citation a ruling of this code may carry: law ids and law.clause ids, and those of the
    code it makes exceptions to (`base_code`: Dummy's laws are exceptions to the whist code's)."""
    b = book(code)
    out = citations(b["base_code"]) if b.get("base_code") else set()
    game = registry.code_info(code)["game"]
    for law in b["laws"]:
        out.add(law["id"])
        for c in law.get("clauses", []):
            out.add(f"{law['id']}.{c['id']}")
        # a game played under another game's code (Boston under the American laws) cites the
        # exceptions inserted for it ("24.boston")
        out |= {ex["id"] for ex in law.get("exceptions") or [] if game in (ex.get("games") or [])}
    return out


# --- The lookup: every code's laws, their cross-references, where they are encoded and exercised.

def codes() -> list[str]:
    """Every code that carries law texts (encoded or not), in the order of rules/codes.yaml; a code
    whose book is an earlier code's (Boston, Cayenne and Solo Whist read the American book, where
    their exceptions are) is that book's, and is not listed again."""
    out, seen = [], set()
    for c in registry.all_codes():
        if c.get("laws") and c["laws"] not in seen:
            seen.add(c["laws"])
            out.append(c["code"])
    return out


def law_ids(code: str) -> list[str]:
    return [law["id"] for law in book(code)["laws"]]


def find(code: str, ident: str) -> tuple[dict, str | None, str | None]:
    """The law with this id; the clause asked for ('17.II'); the exception asked for ('24.boston')."""
    head, _, tail = ident.strip().rpartition(".")
    laws = {law["id"]: law for law in book(code)["laws"]}
    if head in laws and ident.strip() not in laws:
        for ex in laws[head].get("exceptions") or []:
            if ex["id"] == ident.strip():
                return laws[head], None, ex["id"]
    law, clause = lookup(code, ident)
    return law, clause, None


def canonical_ident(code: str, ident: str) -> str:
    """A law, clause or exception as the code writes it, whatever the case typed (17.ii, 24.BOSTON)
    and whatever spaces stand beside its dot (`17. II`, `24 .boston`)."""
    compact = re.sub(r" *\. *", ".", ident.strip())
    ids: dict[str, str] = {}
    for law in book(code)["laws"]:
        ids[str(law["id"]).lower()] = str(law["id"])
        for c in law.get("clauses") or []:
            ids[f"{law['id']}.{c['id']}".lower()] = f"{law['id']}.{c['id']}"
        for ex in law.get("exceptions") or []:
            ids[str(ex["id"]).lower()] = str(ex["id"])
    return ids.get(compact.lower(), ident)


class Answer:
    """A law looked up (`adjudicator law CODE NUMBER`, the web page's /law and /api/law): the law
    (`entry`), the clause and exception asked for, its links (references both ways, topics, the
    rule files citing it, the cases exercising it), and, when the code asked for sends its rulings
    to another code's law (`asked`: Dummy's rulings cite the English law 38), the sentence saying so."""

    def __init__(self, code_or_game: str, number: str):
        from adjudicator.core import registry
        code = registry.resolve_code(code_or_game, "adjudicator law")
        self.asked = None
        try:
            found = find(code, canonical_ident(code, number))
        except InputError as e:
            base = base_with(code, number)
            if base is None:
                also = base_with(code, number, sections=False)
                under = book(code).get("base_code")
                if also:                    # a section of its own, and a law of the code it amends
                    raise InputError(e.message, e.file, hint=f"{e.hint}; its rulings also cite {also}'s law "
                                     f"{number.strip()}: `adjudicator law {also} {number.strip()}`") from None
                if under and e.hint:        # (its rulings cite those laws too)
                    raise InputError(e.message, e.file, hint=f"{e.hint}; beside them, its rulings cite the laws "
                                     f"of {under}, to which they are exceptions") from None
                raise
            self.asked, code = code, base
            found = find(code, canonical_ident(code, number))
        self.code = code
        self.entry, self.clause, self.exception = found
        ident = self.exception or (f"{self.entry['id']}.{self.clause}" if self.clause else self.entry["id"])
        self.encoded = registry.encoded(code)
        self.links = {"exception": self.exception,
                      "refers_to": refers_to(code, ident),
                      "referred_by": referred_by(code, ident),
                      "topics": topics_of(code, ident),
                      "encoded_in": encoded_in(code, ident) if self.encoded else None}
        if self.encoded:
            self.links["cases"] = exercised_by(code, ident)
        self.source = book(code).get("source", {})
        self.note = None if self.asked is None else (
            f"{self.asked}'s rulings cite the laws of {code} beside its own exceptions "
            f"({outline([str(x['id']) for x in book(self.asked)['laws']])}): law {number.strip()} is {code}'s.")

    def text(self) -> str:
        """As `adjudicator law` prints it: the note on the code asked (when another code's law
        answers), then the law with its links."""
        from adjudicator.core import registry, render
        head = "\n".join(render.wrap(self.note)) + "\n\n" if self.note else ""
        info = {**registry.code_info(self.code), "source": self.source}
        return head + render.law_text(info, self.entry, self.clause, self.links) + "\n"

    def as_dict(self) -> dict:
        """As `adjudicator law --json` gives it."""
        return self.data()

    def data(self) -> dict:
        """As `--json` gives it."""
        return {"code": self.code, **({"asked_code": self.asked, "note": self.note} if self.asked else {}),
                "clause": self.clause, **self.entry, **self.links, "encoded": self.encoded,
                "cases": self.links.get("cases"),
                "cases_available": self.encoded and self.links["cases"] is not None,
                "source": self.source}


def base_with(code: str, ident: str, sections: bool = True) -> str | None:
    """The code this code makes exceptions to (Dummy's and Double Dummy's: the English whist code,
    `base_code`), when that code has the law and this one has not: a ruling under Dummy cites the
    whist code's laws beside Dummy's own (I-III). `law dummy 38` and the web page's /law/dummy-1864/38
    both answer with the English law 38. A section of the code's own (`bidding` of French Boston)
    is not looked for in the other code, unless `sections` is False."""
    own = [str(law["id"]) for law in book(code)["laws"]]
    if sections and re.sub(r" +", "-", ident.strip().lower()) in _sections(own):
        return None                         # (a section of its own: `law french-boston bidding`)
    seen = {code}
    base = book(code).get("base_code")
    while base and base not in seen:        # (Double Dummy's are Dummy's, which are the whist code's)
        try:
            find(base, ident)
            return base
        except InputError:
            seen.add(base)
            base = book(base).get("base_code")
    return None


def _contains(citation: str, ident: str) -> bool:
    """Whether a citation ('17.II', '24.boston') falls under the id asked for ('17', or '17.II')."""
    return citation == ident or citation.startswith(ident + ".")


@functools.cache
def topics() -> dict:
    """rules/topics.yaml: the concordance of topics across codes, and the phrases that refer to one."""
    with open(os.path.join(registry.rules_dir(), "topics.yaml"), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_Loader)


def topic_laws(name: str, code: str) -> list[str]:
    return [str(i) for i in (topics()["topics"].get(name, {}).get("laws") or {}).get(code) or []]


@functools.cache
def _topic_index(code: str) -> tuple[dict, dict]:
    """Which topics list each id exactly, and which list a law or any clause of it."""
    exact: dict[str, list[str]] = {}
    under: dict[str, list[str]] = {}
    for name in topics()["topics"]:
        for i in topic_laws(name, code):
            exact.setdefault(i, []).append(name)
            law = _law_of(code, i)
            if name not in under.setdefault(law, []):
                under[law].append(name)
    return exact, under


def _law_of(code: str, ident: str) -> str:
    """The law an id belongs to: itself for a law, '17' for '17.II' or '24.boston'."""
    ids = set(law_ids(code))
    while ident not in ids and "." in ident:
        ident = ident.rpartition(".")[0]
    return ident


def topics_of(code: str, ident: str) -> list[str]:
    """The topics of a law (those listing it or one of its clauses), or of a clause or exception
    (those listing it, or its law as a whole)."""
    exact, under = _topic_index(code)
    law = _law_of(code, ident)
    if law == ident:
        return list(under.get(law, []))
    names = set(exact.get(ident, [])) | set(exact.get(law, []))
    return [n for n in topics()["topics"] if n in names]


# "Law 13", "see Law 72", "Laws 41 and 43", "Rule 14", "Laws 41 to 43": the numbers referred to.
_REF = re.compile(r"(?:\b|(?<=see))(?:laws?|rules?)\s+(\d+(?:\s*(?:,\s*(?:and\s+|or\s+)?|and|or|&|to|-|–)\s*\d+)*)\b",
                  re.I)


def _numbers(group: str) -> list[int]:
    out: list[int] = []
    parts = re.split(r"\s*(,|and|or|&|to|-|–)\s*", group)
    nums, seps = parts[0::2], [""] + parts[1::2]
    for sep, n in zip(seps, nums):
        if not n.strip().isdigit():
            continue
        if sep in ("to", "-", "–") and out and out[-1] < int(n):
            out += range(out[-1] + 1, int(n) + 1)
        else:
            out.append(int(n))
    return out


def _resolve_number(code: str, n: int) -> str | None:
    """The law a number refers to: the law with that id, or else the one id ending in '.n' or '-n'."""
    ids = law_ids(code)
    if str(n) in ids:
        return str(n)
    near = [i for i in ids if re.search(rf"[.\-]{n}$", i)]
    return near[0] if len(near) == 1 else None


def _parts(law: dict):
    """The texts of a law that may refer to others, each with its id: the law's paragraphs (a
    clause's paragraph, 'I. ...', as the clause: '17.I'), clauses not in its text, its exceptions."""
    clauses = {c["id"] for c in law.get("clauses") or []}
    for para in law["text"].split("\n"):
        head = para.split(". ", 1)[0]
        yield (f"{law['id']}.{head}" if head in clauses else law["id"]), para
    for c in law.get("clauses") or []:
        if c["text"] not in law["text"]:
            yield f"{law['id']}.{c['id']}", c["text"]
    for ex in law.get("exceptions") or []:
        yield ex["id"], ex["text"]


@functools.cache
def references(code: str) -> tuple[dict, ...]:
    """The explicit references of a code's laws: each {'from', 'in', 'code', 'to', 'words', 'topic',
    'how'}.

    'in' is the paragraph holding the words (the law, a clause, an exception); 'code' and 'to' the
    law referred to ('to' is None when it cannot be resolved: tests/test_lookup.py requires none
    such). 'how' says how it was found: 'number' ("see Law 13", "Laws 41 and 43", "Rule 14") and
    'phrase' ("the same penalty as in case of a lead out of turn", through the topics of
    rules/topics.yaml, in the code's laws or, where it has none on the topic, in those of its
    `base_code`) are read in the text; 'stated' is a law's own `refers_to` in its laws.yaml
    (an id of the same code, or {code, id, exception}: Foster's Boston paragraphs send the reader
    to the American laws), kept where the text's words did not already give it.
    """
    phrases = [(re.compile(p["pattern"], re.I), p["topic"]) for p in topics().get("references") or []]
    out = []
    for law in book(code)["laws"]:
        found = []
        for where, text in _parts(law):
            flat = " ".join(text.split())
            for m in _REF.finditer(flat):
                for n in _numbers(m.group(1)):
                    target = _resolve_number(code, n)
                    if target != law["id"]:
                        found.append({"in": where, "code": code, "to": target, "words": m.group(0),
                                      "topic": None, "how": "number"})
            for rx, topic in phrases:
                for m in rx.finditer(flat):
                    on = _topic_code(topic, code)
                    targets = [t for t in topic_laws(topic, on) if not (on == code and _contains(t, law["id"]))]
                    for t in targets if topic_laws(topic, on) else [None]:
                        found.append({"in": where, "code": on, "to": t, "words": m.group(0),
                                      "topic": topic, "how": "phrase"})
        for ref in law.get("refers_to") or []:
            ref = ref if isinstance(ref, dict) else {"id": ref}
            target_code = ref.get("code") or code
            target = str(ref.get("exception") or ref["id"])
            if not any(f["code"] == target_code and f["to"] and _contains(target, f["to"]) for f in found):
                found.append({"in": law["id"], "code": target_code, "to": target,
                              "words": "", "topic": None, "how": "stated"})
        out += [{"from": law["id"], **f} for f in found]
    return tuple(out)


def _topic_code(topic: str, code: str) -> str:
    """The code whose laws on a topic a phrase of this code refers to: its own, or, where it has
    none, those of the code it is based on (`base_code`: Dummy's laws are whist's, with exceptions)."""
    seen = {code}
    while not topic_laws(topic, code) and book(code).get("base_code") and book(code)["base_code"] not in seen:
        code = book(code)["base_code"]
        seen.add(code)
    return code


def _resolves(ref: dict) -> bool:
    """Whether a reference lands on a law, clause or exception of the code it names."""
    if ref["to"] is None or ref["code"] not in codes():
        return False
    law = _law_of(ref["code"], ref["to"])
    if law not in law_ids(ref["code"]):
        return False
    entry = next(x for x in book(ref["code"])["laws"] if x["id"] == law)
    return ref["to"] == law or ref["to"] in {f"{law}.{c['id']}" for c in entry.get("clauses") or []} | \
        {ex["id"] for ex in entry.get("exceptions") or []}


def refers_to(code: str, ident: str) -> list[dict]:
    return [r for r in references(code) if _contains(r["in"], ident) or _contains(ident, r["in"])]


def referred_by(code: str, ident: str) -> list[dict]:
    """The references, from the laws of every code, that land on this law (or a clause or exception
    of it, or, for a clause, on its law as a whole)."""
    return [{**r, "from_code": c} for c in codes() for r in references(c)
            if r["code"] == code and r["to"] and (_contains(r["to"], ident) or _contains(ident, r["to"]))]


def rule_files(code: str) -> list[str]:
    """The rule files of an encoded code, in the order the engine loads them (adjudicator/core/rulefiles.py)."""
    if not registry.encoded(code):
        return []
    return list(rulefiles.files(os.path.join(registry.rules_dir(), registry.code_info(code)["rules"])))


_code_part = rulefiles.code_part


_CITE = re.compile(r'\bcite\(\s*([a-z]\w*)\s*,\s*"([^"]*)"\s*\)')


def encoded_in(code: str, ident: str) -> list[dict]:
    """The rule files citing the law (or a clause or exception of it): [{'file', 'lines',
    'citations', 'through'}].

    A citation is a string in the rules ("24", "17.II"); comments (the law's words) do not count.
    A rule shared by several codes (rules/whist/lead-out-of-turn.lp) cites whatever law the code
    names with cite(Name,"24"): the shared file's lines using cite(Name,...) are listed too, with
    'through' naming it.
    """
    root = registry.rules_dir()
    files = rule_files(code)
    texts = {}
    for path in files:
        texts[path] = rulefiles.code_lines(path)
    out, names = [], []
    for path in files:
        lines, cites = [], set()
        for n, (line, written) in enumerate(zip(texts[path], rulefiles.line_strings(path)), 1):
            hit = {s for s in written if _contains(s, ident) or _contains(ident, s)}
            if hit:
                lines.append(n)
                cites |= hit
                names += [m.group(1) for m in _CITE.finditer(line) if m.group(2) in hit and m.group(1) not in names]
        if lines:
            out.append({"file": os.path.relpath(path, root).replace(os.sep, "/"), "lines": lines,
                        "citations": sorted(cites), "through": None})
    for path in files:
        lines, through = set(), []
        for name in names:
            use = re.compile(rf"\bcite\(\s*{name}\s*,\s*[A-Z_]")
            hit = {n for n, line in enumerate(texts[path], 1) if use.search(line)}
            if hit:
                lines |= hit
                through.append(f"cite({name})")
        if lines:
            out.append({"file": os.path.relpath(path, root).replace(os.sep, "/"), "lines": sorted(lines),
                        "citations": [], "through": ", ".join(through)})
    return out


def cases_dir() -> str | None:
    """The bundled cases' folder: the quiz's question bank and the cases `law` lists under a law.

    ADJUDICATOR_CASES names another one (None when it names no folder). Otherwise the checkout's
    cases/ when the package runs from one (an editable install, or the source tree on the path, or
    the current directory a checkout), else the copy the package ships as `adjudicator.cases`
    (pyproject.toml's package data), so an installed package has them too; None only when neither
    is there.
    """
    env = os.environ.get("ADJUDICATOR_CASES")
    if env is not None:
        return env if env and os.path.isdir(env) else None
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # adjudicator/
    for root in (os.path.dirname(registry.rules_dir()), os.path.dirname(package), os.getcwd()):
        cand = os.path.join(root, "cases")
        if os.path.isdir(cand) and os.path.isfile(os.path.join(root, "rules", "codes.yaml")):
            return cand
    import importlib.util
    try:
        spec = importlib.util.find_spec("adjudicator.cases")
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if os.path.isdir(folder):
            return folder
    return None


_LAW_TOKEN = re.compile(r"^(?:\d+(?:\.[IVX]+)?|[IVX]+)$")


def _named_laws(filename: str) -> list[str]:
    """The law numbers a case file's name begins with: "86-84-the-..." -> ["86", "84"]."""
    out = []
    for token in filename.split("-"):
        if not _LAW_TOKEN.match(token):
            break
        out.append(token.lstrip("0") or token)     # "05-..." sorts law 5 among the others
    return out


def exercised_by(code: str, ident: str) -> list[dict] | None:
    """The case files whose expected rulings cite the law: [{'file', 'name', 'citations'}] (the file
    as `cases/...`, from a checkout as from an installed package), or None when there are no cases
    to read (ADJUDICATOR_CASES naming no folder)."""
    folder = cases_dir()
    if folder is None:
        return None
    word = re.compile(rf"(?<![\w.]){re.escape(ident.split('.')[0])}(?![\w])")
    out = []
    for path, text in _case_texts(folder):
        if not word.search(text):      # most files cannot cite it: skip parsing them
            continue
        read = _case_citations(path, text)
        if read is None or read[0] != code:
            continue
        _, name, cites = read
        hit = sorted(c for c in cites if _contains(c, ident) or _contains(ident, c))
        if hit:
            out.append({"file": os.path.relpath(path, os.path.dirname(folder)).replace(os.sep, "/"),
                        "name": name, "citations": hit})
    return out


@functools.cache
def _case_texts(folder: str) -> tuple[tuple[str, str], ...]:
    """The case files of the folder and their texts, read once a process (a server or a test looks
    up law after law; the bundled cases do not change under it)."""
    import glob
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.yaml"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            out.append((path, fh.read()))
    return tuple(out)


@functools.cache
def _case_citations(path: str, text: str) -> tuple[str | None, str, frozenset[str]] | None:
    """A case file's code, name and the laws its expected rulings cite (with those its file name
    begins with); None for a file that is not a case."""
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    game = data.get("game")
    case_code = data.get("code") or (registry.default_code(game) if game in registry.games() else None)
    cites = set()
    for r in (data.get("expected") or {}).get("rulings") or []:
        cites |= {str(x) for x in r.get("laws") or []}
        for m in r.get("may_not_exact") or []:
            if isinstance(m, dict):
                cites |= {str(x) for x in m.get("laws") or []}
    # a case names the laws it is about at the head of its file name ("74-...", "86-84-...")
    cites |= set(_named_laws(os.path.basename(path)))
    return case_code, data.get("name", ""), frozenset(cites)


def _entry(code: str, ident: str) -> dict:
    """A law or clause of the concordance, with one line to say what it holds: our summary of the
    law, or the words of the clause."""
    law, clause = lookup(code, ident)
    if clause:
        text = next(c["text"] for c in law["clauses"] if c["id"] == clause)
        return {"id": ident, "section": law.get("section", ""), "summary": text}
    return {"id": ident, "section": law.get("section", ""), "summary": law["summary"]}


def topic_names() -> list[str]:
    return list(topics()["topics"])


def plain_words(words: str) -> str:
    """Words as the lookups read them: Unicode's compatibility forms made plain (NFKC), so that a
    word typed in full-width letters (`ＲＥＶＯＫＥ`, as an East Asian keyboard gives it) or with a
    ligature (`ﬁnesse`, `ﬂoor`, as text copied from a PDF holds it) is the word it shows, not no word
    (search's tokenizer takes them for other letters: "No law matches"; a topic: "no topic"). A
    soft hyphen or a zero-width space or joiner inside a word (`re\xadvoke`, as text copied from a
    PDF or a web page holds it) is drawn as nothing and read as nothing: the word is `revoke`."""
    import unicodedata
    return unicodedata.normalize("NFKC", words.translate(_DRAWN_AS_NOTHING))


_DRAWN_AS_NOTHING = dict.fromkeys([0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF])


def resolve_topic(words: str) -> str:
    """The topic named (its name, or its name with spaces for hyphens), or a clear error."""
    name = "-".join(plain_words(words).lower().replace("_", " ").replace("-", " ").split())
    names = topic_names()
    if name in names:
        return name
    import difflib
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    near += [n for n in names if name and n not in near and name.replace("-", " ") in
             f"{topics()['topics'][n]['title']} {topics()['topics'][n].get('words', '')}".lower()][:5 - len(near)]
    raise InputError(f"no topic '{safe(words, 40)}'" if words else "no topic is named: the argument is empty",
                     file="adjudicator topic",
                     hint=(f"did you mean {', '.join(near)}? " if near else "") + "`adjudicator topic` lists them")


def topic(name: str) -> dict:
    """A topic of the concordance: its laws in every code that has any, in the order of codes.yaml."""
    t = topics()["topics"][name]
    out = {"name": name, "title": t["title"], "words": t.get("words", ""), "codes": [], "not_covered": []}
    for code in codes():
        ids = topic_laws(name, code)
        if ids:
            out["codes"].append({"code": code, "title": registry.code_info(code)["title"],
                                 "laws": [_entry(code, i) for i in ids]})
        else:
            out["not_covered"].append(code)
    return out


def topic_list() -> list[dict]:
    return [{"name": n, "title": t["title"], "codes": [c for c in codes() if topic_laws(n, c)]}
            for n, t in topics()["topics"].items()]


def book_code(code: str) -> str:
    """The code whose law texts `code` reads: itself, or the earlier code whose book it shares
    (Boston, Cayenne and Solo Whist read the American book, where their exceptions are, and
    laws.codes() lists that book once, as american-1893's). `search --code boston` said "code
    'boston-1893' has no law texts" and `topic revoke --code boston` printed the topic's title
    alone, though `law boston 24` prints the law. (Read by the command and the web page alike.)"""
    from adjudicator.core import registry
    if code in codes():
        return code
    book = registry.code_info(code).get("laws")
    return next((c for c in codes() if book and registry.code_info(c).get("laws") == book), code)


# --- Which laws read an event: `adjudicator events NAME`, and the reference in docs/incident-format.md.

# ev(T,lead), ev(T,(lead;play)): the raw event a rule reads (rules write `name_card` for `name-card`).
_EV = re.compile(r"\bev\(\s*[A-Z_]\w*\s*,\s*(\(?[a-z_]\w*(?:\s*;\s*[a-z_]\w*)*\)?)\s*\)")


def _events_read(line: str) -> list[str]:
    """The events a line of rules reads raw, in the format's spelling (`name-card`)."""
    return [e.replace("_", "-") for g in _EV.findall(line) for e in g.strip("()").replace(" ", "").split(";")]


@functools.cache
def _event_words(code: str) -> dict[str, frozenset[str]]:
    """For each event, the predicates the code's rules derive from it (`lead_ev(T,X) :- ev(T,lead),
    ...`, `card_play(T,X) :- ev(T,(lead;play)), ...`): the words the laws read it by
    (rules/README.md: law rules read derived concepts, not raw input)."""
    out: dict[str, set[str]] = {}
    for path in rule_files(code):
        for stm in _stms(path):
            for e in stm.events if stm.body else ():
                out.setdefault(e, set()).update(stm.head)
    return {e: frozenset(w) for e, w in out.items()}


_PRED = re.compile(r"\b([a-z_]\w*)\s*\(")
_CITES = re.compile(r"\bcite\(\s*([a-z]\w*)\s*,\s*([A-Z_]\w*|\"[^\"]*\")\s*\)")


class _Stm:
    """What the event lookup needs of a statement: the events its body reads raw, the predicates
    its body and its head name, its strings, and the shared rules it cites through (`cite(N,L)`)."""

    __slots__ = ("events", "body", "head", "strings", "through", "concludes")

    def __init__(self, st: str):
        head, sep, body = st.partition(":-")
        self.events = frozenset(_events_read(body if sep else st))
        self.body = frozenset(_PRED.findall(body)) if sep else frozenset()
        self.head = frozenset(_PRED.findall(head)) - {"text", "cite"}
        self.strings = tuple(rulefiles.strings(st))
        self.through = tuple(n for n, law in _CITES.findall(st) if not law.startswith('"'))
        self.concludes = "cite(" in st


@functools.cache
def _stms(path: str) -> tuple[_Stm, ...]:
    return tuple(_Stm(st) for st in rulefiles.statements(path))


@functools.cache
def _cite_names(code: str) -> dict[str, frozenset[str]]:
    """The laws a code names for each rule shared between codes: `cite(draw_cards,"34")`."""
    out: dict[str, set[str]] = {}
    for path in rule_files(code):
        for st in rulefiles.statements(path):
            for name, law in _CITES.findall(st):
                if law.startswith('"'):
                    out.setdefault(name, set()).add(law.strip('"'))
    return {n: frozenset(ls) for n, ls in out.items()}


def _cites(code: str, stm: _Stm, cited: set[str]) -> set[str]:
    """The citations of a statement: its strings that are law ids, and the laws the code names for
    a shared rule it cites through (`cite(draw_cards,L)`)."""
    shared = _cite_names(code)
    return {s for s in stm.strings if s in cited} | {law for n in stm.through for law in shared.get(n, ()) if law in cited}


def _cited_reading(code: str, path: str, name: str, cited: set[str]) -> set[str]:
    """The citations of the rules of a file that read the event: raw (`ev(T,lead)`), by a word
    derived from it alone (`lead_ev`), or by a concept the file itself derives from such rules
    (followed to the rules that cite a law: `offence(O,T,"24") :- lead_out_of_turn(O,T)`)."""
    stms = _stms(path)
    words = set(_event_words(code).get(name, ()))
    reading: set[int] = set()
    grew = True
    while grew:
        grew = False
        for i, stm in enumerate(stms):
            if i not in reading and (name in stm.events or not words.isdisjoint(stm.body)):
                reading.add(i)
                grew = True
                if not stm.concludes and not any(s in cited for s in stm.strings):
                    words |= stm.head
    return {c for i in reading for c in _cites(code, stms[i], cited)}


def _book_order(code: str) -> dict[str, int]:
    """Each law id's place: the code's own book, then the book it makes exceptions to (Dummy's
    laws, then the English code's)."""
    order: dict[str, int] = {}
    c, seen = code, set()
    while c and c not in seen:
        seen.add(c)
        for i in law_ids(c):
            order.setdefault(i, len(order))
        c = book(c).get("base_code")
    return order


def _waits_for(triggers: frozenset[str] | None, name: str) -> bool:
    """Whether a rule file's load-when words (the engine's reading of them: None for a file loaded
    always) name the event, a `demand` also by the remedy it asks for (`demand:<remedy>`)."""
    return any(w == name or w.startswith(name + ":") for w in triggers or ())


# What `events NAME` and the web page's event say when event_laws finds none.
NO_LAWS_READ = render.NO_LAWS_READ


@functools.cache
def event_laws(name: str) -> dict[str, tuple[str, ...]]:
    """The laws of each encoded code whose rules read this event: those cited in a rule file that
    waits for it (its load-when line names it: rules/README.md, the engine loads the file for it),
    and those cited in a rule that reads it (`_cited_reading`: in a file loaded always, or waiting
    for another event, as `gather` closes the right to have the cards drawn, law 34). Each law once
    (a clause or exception cited, `17.II`, `24.boston`, as its law), in its book's order; the codes
    in the order of rules/codes.yaml, those none of whose rules read the event left out."""
    from adjudicator.core import engine
    out: dict[str, tuple[str, ...]] = {}
    for info in registry.all_codes():
        code = info["code"]
        if not registry.encoded(code) or not info.get("laws"):
            continue
        order, cited = _book_order(code), citations(code)
        found: set[str] = set()
        for part in engine.program(code).parts:
            cites = _cited_reading(code, part.path, name, cited)
            if _waits_for(part.triggers, name):
                cites |= {c for stm in _stms(part.path) for c in _cites(code, stm, cited)}
            for law in cites:
                while law not in order and "." in law:
                    law = law.rpartition(".")[0]
                if law in order:
                    found.add(law)
        if found:
            out[code] = tuple(sorted(found, key=order.__getitem__))
    return out
