"""The referee's lookup: a law with its references both ways, where it is encoded and which cases
exercise it; the concordance of topics; every reference and every topic id landing on a law; and
every page of it readable at 80 columns."""
import json
import os
import shutil

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.lookup import laws
from adjudicator.core import registry, render
from adjudicator.cli import main

from .conftest import ROOT

CODE = "american-1893"
WIDTH = 80


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def _clear():
    for f in (registry._data, laws.book, laws.topics, laws.references, laws._topic_index):
        f.cache_clear()


# A code with its law texts only, in a copy of the rules: its references are made to be checked
# (one lands nowhere), its words are old spellings the search must still find.
FIXTURE_LAWS = {
    "code": "test-club",
    "game": "test-game",
    "title": "Laws of a Test Club (fixture)",
    "source": {"book": "A test fixture", "author": "the tests", "edition": "first", "year": "2024"},
    "laws": [
        {"id": "1", "section": "Honours", "summary": "The knave of trumps counts as an honour.",
         "text": "The knave of trumps is an honour, and honours are scored as provided in Law 3."},
        {"id": "2", "section": "Exposed cards", "summary": "A card on the floor is not exposed.",
         "text": "A card dropped on the floor is not an exposed card, whatever the colour of its suit."},
        {"id": "3", "section": "Penalties", "summary": "The penalty of a lead out of turn, with exceptions.",
         "text": "Except as provided in Laws 1 and 2, an offender incurs the same penalty as in case of "
                 "a lead out of turn.\nI. Once only.\nII. (See Law 1.)",
         "clauses": [{"id": "I", "text": "Once only."}, {"id": "II", "text": "(See Law 1.)"}]},
        {"id": "4", "section": "Penalties", "summary": "Refers to a law that is not there.",
         "text": "The same as Law 9."},
        {"id": "rule-5", "section": "Renouncing", "summary": "Revoking defined.",
         "text": "A player revoking, that is renouncing in error, is punished as Rule 2 says; see Laws 1 to 3."},
    ],
}


@pytest.fixture
def fixture_rules(tmp_path, monkeypatch):
    """The real rules, copied, with the text-only code `test-club` registered beside them."""
    rules = tmp_path / "rules"
    shutil.copytree(registry.rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "test-club").mkdir()
    (rules / "test-club" / "laws.yaml").write_text(yaml.safe_dump(FIXTURE_LAWS, sort_keys=False), encoding="utf-8")
    codes = yaml.safe_load((rules / "codes.yaml").read_text(encoding="utf-8"))
    codes["games"]["test-game"] = {"default": "test-club", "codes": {"test-club": {
        "title": FIXTURE_LAWS["title"], "laws": "test-club/laws.yaml"}}}
    (rules / "codes.yaml").write_text(yaml.safe_dump(codes, sort_keys=False), encoding="utf-8")
    monkeypatch.setattr(registry, "rules_dir", lambda: str(rules))
    _clear()
    yield rules
    _clear()


# --- law: text, references, encoding, cases -----------------------------------------------------

def test_law_prints_text_exceptions_summary_references_encoding_cases_and_source():
    r = run("law", CODE, "37")
    assert r.exit_code == 0, r.output
    out = r.stdout
    for expected in ("When a trick has been turned and quitted",          # text
                     "[37.boston-cayenne-solo-whist]",                     # exception
                     "In short:", "Source: R. F. Foster",
                     "Refers to:", "law 24: \u201csame penalty as in case of a lead out of turn\u201d",
                     "Referred to by:", "law revokes (a reference noted with the text), to",
                     "Topics: seeing-quitted-tricks",
                     "rules/whist/american-1893/quitted-trick.lp",
                     "  cases/whist/american-1893/\n    37-"):
        assert expected in out, expected


def test_law_json_carries_every_part():
    data = json.loads(run("law", CODE, "18", "--json").stdout)
    assert data["id"] == "18" and data["encoded"] is True and data["cases_available"] is True
    assert {"from": "18", "in": "18.boston-cayenne-2", "code": CODE, "to": "13", "words": "Law 13",
            "topic": None, "how": "number"} in data["refers_to"]
    assert any(e["file"] == "whist/american-1893/trump.lp" for e in data["encoded_in"])
    assert data["cases"] and all(c["file"].startswith("cases/") and "18" in c["citations"] for c in data["cases"])
    back = json.loads(run("law", CODE, "13", "--json").stdout)
    assert [(r["from"], r["in"]) for r in back["referred_by"]] == [("18", "18.boston-cayenne-2")]


def test_a_clause_and_an_exception_are_marked():
    out = run("law", CODE, "17.II").stdout
    assert "> II. If he deals a card incorrectly" in out
    out = run("law", CODE, "24.boston").stdout
    assert "> [24.boston] In Boston" in out and "  [24.misere]" in out
    r = run("law", CODE, "24.bostn")
    assert r.exit_code == 2 and "no clause" in r.stderr


def test_encoded_in_reads_citations_not_comments():
    hits = laws.encoded_in(CODE, "24")
    files = {h["file"] for h in hits}
    assert "whist/american-1893/out-of-turn.lp" in files
    for h in hits:
        with open(os.path.join(registry.rules_dir(), h["file"]), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        for n in h["lines"]:
            code_part = lines[n - 1].split("%")[0]
            if h["through"]:      # a shared file cites the law through the code's cite/2 keys
                assert any(k.strip()[:-1] + "," in code_part for k in h["through"].split(", ")), (h["file"], n)
            else:
                assert '"24"' in code_part, (h["file"], n)
    # a clause: the clause's own citations and the law's
    assert {"17", "17.II"} <= {c for h in laws.encoded_in(CODE, "17.II") for c in h["citations"]}
    assert laws._code_part('x("24") :- y. % law "25"') == 'x("24") :- y. '
    assert laws._code_part('text(a, "50 % of it") % "26"') == 'text(a, "50 % of it") '


def test_cases_found_from_the_checkout_and_not_available_when_named_nowhere(tmp_path):
    """(From an installed package: tests/test_wheel.py.)"""
    assert os.path.samefile(laws.cases_dir(), os.path.join(ROOT, "cases"))
    cited = laws.exercised_by(CODE, "30")
    assert cited and all("30" in c["citations"] for c in cited)
    assert any(c["file"].endswith("01-30-the-two-tricks-transferred-for-a-revoke-win-the-adversaries-the-game.yaml")
               for c in cited)
    # a case resting on a law its rulings do not cite (a finding's law) names it in its file name
    assert laws._named_laws("86-84-the-adversaries-who-consult.yaml") == ["86", "84"]
    assert laws._named_laws("I-48-dummys-deal.yaml") == ["I", "48"]
    assert laws._named_laws("05-72-the-score.yaml") == ["5", "72"]
    assert any("74-the-question-asked-after" in c["file"] for c in laws.exercised_by("english-1864", "74"))
    # a clause: the cases citing that clause (or the whole law)
    assert all(set(c["citations"]) & {"20", "20.I"} for c in laws.exercised_by(CODE, "20.I"))
    r = run("law", CODE, "30", env={"ADJUDICATOR_CASES": str(tmp_path / "nowhere")})
    assert "Cases: not available (no folder of cases found)." in r.stdout
    r = run("law", CODE, "30", "--json", env={"ADJUDICATOR_CASES": str(tmp_path / "nowhere")})
    data = json.loads(r.stdout)
    assert data["cases"] is None and data["cases_available"] is False


def test_a_text_only_code_is_looked_up_but_not_encoded(fixture_rules):
    r = run("law", "test-club", "3")
    assert r.exit_code == 0, r.output
    assert "Encoded in: not yet" in r.stdout and "Cases" not in r.stdout
    data = json.loads(run("law", "test-club", "3", "--json").stdout)
    assert data["encoded"] is False and data["encoded_in"] is None and data["cases"] is None


# --- cross-references ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,numbers", [
    ("see Law 13", [13]), ("(See Law 61.)", [61]), ("except as provided in Law 10", [10]),
    ("except as provided in Laws 41 and 43", [41, 43]), ("Laws 41, 42 and 43", [41, 42, 43]),
    ("Laws 41 to 43", [41, 42, 43]), ("as provided by Rule 14", [14]), ("[see Law 34]", [34]),
    ("the laws of the game", []), ("this law does not apply", []), ("law 5 or 7", [5, 7]),
])
def test_numbered_references_are_read(text, numbers):
    found = [n for m in laws._REF.finditer(text) for n in laws._numbers(m.group(1))]
    assert found == numbers


def test_references_of_the_fixture_both_ways_and_the_one_that_lands_nowhere(fixture_rules):
    refs = laws.references("test-club")
    pairs = {(r["from"], r["in"], r["to"]) for r in refs}
    assert ("1", "1", "3") in pairs
    assert {("3", "3", "1"), ("3", "3", "2")} <= pairs
    assert ("4", "4", None) in pairs                       # "Law 9": there is no law 9
    assert ("rule-5", "rule-5", "2") in pairs              # "Rule 2"
    assert {("rule-5", "rule-5", "1"), ("rule-5", "rule-5", "3")} <= pairs   # "Laws 1 to 3"
    # the phrase refers by topic; test-club is in no topic, so it lands nowhere
    assert any(r["from"] == "3" and r["topic"] == "lead-out-of-turn" and r["to"] is None for r in refs)
    # no law refers to itself ("Laws 1 and 2" in law 3 is fine; "Laws 1 to 3" in rule-5 holds no 5)
    assert all(r["from"] != r["to"] for r in refs)
    assert [(r["from"], r["in"]) for r in laws.referred_by("test-club", "1")] == \
        [("3", "3"), ("3", "3.II"), ("rule-5", "rule-5")]
    # a clause: its own references and those of its law's other words, not another clause's
    assert {(r["in"], r["to"]) for r in laws.refers_to("test-club", "3.II")} == \
        {("3", "1"), ("3", "2"), ("3", None), ("3.II", "1")}
    assert sorted(unresolved("test-club", phrases=True)) == \
        [("3", "same penalty as in case of a lead out of turn"), ("4", "Law 9")]


def unresolved(code, phrases=None):
    """The references of a code that land on no law (a law, clause or exception of the code they
    name). A phrase ("the same penalty as in case of a lead out of turn") lands through the
    concordance, so it counts once the code is in it."""
    if phrases is None:
        phrases = any(laws.topic_laws(t, code) for t in laws.topic_names())
    return [(r["from"], r["words"]) for r in laws.references(code)
            if not laws._resolves(r) and (r["topic"] is None or phrases)]


@pytest.mark.parametrize("code", laws.codes())
def test_every_reference_lands_on_a_law(code):
    """Read in the text, a reference lands on a law of the same code (a phrase, where the code has no
    law on its topic, on one of the code it is based on: Dummy's revoke penalty is whist's); noted
    with the text (Foster's "as at Whist"), on the law of the code it names."""
    assert unresolved(code) == []
    bases, c = [code], code
    while laws.book(c).get("base_code"):
        c = laws.book(c)["base_code"]
        bases.append(c)
    for r in laws.references(code):
        if r["how"] == "number":
            assert r["code"] == code, r
        elif r["how"] == "phrase":
            assert r["code"] in bases, r


def test_a_phrase_in_a_code_based_on_another_lands_on_the_base_code(fixture_rules):
    law_file = fixture_rules / "test-club" / "laws.yaml"
    data = yaml.safe_load(law_file.read_text(encoding="utf-8"))
    data["base_code"] = CODE
    law_file.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    _clear()
    refs = [r for r in laws.references("test-club") if r["how"] == "phrase"]
    assert [(r["from"], r["code"], r["to"]) for r in refs] == [("3", CODE, "24")]
    assert ("test-club", "3") in {(r["from_code"], r["from"]) for r in laws.referred_by(CODE, "24")}


def test_a_reference_noted_with_the_text_is_read_both_ways():
    refs = laws.referred_by(CODE, "24")
    assert {(r["from_code"], r["from"], r["to"]) for r in refs} >= {(CODE, "37", "24")}
    for r in refs:
        assert r["code"] == CODE and laws._resolves(r)
    for code in laws.codes():
        for r in laws.references(code):
            if r["to"] is not None and r["code"] in laws.codes():
                back = laws.referred_by(r["code"], r["to"])
                assert any(b["from_code"] == code and b["from"] == r["from"] for b in back), r


def test_american_references():
    refs = {(r["from"], r["to"]) for r in laws.references(CODE)}
    assert {("18", "13"), ("37", "24"), ("38", "30")} <= refs


# --- the concordance ----------------------------------------------------------------------------

def test_every_topic_id_exists_in_its_code():
    data = laws.topics()
    codes = set(laws.codes())
    problems = []
    for name, t in data["topics"].items():
        assert name == name.lower() and " " not in name and t.get("title"), name
        for code, ids in (t.get("laws") or {}).items():
            if code not in codes:
                problems.append(f"{name}: unknown code {code}")
                continue
            citable = laws.citations(code)
            problems += [f"{name}: {code} has no law {i}" for i in ids if str(i) not in citable]
            if len(set(map(str, ids))) != len(ids):
                problems.append(f"{name}: {code} lists a law twice")
    for ref in data.get("references") or []:
        if ref["topic"] not in data["topics"]:
            problems.append(f"reference pattern {ref['pattern']!r}: no topic {ref['topic']}")
    assert not problems, "\n".join(problems)


def test_the_issues_topics_are_there():
    names = set(laws.topic_names())
    for t in ("revoke", "lead-out-of-turn", "exposed-cards", "misdeal", "new-deal", "cutting",
              "shuffling", "dealing-out-of-turn", "trump-card", "scoring", "honours", "bystanders",
              "consultation-between-partners", "calling-attention-to-the-trick", "seeing-quitted-tricks",
              "abandoned-hands", "claiming-the-rest", "fresh-cards"):
        assert t in names, t


def test_every_law_of_american_1893_is_under_some_topic():
    missing = [i for i in laws.law_ids(CODE) if not laws.topics_of(CODE, i)]
    assert missing == []


def test_topic_command():
    r = run("topic", "revoke")
    assert r.exit_code == 0, r.output
    assert "american-1893 -- The Laws of Whist" in r.stdout
    assert "  28  A revoke is a renounce in error" in r.stdout
    r = run("topic", "lead", "out", "of", "turn")
    assert r.exit_code == 0 and "  24  After a lead out of turn" in r.stdout
    data = json.loads(run("topic", "Lead-Out-Of-Turn", "--json").stdout)
    assert data["name"] == "lead-out-of-turn"
    assert data["codes"][0]["code"] == CODE and [l["id"] for l in data["codes"][0]["laws"]] == ["24"]
    # a clause is shown by its own words
    data = json.loads(run("topic", "imperfect-pack", "--json").stdout)
    assert data["codes"][0]["laws"][0]["summary"].startswith("If, during the deal")
    r = run("topic", "revok")
    assert r.exit_code == 2 and "no topic 'revok'" in r.stderr and "revoke" in r.stderr
    listing = run("topic")
    assert listing.exit_code == 0 and "lead-out-of-turn" in listing.stdout
    rows = json.loads(run("topic", "--json").stdout)
    revoke = next(t for t in rows if t["name"] == "revoke")
    assert revoke["title"] == laws.topics()["topics"]["revoke"]["title"] and CODE in revoke["codes"]


# --- 80 columns -----------------------------------------------------------------------------------

def _too_wide(text):
    """Lines wider than 80 columns. The one exception allowed (render.too_wide): a line holding
    nothing but one unbreakable word longer than the line, a case's file name or a path, which is
    never broken inside (it must be copied back whole)."""
    return render.too_wide(text, WIDTH)


@pytest.mark.parametrize("code", laws.codes())
def test_every_law_reads_at_80_columns(code):
    info = dict(registry.code_info(code))
    info["source"] = laws.book(code).get("source", {})
    encoded = registry.encoded(code)
    for law in laws.book(code)["laws"]:
        ident = law["id"]
        links = {"refers_to": laws.refers_to(code, ident), "referred_by": laws.referred_by(code, ident),
                 "topics": laws.topics_of(code, ident),
                 "encoded_in": laws.encoded_in(code, ident) if encoded else None}
        if encoded:        # the cases of every law: slow, so the case lists come from the command below
            links["cases"] = []
        assert not _too_wide(render.law_text(info, law, None, links)), (code, ident)
        for c in law.get("clauses") or []:
            assert not _too_wide(render.law_text(info, law, c["id"], links)), (code, ident, c["id"])


@pytest.mark.parametrize("ident", ["2", "24", "37", "17.I", "etiquette.3", "erroneous-scores"])
def test_case_lists_read_at_80_columns(ident):
    r = run("law", CODE, ident)
    assert r.exit_code == 0 and "Cases exercising it" in r.stdout
    assert not _too_wide(r.stdout)


def test_every_topic_reads_at_80_columns():
    assert not _too_wide(run("topic").stdout)
    for name in laws.topic_names():
        r = run("topic", name)
        assert r.exit_code == 0, name
        assert not _too_wide(r.stdout), name


def test_a_shared_rule_file_is_found_through_cite(tmp_path, monkeypatch):
    """A rule shared by several codes cites each code's law through cite(Name,"24")."""
    rules = tmp_path / "rules"
    shutil.copytree(registry.rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__"))
    (rules / "whist" / "shared-test.lp").write_text(
        '%! load-when: always\n% law "24" in a comment does not count\n'
        'shared_offence(X,C) :- shared_event(X), cite(shared_thing,C).\n', encoding="utf-8")
    code_dir = rules / "whist" / CODE
    (code_dir / "shared-cite.lp").write_text('%! load-when: always\ncite(shared_thing,"24").\n', encoding="utf-8")
    main_lp = code_dir / "main.lp"
    main_lp.write_text(main_lp.read_text(encoding="utf-8") +
                       '#include "../shared-test.lp".\n#include "shared-cite.lp".\n', encoding="utf-8")
    monkeypatch.setattr(registry, "rules_dir", lambda: str(rules))
    _clear()
    try:
        hits = {h["file"]: h for h in laws.encoded_in(CODE, "24")}
        assert hits["whist/american-1893/shared-cite.lp"]["lines"] == [2]
        assert hits["whist/shared-test.lp"] == {"file": "whist/shared-test.lp", "lines": [3], "citations": [],
                                                 "through": "cite(shared_thing)"}
        assert "whist/shared-test.lp" not in {h["file"] for h in laws.encoded_in(CODE, "25")}
        out = run("law", CODE, "24").stdout
        assert "rules/whist/shared-test.lp, line 3 (shared, through cite(shared_thing))" in out
    finally:
        _clear()


# --- an id the code has not: the hint says what it has ---------------------------------------------

@pytest.mark.parametrize("code, asked, said", [
    ("whist", "etiquette", "etiquette is a section of american-1893, not one law: its laws are "
                           "etiquette.1 to etiquette.9"),
    ("whist", "Etiquette", "its laws are etiquette.1 to etiquette.9"),
    ("english-1864", "etiquette", "its laws are etiquette.1 to etiquette.9"),
    ("loo", "declaring", "declaring is a section of loo, not one law: its laws are declaring.1 and declaring.2"),
    ("loo", "variations", "its laws are variations.agreement, variations.club-law,"),
    ("poker", "stakes", "stakes is a section of draw-poker, not one law: its laws are stakes.fixed and stakes.ante"),
    ("french-boston", "bidding", "its laws are bidding.method, bidding.accepting and bidding.over-called"),
])
def test_a_section_is_answered_with_its_laws_not_one_clause_of_it(code, asked, said):
    """`law whist etiquette` said "did you mean 'etiquette.9'?": a referee asking for the section was
    offered its ninth law, the nearest by spelling. The section's laws are listed."""
    r = run("law", code, asked)
    assert r.exit_code == 2 and said in r.stderr, r.stderr
    assert "did you mean" not in r.stderr and "hint: name one: `adjudicator law " in r.stderr
    data = json.loads(run("law", code, asked, "--json").stdout)
    assert data["error"]["exit_code"] == 2 and said in data["error"]["message"]


@pytest.mark.parametrize("code, asked, hint", [
    ("whist", "0", "its laws are 1 to 39, etiquette.1 to etiquette.9, erroneous-scores and bidding"),
    ("whist", "95", "its laws are 1 to 39, etiquette.1 to etiquette.9, erroneous-scores and bidding"),
    ("english-1864", "92", "its laws are 1 to 91 and etiquette.1 to etiquette.9"),
    ("piquet", "0", "its laws are 1 to 78"),
    ("poker", "99", "its laws are 1 to 18, limit, ante,"),
    ("loo", "1", "its laws are declaring.1, declaring.2, playing.1 to playing.3 and variations.* (7 laws)"),
    ("dummy", "99", "its laws are I, II and III; beside them, its rulings cite the laws of english-1864"),
    ("whist", "etiquette.10", "the section etiquette has etiquette.1 to etiquette.9"),
    ("loo", "playing.9", "the section playing has playing.1 to playing.3"),
])
def test_a_number_out_of_range_is_answered_with_the_numbers_the_code_has(code, asked, hint):
    """`law whist 0` said "did you mean '30'?", `law piquet 0` '70', `law whist 95` '9': near misses
    by spelling, where the referee needs to know which numbers the code has."""
    r = run("law", code, asked)
    assert r.exit_code == 2 and f"hint: {hint}" in r.stderr, r.stderr
    assert "did you mean" not in r.stderr
    data = json.loads(run("law", code, asked, "--json").stdout)
    assert data["error"]["exit_code"] == 2 and data["error"]["hint"].startswith(hint)


@pytest.mark.parametrize("code, asked, hint", [
    ("whist", "erroneous", "did you mean 'erroneous-scores'?"),
    ("whist", "etiquete", "did you mean the section 'etiquette' (etiquette.1 to etiquette.9)?"),
    ("german-whist", "stake", "did you mean 'stakes'?"),
])
def test_a_word_misspelt_is_offered_the_nearest_law_or_section(code, asked, hint):
    r = run("law", code, asked)
    assert r.exit_code == 2 and f"hint: {hint}" in r.stderr, r.stderr



def test_a_law_dummys_rulings_cite_from_the_whist_code_is_found_under_dummy():
    """A ruling under Dummy cites the English code's laws beside Dummy's own (I-III): `law dummy 38`
    refused ("its laws are I, II and III") though the web page's /law/dummy-1864/38 leads to the
    English law. It now prints the English law 38, saying whose it is; Double Dummy reaches Dummy's
    exceptions and, through them, the English code; a law neither has is refused naming both."""
    r = run("law", "dummy", "38")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("dummy-1864's rulings cite the laws of english-1864 beside its own")
    assert "English club code (1864), law 38" in r.output
    data = json.loads(run("law", "dummy", "38", "--json").output)
    assert (data["code"], data["asked_code"], data["id"]) == ("english-1864", "dummy-1864", "38")
    r = run("law", "double-dummy", "II")
    assert r.exit_code == 0 and "Dummy, English club code (1864), law II" in r.output, r.output
    assert "law 84" in run("law", "double-dummy", "84").output
    r = run("law", "dummy", "99")
    assert r.exit_code == 2
    assert "its laws are I, II and III; beside them, its rulings cite the laws of english-1864" in r.output
    assert run("law", "whist", "99").exit_code == 2 and "beside them" not in run("law", "whist", "99").output
    r = run("law", "boston-de-fontainebleau", "bidding")    # its own section, and Boston's law
    assert r.exit_code == 2 and "is a section of boston-de-fontainebleau" in r.output
    assert "its rulings also cite boston-1893's law bidding: `adjudicator law boston-1893 bidding`" in r.output
