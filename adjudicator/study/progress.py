"""What a student has answered, and when each question is due again: one SQLite file.

The file lives in the user's data folder (platformdirs.user_data_dir("adjudicator")), or in the
folder named by ADJUDICATOR_DATA_DIR (the tests use a temporary one); the web page keeps one file
per person (a name, or a key kept in the browser's cookie), under `people/` there. The schedule is
the FSRS library's (`fsrs`), with its four grades: Again (a wrong answer is always Again), Hard,
Good, Easy; the card's state is kept as the library's own JSON, and each answer with its grade, the
time taken and the card as it was before (so that a grade given by the quiz can be changed by the
student). A file that is not a readable progress database is never lost: it is renamed aside with a
timestamp, the user is told where, and a fresh one is started. A valid SQLite file with a row the
quiz cannot read (topics that are not JSON, a card the scheduler cannot read) is such a file: every
row is checked on opening, so no reading of it later fails on one. A file of the first layout
(schema 1: right or wrong, no grade) is brought up to date in place, its answers graded Good or Again.

A day is the local calendar day of the machine the quiz runs on: the daily limits count the new
questions and the reviews answered since local midnight, and the forecast counts what falls due on
each coming day.

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

SCHEMA_VERSION = 2
ENV = "ADJUDICATOR_DATA_DIR"
FILE = "progress.sqlite3"
BUSY_SECONDS = 5.0        # how long an open waits for another process writing the file (SQLite's busy timeout)
PEOPLE = "people"         # the web page's progress files, one a person, under the data folder
MAX_PEOPLE = 10_000       # how many the web page keeps: a new person past it is refused, never an old one dropped
GRADES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
FORECAST_DAYS = 7

# Schema 1 had no grade: its answers were Good when right and Again when wrong.
_MIGRATE_1 = """
ALTER TABLE answers ADD COLUMN rating INTEGER NOT NULL DEFAULT 3;
ALTER TABLE answers ADD COLUMN seconds REAL;
ALTER TABLE answers ADD COLUMN card_before TEXT;
UPDATE answers SET rating = CASE WHEN right = 1 THEN 3 ELSE 1 END;
UPDATE meta SET value = '2' WHERE key = 'schema';
"""

_TABLES = {
    "meta": "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "answers": """CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY, qid TEXT NOT NULL, at TEXT NOT NULL, right INTEGER NOT NULL,
    said TEXT NOT NULL, code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL,
    rating INTEGER NOT NULL DEFAULT 3, seconds REAL, card_before TEXT)""",
    "cards": """CREATE TABLE IF NOT EXISTS cards (
    qid TEXT PRIMARY KEY, card TEXT NOT NULL, due TEXT NOT NULL, missed INTEGER NOT NULL,
    code TEXT NOT NULL, kind TEXT NOT NULL, topics TEXT NOT NULL)""",
}
# What each of the quiz's tables has (its columns, in order): a table of the same name with others is
# another program's.
_COLUMNS = {"meta": ["key", "value"],
            "answers": ["id", "qid", "at", "right", "said", "code", "kind", "topics", "rating", "seconds", "card_before"],
            "cards": ["qid", "card", "due", "missed", "code", "kind", "topics"]}
# The first layout's (schema 1, no grade): read, and brought up to date in place (_MIGRATE_1)
_COLUMNS_1 = {**_COLUMNS, "answers": _COLUMNS["answers"][:8]}


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


def person_path(key: str) -> str:
    """The web page's progress file for a person (a name, or a device's key): named by a hash of the
    key, so that no word a browser sends becomes part of a path."""
    import hashlib
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(data_dir(), PEOPLE, f"{digest}.sqlite3")


def day_start(when: dt.datetime) -> dt.datetime:
    """Local midnight of the day `when` falls in, as an aware UTC time."""
    local = when.astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0).astimezone(dt.timezone.utc)


def empty_stats() -> dict:
    """The stats of a person who has answered nothing (the web page reads them without making a file)."""
    return {"answers": 0, "right": 0, "questions_seen": 0, "to_review": 0, "due_now": 0, "due_later_today": 0,
            "forecast": [], "new_today": 0, "reviews_today": 0, "by_code": {}, "by_topic": {}}


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

    ok = " AND ".join([text.format(c) for c in ("qid", "at", "said", "code", "kind", "topics")] + [flag.format("right")]
                      + ["typeof(rating) = 'integer' AND rating BETWEEN 1 AND 4",
                         "(seconds IS NULL OR typeof(seconds) IN ('real', 'integer'))",
                         "(card_before IS NULL OR typeof(card_before) = 'text')"])
    row = db.execute(f"SELECT rowid FROM answers WHERE NOT ({ok}) LIMIT 1").fetchone()
    if row:
        bad("answers", row[0], "a value of the wrong type")
    ok = " AND ".join([text.format(c) for c in ("qid", "card", "due", "code", "kind", "topics")] + [flag.format("missed")])
    row = db.execute(f"SELECT rowid FROM cards WHERE NOT ({ok}) LIMIT 1").fetchone()
    if row:
        bad("cards", row[0], "a value of the wrong type")
    for rowid, topics, before in db.execute("SELECT rowid, topics, card_before FROM answers"):
        if not _topics_ok(topics):
            bad("answers", rowid, "its topics are not a JSON list of names")
        if before is not None and not _card_ok(before):
            bad("answers", rowid, "its schedule before the answer is not one the FSRS scheduler can read")
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
    if "meta" not in tables:
        return _not_ours("it has no table meta saying it is the quiz's")
    if [row[1] for row in db.execute("PRAGMA table_info(meta)")] != _COLUMNS["meta"]:
        return _not_ours("its table meta is not the quiz's")
    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None:
        return _not_ours("its table meta says no schema")
    if row[0] not in ("1", str(SCHEMA_VERSION)):
        return _not_ours(f"its schema is version {safe(row[0], 20)}, and this quiz reads version {SCHEMA_VERSION}")
    layout = _COLUMNS_1 if row[0] == "1" else _COLUMNS
    for table in sorted(tables):
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        if columns != layout[table]:
            return _not_ours(f"its table {table} has the columns {', '.join(columns)}")
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
        self.last_id: int | None = None
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
            elif db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "1":
                with db:            # the first layout (_whose checked it): brought up to date, nothing lost
                    for statement in _MIGRATE_1.strip().split(";\n"):
                        db.execute(statement.strip().rstrip(";"))
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
    def record(self, q, right: bool, said: str, when: dt.datetime | None = None, rating: int | None = None,
               seconds: float | None = None) -> dt.datetime:
        """Record an answer and reschedule the question; return when it is next due. `rating` is the
        FSRS grade (1 Again, 2 Hard, 3 Good, 4 Easy): by default Good when right and Again when wrong;
        a wrong answer is always Again. `last_id` is then the answer's row (for `regrade`)."""
        from fsrs import Card
        when = when or now()
        rating = 1 if not right else (rating or 3)
        row = self.db.execute("SELECT card FROM cards WHERE qid=?", (q.qid,)).fetchone()
        before = row[0] if row else None
        card = _review(Card.from_dict(json.loads(before)) if before else Card(), rating, when, seconds)
        topics = json.dumps(q.topics)
        with self.db:
            cur = self.db.execute(
                "INSERT INTO answers (qid, at, right, said, code, kind, topics, rating, seconds, card_before) "
                "VALUES (?,?,?,?,?,?,?,?,?,?)",
                (q.qid, when.isoformat(), int(right), said, q.code, q.kind, topics, rating, seconds, before))
            self.db.execute("INSERT OR REPLACE INTO cards VALUES (?,?,?,?,?,?,?)",
                            (q.qid, json.dumps(card.to_dict()), card.due.isoformat(), int(rating == 1),
                             q.code, q.kind, topics))
        self.last_id = cur.lastrowid
        return card.due

    @_in_use_said
    def regrade(self, answer_id: int, rating: int) -> tuple[dt.datetime, int] | None:
        """Change the grade of an answer (the web page's Again / Hard / Good / Easy after the grade
        the quiz gave): the question is rescheduled from its state before that answer, as if graded
        so then. Only the question's last answer can be regraded, and a wrong one stays Again. Returns
        when it is next due and the grade given; None when it cannot (the answer is not the last, or
        not found)."""
        from fsrs import Card
        row = self.db.execute("SELECT qid, at, right, seconds, card_before FROM answers WHERE id=?",
                              (answer_id,)).fetchone()
        if row is None or rating not in GRADES:
            return None
        qid, at, right, seconds, before = row
        last = self.db.execute("SELECT max(id) FROM answers WHERE qid=?", (qid,)).fetchone()[0]
        if last != answer_id:
            return None
        rating = rating if right else 1
        card = _review(Card.from_dict(json.loads(before)) if before else Card(), rating,
                       dt.datetime.fromisoformat(at), seconds)
        with self.db:
            self.db.execute("UPDATE answers SET rating=? WHERE id=?", (rating, answer_id))
            self.db.execute("UPDATE cards SET card=?, due=?, missed=? WHERE qid=?",
                            (json.dumps(card.to_dict()), card.due.isoformat(), int(rating == 1), qid))
        return card.due, rating

    # --- reading -------------------------------------------------------------------------------
    @_in_use_said
    def review_ids(self, when: dt.datetime | None = None) -> list[str]:
        """The questions last answered wrong, then those due, the most overdue first."""
        when = (when or now()).isoformat()
        rows = self.db.execute("SELECT qid FROM cards WHERE missed=1 OR due<=? ORDER BY missed DESC, due",
                               (when,)).fetchall()
        return [r[0] for r in rows]

    @_in_use_said
    def seen_ids(self) -> set[str]:
        """Every question answered at least once (a new question is one not among them)."""
        return {r[0] for r in self.db.execute("SELECT qid FROM cards")}

    @_in_use_said
    def today(self, when: dt.datetime | None = None) -> tuple[int, int]:
        """(new questions, reviews) answered since local midnight: a question is new on the day of its
        first answer; any later answer is a review."""
        start = day_start(when or now()).isoformat()
        new = self.db.execute("SELECT count(*) FROM (SELECT qid, min(at) AS first FROM answers GROUP BY qid) "
                              "WHERE first >= ?", (start,)).fetchone()[0]
        reviews = self.db.execute(
            "SELECT count(*) FROM answers a WHERE a.at >= ? AND a.at > "
            "(SELECT min(b.at) FROM answers b WHERE b.qid = a.qid)", (start,)).fetchone()[0]
        return new, reviews

    @_in_use_said
    def forecast(self, when: dt.datetime | None = None, days: int = FORECAST_DAYS) -> dict:
        """What is due: now (overdue included), later today, and on each of the next `days` days
        ([{"day": "2026-12-08", "due": 3}, ...], local days)."""
        when = when or now()
        start = day_start(when)
        # (a local day is 23 or 25 hours at a change of clocks: each day's start found from its noon)
        starts = [day_start(start + dt.timedelta(days=k, hours=12)) for k in range(days + 2)]
        dues = [dt.datetime.fromisoformat(d) for (d,) in self.db.execute("SELECT due FROM cards")]
        due_now = sum(d <= when for d in dues)
        later = sum(when < d < starts[1] for d in dues)
        ahead = [{"day": starts[k].astimezone().date().isoformat(),
                  "due": sum(starts[k] <= d < starts[k + 1] for d in dues)} for k in range(1, days + 1)]
        return {"due_now": due_now, "due_later_today": later, "days": ahead}

    @_in_use_said
    def stats(self, when: dt.datetime | None = None) -> dict:
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
        ahead = self.forecast(when)
        new, reviews = self.today(when)
        return {"answers": len(rows), "right": sum(r[2] for r in rows), "questions_seen": n_cards,
                "to_review": len(self.review_ids(when)),
                "due_now": ahead["due_now"], "due_later_today": ahead["due_later_today"], "forecast": ahead["days"],
                "new_today": new, "reviews_today": reviews,
                "by_code": {k: {"right": v[0], "answered": v[1]} for k, v in sorted(by_code.items())},
                "by_topic": {k: {"right": v[0], "answered": v[1]} for k, v in sorted(by_topic.items())}}

    @_in_use_said
    def reset(self):
        with self.db:
            self.db.execute("DELETE FROM answers")
            self.db.execute("DELETE FROM cards")


def _review(card, rating: int, when: dt.datetime, seconds: float | None):
    from fsrs import Rating, Scheduler
    duration = int(seconds * 1000) if seconds is not None else None
    card, _log = Scheduler(enable_fuzzing=False).review_card(card, Rating(rating), review_datetime=when,
                                                            review_duration=duration)
    return card
