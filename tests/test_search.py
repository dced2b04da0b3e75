"""`adjudicator search`: referee questions in plain words find their law in the first three; old
spellings and inflections match; the index is built on first use, kept in the cache under a hash
of the law files, rebuilt when they change, and built in memory when the cache cannot be written."""
import json
import os

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.lookup import laws, search
from adjudicator.core import render
from adjudicator.cli import main

from .test_lookup import fixture_rules  # noqa: F401 - a fixture used below

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "referee-questions.yaml"), encoding="utf-8") as fh:
    QUESTIONS = yaml.safe_load(fh)


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Each test its own cache directory: the user's is never touched."""
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    old = os.environ.get("ADJUDICATOR_CACHE")
    os.environ["ADJUDICATOR_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        c, _ = search.connect()
    finally:
        if old is None:
            del os.environ["ADJUDICATOR_CACHE"]
        else:
            os.environ["ADJUDICATOR_CACHE"] = old
    return c


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def _expected(q, key="expect"):
    """The laws expected for a question (or those that also answer it), of the codes registered:
    [(code, id)]."""
    codes = set(laws.codes())
    return [tuple(e.split(":", 1)) for e in q.get(key) or [] if e.split(":", 1)[0] in codes]


def _found(results, code, ident):
    """Whether a result is the law expected, a clause of it, or the law of the clause expected."""
    return any(r["code"] == code and (r["id"] == ident or ident.startswith(r["id"] + ".")
                                      or r["id"].startswith(ident + ".")) for r in results)


ACTIVE = [q for q in QUESTIONS if _expected(q)]
OVERALL = 0.9     # the share of questions whose law is in the first three, searching every code


def test_enough_questions():
    assert len(ACTIVE) >= 20
    assert len({q["q"] for q in QUESTIONS}) == len(QUESTIONS)


@pytest.mark.parametrize("q", ACTIVE, ids=[q["q"][:50] for q in ACTIVE])
def test_a_referee_question_finds_its_law_in_the_first_three(q, conn):
    """Searching the code of the game at the table (--code), each question finds its law."""
    expected = _expected(q)
    for code in {c for c, _ in expected}:
        top = search.search(q["q"], code=code, limit=3, conn=conn)["results"]
        ids = [i for c, i in expected + _expected(q, "also") if c == code]
        assert any(_found(top, code, i) for i in ids), \
            f"{q['q']!r} in {code}: expected one of {ids}, got {[r['id'] for r in top]}"


def test_referee_questions_searching_every_code(conn):
    """Searching every code at once, the laws of the other games compete (a card exposed in the
    deal is a point of poker and piquet as well as of whist): nearly every question still finds
    one of its laws (those of every code that answer it) in the first three."""
    missed = []
    for q in ACTIVE:
        top = search.search(q["q"], limit=3, conn=conn)["results"]
        if not any(_found(top, c, i) for c, i in _expected(q) + _expected(q, "also")):
            missed.append(f"{q['q']!r}: got {[(r['code'], r['id']) for r in top]}")
    assert len(missed) <= (1 - OVERALL) * len(ACTIVE), "\n".join(missed)


# --- words ----------------------------------------------------------------------------------------

def test_inflections_match(conn):
    for word in ("revoking", "revoked", "revokes", "renounces"):
        top = search.search(word, code="american-1893", limit=3, conn=conn)["results"]
        assert top and top[0]["id"] == "28", word


def test_old_spellings_and_synonyms_match(fixture_rules, cache):
    conn, info = search.connect()
    assert info["built"]
    for words, law in (("jack of trumps", "1"), ("honors", "1"), ("knave", "1"), ("color", "2"),
                       ("a card fell on the floor", "2"), ("revoke", "rule-5"), ("renounce", "rule-5")):
        top = search.search(words, code="test-club", limit=1, conn=conn)["results"]
        assert top and top[0]["id"] == law, words


def test_plan_groups_a_question_into_its_words(conn):
    groups = search.plan(conn, "What happens if the dealer forgot to have the pack cut?")
    words = [g[0][0] for g in groups]
    assert words == ["dealer", "forgot", "pack", "cut"]
    assert ("omit", search.MEANS) in groups[1] and ("deck", 1.0) in groups[2]
    phrase = search.plan(conn, "he played out of his turn after a card turned face up")
    assert phrase[0][0] == ("face up", 1.0) and ("face", search.PART) in phrase[0]


def test_results_show_the_words_in_context(conn):
    res = search.search("card dropped on the floor", conn=conn)["results"]
    assert res and all(r["snippet"] for r in res)
    assert any(search.MARK[0] in r["snippet"] for r in res)
    assert [r["rank"] for r in res] == list(range(1, len(res) + 1))
    scores = [r["score"] for r in res]
    assert scores == sorted(scores, reverse=True)


# --- the command ----------------------------------------------------------------------------------

def test_search_command():
    r = run("search", "someone", "led", "when", "it", "wasn't", "their", "turn", "--code", "american-1893")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("19 laws found; 1-10 shown, the best first.\n\n"
                               "1. american-1893, law 24 -- Leading and playing out of turn\n")
    assert not render.too_wide(r.stdout, 80)     # 80 columns; a lone unbreakable word may be wider
    r = run("search", "someone", "led", "when", "it", "wasn't", "their", "turn", "--limit", "3")
    assert "found; 1-3 shown" in r.stdout.splitlines()[0] and "\n3. " in r.stdout and "\n4. " not in r.stdout
    data = json.loads(run("search", "revoke", "--json", "--limit", "2").stdout)
    assert len(data["results"]) == 2 and data["results"][0]["code"] == "american-1893"
    for key in ("rank", "code", "id", "section", "summary", "snippet", "score", "topics"):
        assert key in data["results"][0]
    data = json.loads(run("search", "revoke", "--code", "american-1893", "--json").stdout)
    assert {r["code"] for r in data["results"]} == {"american-1893"}


@pytest.mark.parametrize("args,expect", [
    (["search", "revoke", "--code", "americn-1893"], "unknown code"),
    (["search", "the", "of", "it"], "nothing to search for"),
    (["search", "revoke", "--limit", "0"], "--limit"),
])
def test_search_errors_exit_2(args, expect):
    r = run(*args)
    assert r.exit_code == 2 and expect in r.stderr + r.stdout
    assert "Traceback" not in r.stderr + r.stdout


def test_every_question_reads_at_80_columns(conn):
    from adjudicator.core import render
    for q in QUESTIONS:
        out = render.search_text(search.search(q["q"], conn=conn))
        assert not render.too_wide(out, 80), q["q"]     # (a lone unbreakable word may be wider)


# --- the index ------------------------------------------------------------------------------------

def test_the_index_is_built_once_and_rebuilt_when_a_law_file_changes(fixture_rules, cache):
    conn, info = search.connect()
    assert info["built"] and info["index"].startswith(str(cache))
    first = info["index"]
    conn, info = search.connect()
    assert not info["built"] and info["index"] == first
    law_file = fixture_rules / "test-club" / "laws.yaml"
    law_file.write_text(law_file.read_text(encoding="utf-8").replace("colour", "hue"), encoding="utf-8")
    laws.book.cache_clear()
    conn, info = search.connect()
    assert info["built"] and info["index"] != first
    # the old index is gone (beside it, the games' table kept by registry.py)
    assert [f for f in os.listdir(cache) if f.startswith("laws-")] == [os.path.basename(info["index"])]
    assert search.search("hue", code="test-club", conn=conn)["results"][0]["id"] == "2"
    assert not search.search("colour", code="test-club", conn=conn)["results"]


def test_an_unwritable_cache_builds_the_index_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(blocker / "cache"))
    conn, info = search.connect()
    assert info["index"] == ":memory:" and info["built"]
    assert search.search("revoke", conn=conn)["results"]
    r = run("search", "revoke", "--limit", "1")
    assert r.exit_code == 0 and "law 28" in r.stdout


def test_no_index_is_committed():
    from .conftest import ROOT
    for folder, _, files in os.walk(ROOT):
        if ".git" in folder or "venv" in folder:
            continue
        assert not [f for f in files if f.endswith((".sqlite", ".db", ".sqlite3"))], folder


def test_a_search_of_too_many_words_is_refused_with_what_was_written_cut_short():
    # a question is a few words: 15,000 were echoed back whole (--json's query and groups, 500 KB)
    words = [f"w{i}" for i in range(15000)]
    for args in (["search", *words], ["search", "--json", *words]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, r.output
        assert "the words to search for are too many (15,000 words" in r.output
        assert "'w0 w1 w2" in r.output and "w14999" not in r.output and len(r.output) < 1000
    r = CliRunner().invoke(main, ["search", *words[:40]])      # as many as a question may have
    assert "too many" not in r.output


# A word in full-width letters (`ＲＥＶＯＫＥ`, as an East Asian keyboard types it) or with a
# ligature (`ﬂoor`, as text copied from a PDF holds it) found nothing: "No law matches", and
# `topic ＲＥＶＯＫＥ` was "no topic". Compatibility forms are now read as the word they show (NFKC).
@pytest.mark.parametrize("typed, plain", [("ＲＥＶＯＫＥ", "revoke"), ("ﬂoor", "floor"), ("ﬁrst ｌｅａｄ", "first lead")])
def test_a_word_in_full_width_letters_or_with_a_ligature_is_searched_as_the_word_it_shows(conn, typed, plain):
    got, want = search.search(typed, conn=conn), search.search(plain, conn=conn)
    assert want["results"]
    assert got["groups"] == want["groups"] and got["results"] == want["results"]
    assert got["query"] == typed


@pytest.mark.parametrize("typed", ["ＲＥＶＯＫＥ", "ｌｅａｄ ｏｕｔ ｏｆ ｔｕｒｎ"])
def test_a_topic_named_in_full_width_letters_is_the_topic_it_shows(typed):
    assert laws.resolve_topic(typed) in ("revoke", "lead-out-of-turn")
    out = CliRunner().invoke(main, ["topic", typed, "--json"])
    assert out.exit_code == 0, out.output


# `search 🂡` or `search (` said "nothing to search for in '🂡': only common words": there was no
# word in it at all. The command and the API now say so; common words are still said to be common.
@pytest.mark.parametrize("words, why", [("🂡", "no word in it, only signs"), ("( *", "no word in it, only signs"),
                                        ("the", "only common words"), ("what happens", "only common words")])
def test_words_that_leave_nothing_to_search_say_why(words, why):
    r = CliRunner().invoke(main, ["search", *words.split()])
    assert r.exit_code == 2 and f"nothing to search for in '{words}': {why}" in r.stderr, r.stderr
    from adjudicator.web import service
    with pytest.raises(service.Refusal) as e:
        service.search(words)
    assert e.value.payload["error"]["message"] == f"nothing to search for in '{words}': {why}"


def test_one_word_too_long_is_said_to_be_too_long_not_too_many():
    """One word of 1,200 letters was "too many (1 words, ...)": it is one word, too long."""
    r = CliRunner().invoke(main, ["search", "revoke" * 200])
    assert r.exit_code == 2
    assert "the words to search for are too long (1 word, 1,200 characters: 'revokerevoke" in r.output
    assert "at most 40 words and 400 characters" in r.output


# --- searches as players type them (issue 44) -----------------------------------------------------

with open(os.path.join(HERE, "player-queries.yaml"), encoding="utf-8") as fh:
    PLAYERS = yaml.safe_load(fh)


def test_thirty_player_worded_searches():
    assert len(PLAYERS) == 30 and len({q["q"] for q in PLAYERS}) == 30
    assert all(q["want"] for q in PLAYERS)


@pytest.mark.parametrize("q", PLAYERS, ids=[q["q"][:50] for q in PLAYERS])
def test_a_player_worded_search_over_every_code_finds_the_law_a_referee_wants_in_the_first_three(q, conn):
    wants = [tuple(w.split(":", 1)) for w in q["want"]]
    top = search.search(q["q"], limit=3, conn=conn)["results"]
    assert any(_found(top, c, i) for c, i in wants), \
        f"{q['q']!r}: expected one of {wants}, got {[(r['code'], r['id']) for r in top]}"


def test_a_games_default_code_is_not_buried_under_another_code_of_the_game(conn):
    """"dealer exposed a card" found no American law in the first ten: the English 38, the piquet
    and poker laws on it came first. The English code is whist's other code: its law comes after."""
    res = search.search("dealer exposed a card", conn=conn)["results"]
    ranks = {(r["code"], r["id"]): r["rank"] for r in res}
    assert ranks[("american-1893", "15")] < ranks[("english-1864", "38")]
    assert ranks[("american-1893", "15")] <= 3
    # asked of the English code, its own laws alone
    res = search.search("dealer exposed a card", code="english-1864", limit=3, conn=conn)["results"]
    assert [r["id"] for r in res][0] == "38" and {r["code"] for r in res} == {"english-1864"}


def test_a_question_naming_its_game_finds_that_games_laws(conn):
    for words, code in (("at piquet the dealer showed one of my cards", "portland-club"),
                        ("poker dealer showed a card", "draw-poker"), ("loo looed", "loo")):
        res = search.search(words, limit=3, conn=conn)
        assert res["games"] and {r["code"] for r in res["results"]} == {code}, (words, res["results"])


def test_a_variation_is_not_found_before_the_plain_game_unless_named(conn):
    """"loo looed" put Irish loo first: "failing any special agreement ... the rules of the simple
    game are to be adhered to" (loo, variations.agreement)."""
    top = search.search("loo looed", limit=3, conn=conn)["results"]
    assert not top[0]["id"].startswith("variations.") and any(r["id"] in ("playing.1", "declaring.1") for r in top)
    top = search.search("irish loo", limit=1, conn=conn)["results"]
    assert top[0]["id"] == "variations.irish-loo"
    top = search.search("clubs were turned up for trumps at loo", limit=3, conn=conn)["results"]
    assert "variations.club-law" in [r["id"] for r in top]


def test_the_topic_concordance_feeds_the_ranking(conn, monkeypatch):
    """A question that is about a topic of the concordance (its title and words, as players say it)
    raises the laws filed under it: "wrong number of cards dealt" is the topic of a player with too
    many or too few cards, under which the American 19 and 17.IV are filed."""
    cover = search._topic_cover(conn, search.plan(conn, "wrong number of cards dealt"))
    assert cover.get("wrong-number-of-cards") == 1.0
    with_topics = search.search("wrong number of cards dealt", code="american-1893", limit=50, conn=conn)["results"]
    monkeypatch.setattr(search, "TOPIC", 0.0)
    without = search.search("wrong number of cards dealt", code="american-1893", limit=50, conn=conn)["results"]
    score = {r["id"]: r["score"] for r in without}
    for r in with_topics:
        if r["id"] in ("19", "17.IV"):
            assert r["score"] > score[r["id"]]
    assert {"19", "17.IV"} & {r["id"] for r in with_topics[:3]}


def test_the_synonyms_feed_the_ranking(conn):
    """Players' words for the laws' ("the other deck" is the adversaries' pack, "remember" the laws'
    "recollect", "chatting to the dealer" is speaking to him): rules/synonyms.yaml."""
    for words, code, ident in (("someone dealt with the other deck", "american-1893", "16"),
                               ("the dealer cannot remember the trump card", "english-1864", "55"),
                               ("a player kept chatting to the dealer while dealing", "draw-poker", "15")):
        top = search.search(words, code=code, limit=3, conn=conn)["results"]
        assert ident in [r["id"] for r in top], (words, [r["id"] for r in top])


def test_results_are_counted_and_paged(conn):
    first = search.search("card dropped on the floor", limit=10, conn=conn)
    assert first["total"] > 10 and first["offset"] == 0 and first["limit"] == 10
    second = search.search("card dropped on the floor", limit=10, offset=10, conn=conn)
    assert [r["rank"] for r in second["results"]] == list(range(11, 21)) and second["total"] == first["total"]
    both = search.search("card dropped on the floor", limit=20, conn=conn)["results"]
    assert [(r["code"], r["id"]) for r in first["results"] + second["results"]] == [(r["code"], r["id"]) for r in both]
    past = search.search("card dropped on the floor", limit=10, offset=first["total"], conn=conn)
    assert past["results"] == [] and past["total"] == first["total"]
    text = render.search_text(first)
    assert text.startswith(f"{first['total']} laws found; 1-10 shown, the best first.\n")
    assert " ".join(text.split()).endswith(f"{first['total'] - 10} more laws: `adjudicator search card dropped on "
                                           "the floor --page 2`")
    assert render.search_text(past) == f"No more laws: {first['total']} found for \u201ccard dropped on the floor\u201d, " \
                                       f"fewer than {first['total'] + 1}.\n"
    everything = search.search("card dropped on the floor", limit=500, conn=conn)
    assert "more law" not in render.search_text(everything) and len(everything["results"]) == first["total"]


def test_the_search_command_pages(cache):
    r = run("search", "card", "dropped", "on", "the", "floor", "--limit", "3", "--page", "2")
    assert r.exit_code == 0, r.output
    assert "; 4-6 shown, the best first." in r.stdout and r.stdout.splitlines()[2].startswith("4. ")
    assert "--page 3`" in r.stdout
    data = json.loads(run("search", "card", "dropped", "--limit", "3", "--page", "2", "--json").stdout)
    assert data["offset"] == 3 and data["limit"] == 3 and [x["rank"] for x in data["results"]] == [4, 5, 6]
    assert run("search", "card", "--page", "0").exit_code == 2


def test_the_web_pages_search_counts_and_links_to_the_next_page(cache, tmp_path, monkeypatch):
    import html
    import warnings

    from starlette.testclient import TestClient

    from adjudicator.web import create_app
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path / "data"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app())
    total = search.search("card dropped on the floor", limit=10)["total"]
    page = html.unescape(client.get("/search", params={"q": "card dropped on the floor"}).text)
    assert f"{total} laws found; 1-10 shown, the best first." in page
    assert f"{total - 10} more laws" in page and "page=2" in page
    page = html.unescape(client.get("/search", params={"q": "card dropped on the floor", "page": "2"}).text)
    assert '<ol class="results" start="11">' in page and "; 11-20 shown" in page
    page = html.unescape(client.get("/search", params={"q": "card dropped on the floor", "page": "999"}).text)
    assert f"No more laws: {total} found." in page
