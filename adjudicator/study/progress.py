"""What a student has answered, and when each question is due again: one SQLite file.

The file lives in the user's data folder (platformdirs.user_data_dir("adjudicator")), or in the
folder named by ADJUDICATOR_DATA_DIR (the tests use a temporary one). The schedule is the FSRS
library's (`fsrs`): a right answer is rated Good, a wrong one Again; the card's state is kept as
the library's own JSON. A file that is not a readable progress database is never lost: it is
renamed aside with a timestamp, the user is told where, and a fresh one is started. A valid SQLite
file with a row the quiz cannot read (topics that are not JSON, a card the scheduler cannot read)
is such a file: every row is checked on opening, so no reading of it later fails on one.

A file that is not the quiz's own is never written: a valid SQLite file that holds tables the quiz
did not make (another program's database, which a link may name), or a `meta` table of another
layout or schema, is refused, exit 2, and left byte for byte as it was (it is looked at read-only
first). And the file is found as a file to write is (adjudicator/core/reading.py, `followed`): a
link another user planted in a shared data folder is not followed, and the file is then opened
without following a link (SQLite's `nofollow`).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3

from adjudicator.errors import safe

SCHEMA_VERSION = 1
ENV = "ADJUDICATOR_DATA_DIR"
FILE = "progress.sqlite3"
BUSY_SECONDS = 5.0        # how long an open waits for another process writing the file (SQLite's busy timeout)

_TABLES = {
    "meta": "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "answers": """CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY, qid TEXT NOT NULL, at TEXT NOT NULL, right INTEGER NOT NULL,
    said TEXT NOT NULL, code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL)""",
    "cards": """CREATE TABLE IF NOT EXISTS cards (
    qid TEXT PRIMARY KEY, card TEXT NOT NULL, due TEXT NOT NULL, missed INTEGER NOT NULL,
    code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL)""",
}
# What each of the quiz's tables has (its columns, in order): a table of the same name with others is
# another program's.
_COLUMNS = {"meta": ["key", "value"],
            "answers": ["id", "qid", "at", "right", "said", "code", "kind", "topics"],
            "cards": ["qid", "card", "due", "missed", "code", "kind", "topics"]}


class NotOurs(Exception):
    """A sound SQLite file that is not the quiz's progress database: why, in words."""


def data_dir() -> str:
    d = os.environ.get(ENV)
    if not d:
        import platformdirs
        d = platformdirs.user_data_dir("adjudicator", appauthor=False)
    return d


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _topics_ok(text) -> bool:
    try:
        topics = json.loads(text)
    except (TypeError, ValueError):
        return False
    return isinstance(topics, list) and all(isinstance(t, str) for t in topics)


def _card_ok(text) -> bool:
    from fsrs import Card
    try:
        Card.from_dict(json.loads(text))
    except (TypeError, ValueError, KeyError, AttributeError):
        return False
    return True


def _check_rows(db: sqlite3.Connection) -> None:
    """Every row as the quiz reads it (a valid SQLite file may hold a row no program of ours wrote:
    topics that are not JSON, a card the scheduler cannot read, a number where text belongs); the
    first that is not raises DatabaseError, so the file is kept aside as a damaged one."""
    text = "typeof({}) = 'text'"
    flag = "typeof({0}) = 'integer' AND {0} IN (0, 1)"

    def bad(table, rowid, why):
        raise sqlite3.DatabaseError(f"{table} row {rowid}: {why}")

    ok = " AND ".join([text.format(c) for c in ("qid", "at", "said", "code", "kind", "topics")] + [flag.format("right")])
    row = db.execute(f"SELECT rowid FROM answers WHERE NOT ({ok}) LIMIT 1").fetchone()
    if row:
        bad("answers", row[0], "a value of the wrong type")
    ok = " AND ".join([text.format(c) for c in ("qid", "card", "due", "code", "kind", "topics")] + [flag.format("missed")])
    row = db.execute(f"SELECT rowid FROM cards WHERE NOT ({ok}) LIMIT 1").fetchone()
    if row:
        bad("cards", row[0], "a value of the wrong type")
    for rowid, topics in db.execute("SELECT rowid, topics FROM answers"):
        if not _topics_ok(topics):
            bad("answers", rowid, "its topics are not a JSON list of names")
    for rowid, card, topics in db.execute("SELECT rowid, card, topics FROM cards"):
        if not _topics_ok(topics):
            bad("cards", rowid, "its topics are not a JSON list of names")
        if not _card_ok(card):
            bad("cards", rowid, "its schedule is not one the FSRS scheduler can read")


def _whose(db: sqlite3.Connection) -> bool:
    """Whether a sound SQLite file, opened read-only, is a new one (nothing in it: the quiz makes its
    tables); False when it is the quiz's own (its tables, its `meta` saying its schema); NotOurs when
    it holds anything else: a table, a view, a trigger or an index the quiz did not make, or a
    `meta` of another layout, of no schema, or of another schema's version."""
    objects = db.execute("SELECT type, name, tbl_name FROM sqlite_master").fetchall()
    if not objects:
        return True
    theirs = sorted({name for kind, name, table in objects
                     if not (kind == "table" and name in _TABLES)
                     and not (kind == "index" and name.startswith("sqlite_autoindex_") and table in _TABLES)})
    if theirs:
        return _not_ours(f"it holds the table{'s' if len(theirs) > 1 else ''} {', '.join(theirs)}" if all(
            kind == "table" for kind, name, _ in objects if name in theirs) else
            f"it holds {', '.join(theirs)}, which the quiz did not make")
    tables = {name for kind, name, _ in objects if kind == "table"}
    for table in sorted(tables):
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        if columns != _COLUMNS[table]:
            return _not_ours(f"its table {table} has the columns {', '.join(columns)}")
    if "meta" not in tables:
        return _not_ours("it has no table meta saying it is the quiz's")
    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None:
        return _not_ours("its table meta says no schema")
    if row[0] != str(SCHEMA_VERSION):
        return _not_ours(f"its schema is version {safe(row[0], 20)}, and this quiz reads version {SCHEMA_VERSION}")
    return False


def _not_ours(why: str):
    raise NotOurs(why)


def _busy(e: Exception) -> bool:
    """SQLite's "database is locked" or "busy": another process holds the file (another quiz, the web
    page's quiz, a backup) for longer than the connection waits. The file is sound."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (5, 6)          # SQLITE_BUSY, SQLITE_LOCKED (and their extended codes)
    return isinstance(e, sqlite3.OperationalError) and ("locked" in str(e) or "busy" in str(e))


def _in_use_said(method):
    """A Store method whose SQLite failure (the file locked by another process for longer than the
    connection waits, a read-only file, a full disk) is said as the file's, exit 2, never an
    internal error: the answer in hand is not recorded and the file is left as it is."""
    import functools

    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.OperationalError as e:
            raise self._failed(e) from None
    return wrapped


class Store:
    """The progress database. `notices` holds what the user must be told (a damaged file moved aside)."""

    def __init__(self, path: str | None = None):
        self.path = path or os.path.join(data_dir(), FILE)
        self.notices: list[str] = []
        folder = os.path.dirname(self.path) or "."
        from adjudicator.errors import UsageError
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            # (a file there, /dev/null or /etc/passwd, was said as mkdir's "file exists")
            why = "it is not a folder" if os.path.exists(folder) and not os.path.isdir(folder) else \
                (e.strerror or "not a folder").lower()
            raise UsageError(f"the progress folder '{folder}' cannot be made or used ({why})",
                             hint=f"set {ENV} to a folder you can write to, or unset it") from None
        if os.path.lexists(self.path) and not os.path.isfile(self.path):
            # a folder, a FIFO (which SQLite would wait on for ever), a device, a link to nothing:
            # never opened, never moved aside as a damaged file
            raise UsageError(f"the progress file {safe(self.path)} is not a regular file",
                             hint=f"move it away, or set {ENV} to another folder") from None
        from adjudicator.core import reading

        def refuse(what: str):
            return UsageError(f"the progress file {safe(self.path)} {what}",
                              hint=f"move it away, or set {ENV} to another folder")
        self.place = reading.followed(self.path, refuse)     # (a link another user planted: refused)
        try:
            st = os.lstat(self.place)
        except OSError:
            st = None
        if st is not None:
            reading._check_owner(self.place, st, refuse)
        try:
            self.db = self._open()
        except NotOurs as e:
            raise UsageError(f"the progress file {safe(self.path)} is not the quiz's progress database ({e}); "
                             "it is left as it is",
                             hint=f"move it away, or set {ENV} to another folder") from None
        except sqlite3.DatabaseError as e:
            if _busy(e):            # a sound file another program is writing: never moved aside
                raise self._in_use(e) from None
            if not os.path.isfile(self.path):
                # never made: the folder takes no new file (/proc, a read-only disk). It was then
                # "moved aside" as a damaged file, and the missing file was the error said.
                raise UsageError(f"the progress file {safe(self.path)} cannot be made ({safe(e, 120)})",
                                 hint=f"set {ENV} to a folder you can write to, or unset it") from None
            aside = self._move_aside(e)
            self.notices.append(f"The progress file {safe(self.path)} was damaged ({safe(e, 120)}); it is kept "
                                f"as {safe(aside)} and a fresh one is started.")
            self.db = self._open()

    def _in_use(self, e: Exception):
        from adjudicator.errors import UsageError
        return UsageError(f"the progress file {safe(self.path)} is in use by another program ({safe(e, 120)}); "
                          "it is left as it is",
                          hint="let the other program (another quiz, the web page's quiz) finish with it, "
                          "then run again")

    def _failed(self, e: sqlite3.Error):
        """The error to raise when the file, once opened, cannot be read or written."""
        if _busy(e):
            return self._in_use(e)
        from adjudicator.errors import UsageError
        return UsageError(f"the progress file {safe(self.path)} cannot be used ({safe(e, 120)})",
                          hint=f"free some space or make the file writable, or set {ENV} to a folder you can write to")

    def _uri(self, mode: str) -> str:
        """The file as SQLite is told to open it: by its place (the links followed, as allowed),
        never through a link (nofollow), in `mode` (ro, rw, rwc)."""
        from urllib.request import pathname2url
        return f"file:{pathname2url(self.place)}?mode={mode}&nofollow=1"

    def _open(self) -> sqlite3.Connection:
        """The progress database, checked (quick_check), ours (_whose: else NotOurs, before a byte
        of it is written), its tables made when it is new, every row readable."""
        new = not os.path.exists(self.place) or os.path.getsize(self.place) == 0
        if not new:
            look = sqlite3.connect(self._uri("ro"), uri=True, timeout=BUSY_SECONDS)
            try:
                ok = look.execute("PRAGMA quick_check").fetchone()
                if not ok or ok[0] != "ok":
                    raise sqlite3.DatabaseError(f"integrity check: {ok[0] if ok else 'no answer'}")
                new = _whose(look)
            finally:
                look.close()
        db = sqlite3.connect(self._uri("rwc"), uri=True, timeout=BUSY_SECONDS)
        try:
            if new:
                with db:
                    for table in _TABLES.values():
                        db.execute(table)
                    db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            _check_rows(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self, err) -> str:
        stamp = now().strftime("%Y%m%dT%H%M%S")
        aside = f"{self.path}.damaged-{stamp}"
        n = 1
        while os.path.exists(aside):
            n += 1
            aside = f"{self.path}.damaged-{stamp}-{n}"
        os.replace(self.path, aside)
        for extra in ("-journal", "-wal", "-shm"):
            if os.path.exists(self.path + extra):
                os.replace(self.path + extra, aside + extra)
        return aside

    def close(self):
        self.db.close()

    # --- recording -----------------------------------------------------------------------------
    @_in_use_said
    def record(self, q, right: bool, said: str, when: dt.datetime | None = None) -> dt.datetime:
        """Record an answer and reschedule the question; return when it is next due."""
        from fsrs import Card, Rating, Scheduler
        when = when or now()
        row = self.db.execute("SELECT card FROM cards WHERE qid=?", (q.qid,)).fetchone()
        card = Card.from_dict(json.loads(row[0])) if row else Card()
        card, _log = Scheduler(enable_fuzzing=False).review_card(
            card, Rating.Good if right else Rating.Again, review_datetime=when)
        topics = json.dumps(q.topics)
        with self.db:
            self.db.execute("INSERT INTO answers (qid, at, right, said, code, kind, topics) VALUES (?,?,?,?,?,?,?)",
                            (q.qid, when.isoformat(), int(right), said, q.code, q.kind, topics))
            self.db.execute("INSERT OR REPLACE INTO cards VALUES (?,?,?,?,?,?,?)",
                            (q.qid, json.dumps(card.to_dict()), card.due.isoformat(), int(not right),
                             q.code, q.kind, topics))
        return card.due

    # --- reading -------------------------------------------------------------------------------
    @_in_use_said
    def review_ids(self, when: dt.datetime | None = None) -> list[str]:
        """The questions last answered wrong, then those due, the most overdue first."""
        when = (when or now()).isoformat()
        rows = self.db.execute("SELECT qid FROM cards WHERE missed=1 OR due<=? ORDER BY missed DESC, due",
                               (when,)).fetchall()
        return [r[0] for r in rows]

    @_in_use_said
    def stats(self) -> dict:
        rows = self.db.execute("SELECT code, topics, right FROM answers").fetchall()
        by_code: dict[str, list[int]] = {}
        by_topic: dict[str, list[int]] = {}
        for code, topics, right in rows:
            by_code.setdefault(code, [0, 0])
            by_code[code][0] += right
            by_code[code][1] += 1
            for t in json.loads(topics) or ["(no topic)"]:
                by_topic.setdefault(t, [0, 0])
                by_topic[t][0] += right
                by_topic[t][1] += 1
        n_cards = self.db.execute("SELECT count(*) FROM cards").fetchone()[0]
        return {"answers": len(rows), "right": sum(r[2] for r in rows), "questions_seen": n_cards,
                "to_review": len(self.review_ids()),
                "by_code": {k: {"right": v[0], "answered": v[1]} for k, v in sorted(by_code.items())},
                "by_topic": {k: {"right": v[0], "answered": v[1]} for k, v in sorted(by_topic.items())}}

    @_in_use_said
    def reset(self):
        with self.db:
            self.db.execute("DELETE FROM answers")
            self.db.execute("DELETE FROM cards")
