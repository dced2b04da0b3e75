"""Full-text search over the laws of every code: SQLite FTS5, ranked by bm25, fed by the topic
concordance and the synonyms, counted and paged.

The index is built on first use from the law files (rules/*/laws.yaml, every code in
rules/codes.yaml), rules/topics.yaml and rules/synonyms.yaml, and kept in the user's cache
directory under a name holding a hash of those files: when any of them changes, the next search
builds a new index (and removes the old). It is read back only once its digest is checked
(adjudicator/core/cache.py: a damaged index is set aside and built again). When the cache cannot be
written the index is built in memory for the one command. Nothing binary is committed.

One row per law (and one per clause): its section, text (with its clauses), our summary, the
exceptions inserted for other games, and the words of the topics it is filed under
(rules/topics.yaml). The porter tokenizer matches inflections (revoke, revoking, revoked);
rules/synonyms.yaml matches old spellings and other words for the same thing (knave / jack,
honours / honors, a card dropped on the floor / an exposed card, deck / pack). A question in plain
words is reduced to its content words, each widened by its synonyms; a row scores, for each word,
the best bm25 of the word or a synonym (times the synonym's weight). Then, in this order:

- the topics: the question is matched against each topic's title and words (rules/topics.yaml,
  as players and referees say it); the laws filed under the topics it matches best gain in
  proportion to how much of the question the topic covers (TOPIC);
- the game: a question that names a game ("at piquet", "poker", "loo") is about that game's laws;
  the other games' count for little (OTHER_GAME). A game's name is then no word to search for;
- the default code: with no game and no code given, a code that is no game's default (the English
  whist code, beside the American one) counts for less (NOT_DEFAULT), so that a game's default code
  is not buried under another code of the same game;
- the variations: a law of a variation of the game (loo's "Variations: Irish loo") counts for less
  (VARIATION) unless the question names the variation: "failing any special agreement, the rules of
  the simple game are to be adhered to" (loo's own law on variations).

Results are counted (`total`: every law holding any of the words, best first) and paged (`offset`,
`limit`).
"""
from __future__ import annotations

import hashlib
import os
import sqlite3

from adjudicator.core import cache, registry
from adjudicator.lookup import laws

SCHEMA = 7                    # the layout's version (this file's text is in the key as well)
TOKENIZE = "porter unicode61 remove_diacritics 2"
COLUMNS = ("code", "id", "section", "text", "summary", "exceptions", "topics", "topic_names", "game", "law")
# bm25 weights per column (code, id, the topics' names and the law a row belongs to are not indexed): the law's words and our summary count
# fully, a section heading is short and telling, the exceptions for other games count less, and
# the topic words (ours, given to every law filed under the topic) count as the text. The game and
# the code's title (the same for every law of the code: "piquet", "French Boston") count for
# nothing as words: a question that names its game is about that game's laws (games_named), and
# the name would otherwise put the shortest laws of the game first ("loo looed": Irish loo).
WEIGHTS = (0.0, 0.0, 2.0, 1.0, 1.0, 0.4, 1.0, 0.0, 0.0, 0.0)
TOPIC = 1.0                   # a law filed under a topic the question matches: its score times 1 + TOPIC x the share of the question's words the topic covers
TOPIC_COVER = 0.6             # a topic counts when it covers at least this share of the question's words
OTHER_GAME = 0.25             # a law of another game than the one the question names
NOT_DEFAULT = 0.9             # a law of a code that is no game's default (no game or code named)
VARIATION = 0.4               # a law of a variation of the game the question does not name
SHARED = 0.2                  # no game named: a default book counts for 1 + SHARED for each game more it is the book of
MARK = ("*", "*")
PART = 0.5                    # what one word of a phrase counts for alone
MEANS = 0.8                   # what a plain word counts for when found as the laws' word for it


def _source_files() -> list[tuple[str, str]]:
    root = registry.rules_dir()
    files = [(c, os.path.join(root, registry.code_info(c)["laws"])) for c in laws.codes()]
    files += [("topics", os.path.join(root, "topics.yaml")), ("synonyms", os.path.join(root, "synonyms.yaml")),
              ("builder", os.path.abspath(__file__))]     # this file: how the index is built
    return files


def _key() -> str:
    h = hashlib.sha256(f"schema {SCHEMA} {sqlite3.sqlite_version}\n".encode())
    for name, path in _source_files():
        h.update(name.encode() + b"\0")
        with open(path, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()[:20]


def synonyms() -> dict:
    import yaml
    with open(os.path.join(registry.rules_dir(), "synonyms.yaml"), encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _rows():
    for code in laws.codes():
        info = registry.code_info(code)
        game = f"{info['game'].replace('-', ' ')}. {info['title']}"
        for law in laws.book(code)["laws"]:
            text = law["text"]
            extra = [c["text"] for c in law.get("clauses") or [] if c["text"] not in text]
            exceptions = "\n".join(ex["text"] for ex in law.get("exceptions") or [])
            names = laws.topics_of(code, law["id"])
            words = [f"{laws.topics()['topics'][n]['title']}. {laws.topics()['topics'][n].get('words', '')}"
                     for n in names]
            yield (code, law["id"], law.get("section", ""), "\n".join([text] + extra),
                   law.get("summary", ""), exceptions, "\n".join(words), " ".join(names), game, law["id"])
            for c in law.get("clauses") or []:     # a clause is found by its own words too
                ident = f"{law['id']}.{c['id']}"
                names = [n for n in laws.topic_names() if ident in laws.topic_laws(n, code)]
                words = [f"{laws.topics()['topics'][n]['title']}. {laws.topics()['topics'][n].get('words', '')}"
                         for n in names]
                yield (code, ident, law.get("section", ""), c["text"], "", "", "\n".join(words),
                       " ".join(names), game, law["id"])


def _stems(conn, *texts: str) -> list[list[tuple[str, str]]]:
    """The words of each text as the index sees them: [[(word, stem)], ...], in order."""
    conn.execute("DELETE FROM temp.q_raw")
    conn.execute("DELETE FROM temp.q_stem")
    rows = list(enumerate(texts, 1))
    conn.executemany("INSERT INTO temp.q_raw(rowid, t) VALUES (?, ?)", rows)
    conn.executemany("INSERT INTO temp.q_stem(rowid, t) VALUES (?, ?)", rows)
    raw = {(d, i): t for d, i, t in conn.execute("SELECT doc, offset, term FROM temp.q_raw_v")}
    stem = {(d, i): t for d, i, t in conn.execute("SELECT doc, offset, term FROM temp.q_stem_v")}
    out: list[list[tuple[str, str]]] = [[] for _ in texts]
    for d, i in sorted(raw):
        out[d - 1].append((raw[d, i], stem[d, i]))
    return out


def _temp_tables(conn) -> None:
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.q_raw USING fts5(t, tokenize='unicode61 remove_diacritics 2')")
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.q_stem USING fts5(t, tokenize='{TOKENIZE}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.q_raw_v USING fts5vocab(temp, q_raw, instance)")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.q_stem_v USING fts5vocab(temp, q_stem, instance)")


def build(conn) -> None:
    """Fill an empty database with the index of every code's laws and the synonym table."""
    cols = ", ".join(c + (" UNINDEXED" if c in ("code", "id", "topic_names", "law") else "") for c in COLUMNS)
    conn.execute(f"CREATE VIRTUAL TABLE laws USING fts5({cols}, tokenize='{TOKENIZE}')")
    conn.executemany(f"INSERT INTO laws VALUES ({', '.join('?' * len(COLUMNS))})", _rows())
    conn.execute("INSERT INTO laws(laws) VALUES ('optimize')")
    # The synonym table, keyed by the stems of the words (or phrases) a question may use.
    conn.execute("CREATE TABLE syn (key TEXT, term TEXT, weight REAL)")
    conn.execute("CREATE TABLE stop (word TEXT PRIMARY KEY)")
    _temp_tables(conn)
    data = synonyms()
    means = data.get("means") or {}
    pairs = []
    for group in data.get("same") or []:
        for a in group:
            pairs += [(a, b, 1.0) for b in group if b != a]
            # what one word of the group means, each of the others means too ("said": as "say")
            pairs += [(a, t, MEANS) for b in group if b != a for t in means.get(b, [])]
    for word, terms in means.items():
        pairs += [(word, t, MEANS) for t in terms]
    keys = _stems(conn, *(a for a, _, _ in pairs))
    conn.executemany("INSERT INTO syn VALUES (?, ?, ?)",
                     [(" ".join(s for _, s in k), b, w) for k, (_, b, w) in zip(keys, pairs)])
    conn.executemany("INSERT OR IGNORE INTO stop VALUES (?)", [(w.lower(),) for w in (data.get("stopwords") or "").split()])
    # the concordance: each topic's title and words (as players say it), and the laws filed under it
    conn.execute(f"CREATE VIRTUAL TABLE topic USING fts5(name UNINDEXED, title, words, tokenize='{TOKENIZE}')")
    conn.execute("CREATE TABLE topic_law (name TEXT, code TEXT, ident TEXT)")
    concordance = laws.topics()["topics"]
    conn.executemany("INSERT INTO topic VALUES (?, ?, ?)",
                     [(n, t.get("title", ""), t.get("words", "")) for n, t in concordance.items()])
    conn.executemany("INSERT INTO topic_law VALUES (?, ?, ?)",
                     [(n, c, str(i)) for n, t in concordance.items() for c, ids in (t.get("laws") or {}).items()
                      for i in ids])
    conn.execute("CREATE TABLE meta (key TEXT)")


# The index is kept as the bytes of an SQLite database (Connection.serialize), sealed with their
# digest in a kept file (adjudicator/core/cache.py), and read back into memory (deserialize) once
# the digest is checked: never a file SQLite opens itself, which a FIFO would hang, and whose pages
# it would trust. (Python 3.10 has no deserialize: the index is built in memory for each command.)
_SERIALIZES = hasattr(sqlite3.Connection, "deserialize")


def connect(rebuild: bool = False) -> tuple[sqlite3.Connection, dict]:
    """The index, built if need be. Returns the connection and how it was had (for --json)."""
    import time
    path = os.path.join(cache.folder(), f"laws-{_key()}.index")
    info = {"index": path, "built": False}
    if _SERIALIZES and not rebuild:
        kept = cache.read_checked(path)
        if kept is not None:
            conn = sqlite3.connect(":memory:")
            try:
                conn.deserialize(kept)
                conn.execute("SELECT count(*) FROM meta").fetchone()
                _temp_tables(conn)
                return conn, info
            except sqlite3.Error as e:      # (its digest matched: only another SQLite's file)
                conn.close()
                cache.set_aside(path, f"it is no index this SQLite reads ({e})")
    t0 = time.perf_counter()
    conn = sqlite3.connect(":memory:")
    build(conn)
    conn.commit()
    if not (_SERIALIZES and cache.keep_bytes(path, conn.serialize(), "laws-", ".index")):
        info["index"] = ":memory:"      # the cache cannot be written: built for this run
    else:
        cache.forget_older(path, "laws-", ".sqlite")     # (the index as it was kept before: an SQLite file)
    info["built"] = True
    info["build_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    return conn, info


def nothing_to_search(words: str):
    """The refusal of words that leave nothing to search for (search.search gave no groups): only
    common words (`the`, `what happens`), or no word at all, only signs (`(`, `*`, a playing card
    `🂡`), which were said to be "only common words" too."""
    from adjudicator.errors import InputError, safe
    shown = safe(" ".join(words.split()), 40)
    why = "only common words" if any(c.isalnum() for c in laws.plain_words(words)) else "no word in it, only signs"
    if not words.strip():       # (blanks alone were quoted as '', "no word in it, only signs")
        return InputError("nothing to search for: the words are empty" if not words else
                          "nothing to search for: the words are only blanks", file="adjudicator search",
                          hint="name the thing: `adjudicator search lead out of turn`")
    return InputError(f"nothing to search for in '{shown}': {why}", file="adjudicator search",
                      hint="name the thing: `adjudicator search lead out of turn`")


def games_named(words: str) -> tuple[list[str], set[int]]:
    """The games a question names ("at piquet", "French Boston", "loo"), and the places of the words
    naming them among the question's words (lower case, as the index splits them)."""
    import re
    toks = re.findall(r"\w+", laws.plain_words(words).lower())
    names = sorted(((g, g.split("-")) for g in registry.games()), key=lambda p: -len(p[1]))
    found: list[str] = []
    used: set[int] = set()
    for game, parts in names:
        n = len(parts)
        for i in range(len(toks) - n + 1):
            span = set(range(i, i + n))
            if toks[i:i + n] == parts and not span & used:
                used |= span
                if game not in found:
                    found.append(game)
    return found, used


def plan(conn, words: str, skip: set[int] | None = None) -> list[list[tuple[str, float]]]:
    """The question's content words, each with the words it may also be found as, and the weight
    each counts for: [[(word, 1.0), (synonym, 1.0), (what the laws call it, MEANS), ...], ...].

    A phrase of the synonym table ("face up", "follow suit") makes one group, in which its words
    alone count for PART. `skip`: the places of words that are no word to search for (a game's
    name: games_named).
    """
    toks = _stems(conn, laws.plain_words(words))[0]
    if skip:
        toks = [t for i, t in enumerate(toks) if i not in skip]
    stop = {w for (w,) in conn.execute("SELECT word FROM stop")}
    syn: dict[str, list[tuple[str, float]]] = {}
    for k, t, w in conn.execute("SELECT key, term, weight FROM syn"):
        syn.setdefault(k, []).append((t, w))
    stems = [s for _, s in toks]
    groups: list[list[tuple[str, float]]] = []
    used: set[int] = set()
    for k in sorted((k for k in syn if " " in k), key=lambda k: -len(k.split())):
        n = len(k.split())
        for i in range(len(stems) - n + 1):
            span = set(range(i, i + n))
            if " ".join(stems[i:i + n]) == k and not span & used:
                used |= span
                words_ = [toks[j] for j in sorted(span)]
                groups.append([(" ".join(w for w, _ in words_), 1.0)] + syn[k] +
                              [(w, PART) for w, _ in words_ if w not in stop and len(w) > 1])
                break
    seen = set()
    for i, (word, stem) in enumerate(toks):
        if i in used or word in stop or len(word) < 2 or stem in seen:
            continue
        seen.add(stem)
        groups.append([(word, 1.0)] + syn.get(stem, []))
    return groups


def _marked(snippet: str) -> set[str]:
    """The different words marked in a snippet (plural or not)."""
    parts = snippet.split(MARK[0])
    return {w.lower().rstrip("s") for w in parts[1::2]}


def _fts(terms) -> str:
    return " OR ".join('"' + t.replace('"', "") + '"' for t in terms)


# A question is a few words ("a card dropped on the floor"); a longer one is no question the laws'
# index can answer, and its words would be echoed back whole (--json's query and groups).
MAX_QUERY_WORDS, MAX_QUERY_CHARS = 40, 400


def _topic_cover(conn, groups) -> dict[str, float]:
    """The topics the question is most about: those whose title and words hold the most of the
    question's words (or their synonyms), each with the share it covers, when that is at least
    TOPIC_COVER."""
    matched: dict[str, int] = {}
    for g in groups:
        hit = {name for (name,) in conn.execute("SELECT name FROM topic WHERE topic MATCH ?",
                                                [_fts(t for t, _ in g)])}
        for name in hit:
            matched[name] = matched.get(name, 0) + 1
    if not matched:
        return {}
    best = max(matched.values())       # the topics the question is most about, not every one it touches
    return {n: k / len(groups) for n, k in matched.items() if k == best and k / len(groups) >= TOPIC_COVER}


def _in_topic(ident: str, law: str, listed: set[str]) -> bool:
    """Whether a row (a law, or a clause of it) is filed under a topic listing `listed`: the law or
    the clause itself, the law of a clause listed, or a clause of a law listed."""
    return ident in listed or law in listed or any(i.startswith(law + ".") for i in listed)


def _variation_named(section: str, words: str) -> bool:
    """Whether the question names the variation a section is of ("Variations: Irish loo")."""
    import re
    def stems(text: str) -> set[str]:      # (clubs / club law)
        return {w.rstrip("s") for w in re.findall(r"\w+", text.lower())}
    name = stems(section.partition(":")[2]) - {"loo", "card", "law", "pack"}
    return bool(name & stems(laws.plain_words(words)))


def _games_of_books() -> dict[str, set[str]]:
    """Each law book that is a game's default (or the book of one), with the games it is the default
    book of: the American laws are whist's, Boston's, Cayenne's and Solo Whist's."""
    out: dict[str, set[str]] = {}
    for g in registry.games():
        out.setdefault(laws.book_code(registry.default_code(g)), set()).add(g)
    return out


def search(words: str, code: str | None = None, limit: int = 10, conn=None, offset: int = 0) -> dict:
    """The laws matching the words, best first, each with a snippet of the words in context.

    A row's score is the sum, over the question's words, of the best bm25 score of the word or
    one of its synonyms in that row (times the synonym's weight): a law gains once for each thing
    the question names, however many of that thing's names it uses. A law has a row, and so has
    each of its clauses; a law ranks by its best row, and a clause that ranks its law is named
    ('17.I').
    """
    if len(words) > MAX_QUERY_CHARS or len(words.split()) > MAX_QUERY_WORDS:
        from adjudicator.errors import InputError, safe
        count = len(words.split())
        what = ("too many" if count > MAX_QUERY_WORDS else "too long")    # (one word of 1,200 letters: not "too many")
        raise InputError(f"the words to search for are {what} ({count:,} word{'' if count == 1 else 's'}, "
                         f"{len(words):,} characters: '{safe(words, 40)}')", file="adjudicator search",
                         hint=f"search for what happened in at most {MAX_QUERY_WORDS} words and {MAX_QUERY_CHARS} "
                         "characters, e.g. `adjudicator search card dropped on the floor`")
    bad = next((c for c in words if "\udc80" <= c <= "\udcff"), None)
    if bad is not None:
        # a byte that is not UTF-8 on the command line, kept by Python as a lone surrogate, which
        # SQLite cannot take: it was 'internal error (UnicodeEncodeError)'
        from adjudicator.errors import InputError, safe
        raise InputError(f"the words to search for are not UTF-8 text (byte 0x{ord(bad) - 0xdc00:02x}: "
                         f"'{safe(words, 40)}')", file="adjudicator search",
                         hint="type the words in UTF-8 (the terminal's encoding may be another)")
    info: dict = {}
    if conn is None:
        conn, info = connect()
    named = games_named(words)[0] if not code else []
    groups = plan(conn, words)
    out = {"query": words, "groups": [[t for t, _ in g] for g in groups], "results": [], "total": 0,
           "offset": offset, "limit": limit, "code": code, **info}
    if named:
        out["games"] = named
    if not groups:
        return out
    where = "laws MATCH ?" + (" AND code = ?" if code else "")
    args = [code] if code else []
    weights = ", ".join(str(w) for w in WEIGHTS)
    score: dict[int, float] = {}
    matched: dict[int, int] = {}
    for g in groups:
        best: dict[int, float] = {}
        for term, w in g:
            for rowid, s in conn.execute(f"SELECT rowid, bm25(laws, {weights}) FROM laws WHERE {where}",
                                         [_fts([term])] + args):
                best[rowid] = max(best.get(rowid, 0.0), -s * w)
        for rowid, s in best.items():
            score[rowid] = score.get(rowid, 0.0) + s
            matched[rowid] = matched.get(rowid, 0) + 1
    if not score:
        return out
    owner, ident_of, section_of = {}, {}, {}
    for r, c, ident, law, section in conn.execute(
            f"SELECT rowid, code, id, law, section FROM laws WHERE rowid IN ({', '.join('?' * len(score))})", list(score)):
        owner[r], ident_of[r], section_of[r] = (c, law), ident, section
    # the topics the question matches, the game it names, the default code, the variations
    cover = _topic_cover(conn, groups)
    filed: dict[str, dict[str, set[str]]] = {}
    for name, c, ident in conn.execute("SELECT name, code, ident FROM topic_law"):
        if name in cover:
            filed.setdefault(c, {}).setdefault(name, set()).add(ident)
    games_codes = {laws.book_code(c) for g in named for c in registry.codes_of(g)}
    unnamed = not code and not named
    shared = _games_of_books() if unnamed else {}
    for r in score:
        c, law = owner[r]
        shares = [cover[n] for n, listed in (filed.get(c) or {}).items() if _in_topic(ident_of[r], law, listed)]
        if shares:
            score[r] *= 1 + TOPIC * max(shares)
        if named and c not in games_codes:
            score[r] *= OTHER_GAME
        if unnamed:
            n_games = len(shared.get(c, ()))
            score[r] *= NOT_DEFAULT if not n_games else 1 + SHARED * (n_games - 1)
        if section_of[r].lower().startswith("variations:") and not _variation_named(section_of[r], words):
            score[r] *= VARIATION
    # one result per law: its best row (the law's, or one of its clauses')
    best_row: dict[tuple, int] = {}
    for r in sorted(score, key=lambda r: -score[r]):
        best_row.setdefault(owner[r], r)
    ranked = list(best_row.values())
    out["total"] = len(ranked)              # every law found, counted; `offset` pages through them
    top = ranked[offset:offset + limit]
    if not top:
        return out
    marks = f"'{MARK[0]}', '{MARK[1]}', '...', 24"
    rows = {r[0]: r[1:] for r in conn.execute(
        f"SELECT rowid, code, id, section, summary, topic_names, snippet(laws, 3, {marks}), snippet(laws, 4, {marks}), "
        f"snippet(laws, 5, {marks}) FROM laws WHERE laws MATCH ? AND rowid IN ({', '.join('?' * len(top))})",
        [_fts(t for g in groups for t, _ in g)] + top)}
    summaries = {}
    for rank, rowid in enumerate(top, offset + 1):
        c, lid, section, summary, names, s_text, s_sum, s_ex = rows[rowid]
        if not summary:                              # a clause: its law's summary
            law_id = owner[rowid][1]
            summary = summaries.get((c, law_id)) or next(
                (x["summary"] for x in laws.book(c)["laws"] if x["id"] == law_id), "")
        # the snippet showing the most different words found: the law's own words first
        snippets = [("text", s_text), ("summary", s_sum), ("exceptions", s_ex)]
        where_, snip = max(snippets, key=lambda p: len(_marked(p[1])))
        if not _marked(snip):
            where_, snip = "text", s_text
        out["results"].append({
            "rank": rank, "code": c, "id": lid, "section": section, "summary": summary,
            "snippet": " ".join(snip.split()), "snippet_from": where_,
            "matched": matched[rowid], "of": len(groups), "score": round(score[rowid], 3),
            "topics": names.split()})
    return out
