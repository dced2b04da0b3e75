"""Hostile input: refused or handled with a clear error, in bounded time and memory, nothing run.

The inputs that cannot live in tests/bad_input/ are made here: a 100 MB file and 100 MB on
standard input, a FIFO, devices, a directory, an unreadable file, 100 000 nested brackets. The
real command runs in a child process where a crash (a segfault in a C parser) or a hang would
show. Then: strings that look like ASP reach clingo only as symbols and cannot add a rule; no
file but the incident and the package's own is read; the same incident gives the same bytes every
time; grounding and solving are bounded, and the worst incident the format admits stays inside
the bound.
"""
import builtins
import json
import os
import shutil
import subprocess
import sys
import time

import clingo
import pytest
from click.testing import CliRunner

from adjudicator.core import cache, engine, facts, incident, registry, ruling
from adjudicator.cli import main
from adjudicator.errors import InputError, TimeLimit

from .conftest import ROOT

CASE = os.path.join(ROOT, "cases", "whist", "american-1893", "24-suit-call-only-by-the-adversary-on-the-right.yaml")
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))     # adjudicator/
RULES = os.path.realpath(registry.rules_dir())


def _exe():
    exe = shutil.which("adjudicator") or os.path.join(os.path.dirname(sys.executable), "adjudicator")
    if not os.path.exists(exe):
        pytest.skip("the adjudicator command is not installed")
    return exe


def cli(*args, stdin=None, env=None, timeout=30):
    """Run the installed command in a child; return (exit code, stdout, stderr, seconds)."""
    t0 = time.monotonic()
    try:
        r = subprocess.run([_exe(), *args], stdin=stdin if stdin is not None else subprocess.DEVNULL,
                           capture_output=True, env={**os.environ, **(env or {})}, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"adjudicator {' '.join(args)} did not end within {timeout} s")
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace"), \
        time.monotonic() - t0


def peak_mb(args, stdin_path):
    """The command's peak memory (MB), measured by a parent of its own that has no other child."""
    code = ("import resource, subprocess, sys\n"
            "with open(sys.argv[1], 'rb') as fh:\n"
            "    subprocess.run(sys.argv[2:], stdin=fh, capture_output=True)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, stdin_path, _exe(), *args], capture_output=True,
                         text=True, timeout=60).stdout
    return int(out) / 1024


def refused(rc, out, err, seconds, *, message, limit=5.0):
    assert rc == 2, (rc, err)
    assert message in err, err
    assert "Traceback" not in err + out and "clingo" not in err.lower()
    assert seconds < limit, f"{seconds:.1f} s"


# --- files that are not incidents ---------------------------------------------------------
def test_a_100_mb_file_is_refused_unread(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(100_000_000)
    r = cli("adjudicate", str(big))
    refused(*r, message=f"{big}: the file is 100,000,000 bytes; an incident is at most 1,000,000")


def test_100_mb_on_standard_input_is_read_no_further_than_the_limit(tmp_path):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.write(b"game: whist\nevents:\n" + b"  - look: {by: N}\n" * 5_500_000)  # ~100 MB
    with open(big, "rb") as fh:
        r = cli("adjudicate", "-", stdin=fh)
    refused(*r, message="<stdin>: the input is over 1,000,000 bytes")
    with open(CASE, "rb") as fh:
        small = cli("adjudicate", "-", stdin=fh)
    assert small[0] == 0
    # the whole 100 MB never sits in memory: the peak is that of an ordinary ruling, give or take
    # the megabyte read
    assert peak_mb(["adjudicate", "-"], str(big)) < peak_mb(["adjudicate", "-"], CASE) + 30


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_standard_input_is_cut_at_the_limit(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with open(device, "rb") as fh:
        r = cli("adjudicate", "-", stdin=fh)
    refused(*r, message="<stdin>: the input is over 1,000,000 bytes")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_or_a_link_to_one_is_refused_at_once(tmp_path, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    link = tmp_path / "incident.yaml"
    link.symlink_to(device)
    for path in (device, str(link)):
        r = cli("adjudicate", path)
        refused(*r, message=f"{path}: this is not a regular file (a pipe, a device or a socket)")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "incident.yaml"
    os.mkfifo(fifo)
    r = cli("adjudicate", str(fifo), timeout=10)
    refused(*r, message=f"{fifo}: this is not a regular file (a pipe, a device or a socket)")
    assert "hint: save the incident to a file, or pipe it in and give '-' for standard input" in r[2]


def test_a_directory_a_missing_file_and_an_unreadable_one(tmp_path, monkeypatch):
    r = CliRunner().invoke(main, ["adjudicate", str(tmp_path)])
    assert r.exit_code == 2 and r.stderr.startswith(f"{tmp_path}: this is a directory, not an incident file")
    r = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "nope.yaml")])
    assert r.exit_code == 2 and r.stderr.startswith(f"{tmp_path / 'nope.yaml'}: no such file")
    locked = tmp_path / "locked.yaml"
    locked.write_text("game: whist\nevents: []\n")
    real_open = os.open

    def deny(path, *a, **k):
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **k)
    monkeypatch.setattr(os, "open", deny)
    r = CliRunner().invoke(main, ["adjudicate", str(locked)])
    assert (r.exit_code, r.stderr) == (2, f"{locked}: the file cannot be read (permission denied)\n"
                                          "  hint: give yourself read permission (chmod u+r), or copy the "
                                          "incident to a file you can read\n")


def test_a_link_to_nothing_is_said_to_be_one(tmp_path):
    """A link whose target does not exist was said to be "no such file", though `ls` lists it."""
    link = tmp_path / "case.yaml"
    link.symlink_to(tmp_path / "gone" / "x\x1b[2J.yaml")
    with pytest.raises(InputError) as e:
        incident.load(str(link))
    assert e.value.message.startswith("this is a link to '") and "which does not exist" in e.value.message
    assert "\\x1b[2J.yaml'" in e.value.message and "\x1b" not in e.value.message
    with pytest.raises(InputError) as e:
        incident.load(str(tmp_path / "missing.yaml"))
    assert e.value.message == "no such file"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_through_the_command(tmp_path):
    locked = tmp_path / "locked.yaml"
    locked.write_text("game: whist\nevents: []\n")
    locked.chmod(0)
    refused(*cli("adjudicate", str(locked)), message="the file cannot be read (permission denied)")


# --- YAML built to exhaust the parser -------------------------------------------------------
@pytest.mark.parametrize("opening,closing", [("[", "]"), ("{a: ", "}")])
def test_100000_nested_brackets_end_in_a_clear_error(tmp_path, opening, closing):
    """PyYAML's composer recurses once per level (libyaml's crashes the process): the values are
    built from the parser's events without recursion and the depth is refused at level 13."""
    p = tmp_path / "deep.yaml"
    p.write_text("game: whist\nevents: " + opening * 100_000 + closing * 100_000 + "\n")
    r = cli("adjudicate", str(p))
    refused(*r, message="values are nested more than 12 deep")
    assert r[2].startswith(f"{p}:2:")


def test_a_million_tiny_items_under_one_megabyte(tmp_path):
    p = tmp_path / "many.yaml"
    p.write_text("game: whist\nevents: [" + ",".join(["0"] * 499_000) + "]\n")
    assert p.stat().st_size < 1_000_000
    r = cli("adjudicate", str(p))
    refused(*r, message="the file has more than 5,000 values", limit=3.0)
    assert r[2].startswith(f"{p}:2:")


def test_a_long_value_is_quoted_short_in_the_message(tmp_path):
    p = tmp_path / "long.yaml"
    p.write_text("game: whist\nevents:\n  - lead: {by: " + "x" * 900_000 + ", card: KS}\n")
    r = CliRunner().invoke(main, ["adjudicate", str(p)])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"{p}:3:16: lead.by: '{'x' * 40}...' is not a seat") and len(r.stderr) < 300


@pytest.mark.parametrize("name", ["B\u202eevil", "Ames\x1b[31m", "Am\u0085es", "Am\res", "Am\u200bes",
                                  "Ames\u0085", "\u0085Ames", "Ames\x1c", "Ames\r"])
def test_a_name_that_would_rewrite_the_terminal_is_refused(tmp_path, name):
    p = tmp_path / "n.yaml"
    p.write_text(f'game: whist\nplayers: {{N: {json.dumps(name)}}}\nevents: []\n')
    r = CliRunner().invoke(main, ["adjudicate", str(p)])
    assert r.exit_code == 2, r.output
    # (each said for what it is: U+202E and U+200B were said to be control characters)
    what = {"\u202e": "a character that turns the direction of the text",
            "\u200b": "an invisible format character"}.get(next(c for c in name if not c.isprintable()),
                                                           "a control character")
    assert r.stderr.startswith(f"{p}:2:14: players.N: the name '") and f"holds {what} (" in r.stderr
    assert all(c.isprintable() or c == "\n" for c in r.stderr)


def test_text_that_is_not_an_incident(tmp_path):
    for data, message in [
        (os.urandom(2048).replace(b"\x00", b"") + b"\xff", "this is not UTF-8 text"),
        (b"\xef\xbb\xbfgame: whist\r\nevents: [\x00]\r\n", "this is binary data (a NUL byte)"),
    ]:
        p = tmp_path / "junk.yaml"
        p.write_bytes(data)
        r = CliRunner().invoke(main, ["adjudicate", str(p)])
        assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.output


def test_a_bom_and_crlf_line_ends_are_read_as_text(tmp_path):
    with open(CASE, encoding="utf-8") as fh:
        text = fh.read()
    plain = tmp_path / "plain.yaml"
    plain.write_text(text, encoding="utf-8")
    dos = tmp_path / "dos.yaml"
    dos.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    a = CliRunner().invoke(main, ["adjudicate", "--json", str(plain)])
    b = CliRunner().invoke(main, ["adjudicate", "--json", str(dos)])
    assert a.exit_code == b.exit_code == 0
    ra, rb = json.loads(a.stdout), json.loads(b.stdout)
    assert ra["rulings"] == rb["rulings"] and ra["findings"] == rb["findings"]


# --- strings that look like programs ---------------------------------------------------------
HOSTILE = [
    'x). #include "/etc/passwd".',
    '#script (python) import os; os.system("id") #end.',
    'a" :- b. ruling(pwned,"no-penalty"). %',
    "back\\slash \\\" quote",
    "#const n=99. #program base.",
    "}{][&*!|>%@`",
]
PLAIN = ["Ames", "Brown", "Clark", "Dodd"]


def _play_incident(names):
    return ("game: whist\n"
            f"players: {{N: {json.dumps(names[0])}, E: {json.dumps(names[1])}, S: {json.dumps(names[2])}, "
            f"W: {json.dumps(names[3])}}}\n"
            "dealer: S\nnote: " + json.dumps(HOSTILE[0]) + "\nstart: {trick: 3, leader: N}\n"
            "events:\n"
            f"  - lead: {{by: {json.dumps(names[3])}, card: KS}}\n"
            "  - claim-rest: {by: N, words: " + json.dumps(HOSTILE[1]) + "}\n")


def _table_incident(names):
    return ("game: whist\n"
            f"candidates: {json.dumps(names)}\n"
            "events:\n" + "".join(f"  - cut-for-table: {{by: {json.dumps(n)}, card: {c}}}\n"
                                  for n, c in zip(names, ["3H", "KS", "AD", "9C"])))


def _shape(res, names):
    """The rulings with the players' names replaced by their places in the list."""
    who = {n: f"player {i}" for i, n in enumerate(names)}
    return sorted((r["remedy"], r["laws"], sorted(who.get(x, x) for x in r["may_exact"]), r["status"])
                  for r in res["rulings"])


@pytest.mark.parametrize("make", [_play_incident, _table_incident])
def test_names_that_look_like_asp_are_data_and_change_nothing(make, monkeypatch):
    """Every program text clingo receives is one of the package's rule files, word for word, or
    rules clingo parsed from them, one a line (a one-shot call's selected rules: adjudicator/
    rulecache.py); the incident's strings reach it only as symbols (String terms), and the ruling
    is the one the same incident gets with plain names."""
    added, loaded = [], []
    real_add = clingo.Control.add
    monkeypatch.setattr(clingo.Control, "add", lambda self, *a, **k: (added.append(a[-1]), real_add(self, *a, **k))[1])
    monkeypatch.setattr(clingo.Control, "load", lambda self, path: loaded.append(path))
    parts = engine.program("american-1893").parts
    texts = {p.text for p in parts}
    for names in (HOSTILE[:4], HOSTILE[2:6]):
        engine._SEEN.clear()            # the first use of each file goes through Control.add
        for part in parts:
            part.release()
        inc = incident.parse(make(names), "hostile.yaml")
        res = ruling.build(inc, engine.solve(inc))
        plain = incident.parse(make(PLAIN), "plain.yaml")
        assert _shape(res, names) == _shape(ruling.build(plain, engine.solve(plain)), PLAIN)
        for sym in facts.build(inc):
            assert sym.name in {"game", "code", "dealer", "trump", "trump_card", "score", "start", "dealt",
                                "candidate", "games_played", "ev", "arg", "now",
                                # the game's table, hand and game, from rules/codes.yaml (never from the incident)
                                "seat", "first_seat", "next", "seats", "side", "side_of", "other_side",
                                "tricks_in_hand", "game_points"}
    rules = {str(stm) for p in parts for stm in p.statements}   # parsed here, from the files
    assert loaded == []
    assert added and all(t in texts or all(line in rules for line in t.split("\n")) for t in added)
    assert not any(h in t for h in HOSTILE for t in added)


def test_an_input_cannot_add_a_rule():
    """The strongest form: a candidate named as the body of a rule that would add a ruling, and
    a claim whose words would. Clingo sees a string; no `pwned` ruling, no atom named pwned."""
    name = 'x). ruling(pwned,"no-penalty"). #show pwned/0. y('
    src = _table_incident([name, "Brown", "Clark", "Dodd"])
    inc = incident.parse(src, "hostile.yaml")
    sol = engine.solve(inc)
    assert "pwned" not in sol.atoms
    assert {r.name for r, _ in sol.get("ruling")} == {"partners", "first_deal"}
    assert any(s.name == "candidate" and s.arguments[0].type == clingo.SymbolType.String
               and s.arguments[0].string == name for s in sol.facts)


def test_nothing_is_read_but_the_incident_and_the_package(tmp_path, monkeypatch):
    """Every file opened while an incident is read and ruled on: the incident, the package's own
    modules and rule files, and the code's rules and the games' table (rules/codes.yaml) as kept
    in the cache folder (adjudicator/core/rulecache.py, registry.py). (Outside the tests: `strace -f -e
    trace=openat adjudicator adjudicate FILE` shows the same, with Python's own start-up files.)"""
    p = tmp_path / "hostile.yaml"
    p.write_text(_play_incident(HOSTILE[:4]) + "  - look-at-trick: {by: E}\n", encoding="utf-8")
    opened = []
    real_open, real_os_open, real_io_open = builtins.open, os.open, __import__("io").open

    def rec(fn):
        def wrapper(file, *a, **k):
            if isinstance(file, (str, bytes, os.PathLike)):
                opened.append(os.path.realpath(os.fsdecode(file)))
            return fn(file, *a, **k)
        return wrapper
    monkeypatch.setattr(builtins, "open", rec(real_open))
    monkeypatch.setattr(os, "open", rec(real_os_open))
    monkeypatch.setattr(__import__("io"), "open", rec(real_io_open))
    monkeypatch.setattr(clingo.Control, "load", lambda self, path: opened.append(f"clingo.load:{path}"))
    engine.program.cache_clear()
    engine._PROGRAMS.clear()
    engine._SEEN.clear()
    for f in vars(registry).values():
        if hasattr(f, "cache_clear"):
            f.cache_clear()
    r = CliRunner().invoke(main, ["adjudicate", "--json", str(p)])
    assert r.exit_code == 0, r.output
    kept = os.path.realpath(cache.folder())
    outside = [f for f in opened if f != os.path.realpath(p)
               and not f.startswith(RULES + os.sep) and not f.startswith(PACKAGE + os.sep)
               and not (os.path.dirname(f) == kept
                        and os.path.basename(f).lstrip(".").startswith(("rules-", "codes-")))]
    assert not outside, outside
    assert os.path.realpath(p) in opened


# --- the same answer every time ------------------------------------------------------------
def test_the_same_incident_gives_the_same_bytes_every_time(tmp_path):
    contradiction = os.path.join(ROOT, "tests", "bad_input", "card-held-by-one-played-by-another.yaml")
    runs = {}
    for seed in ("0", "1", "12345"):
        env = {"PYTHONHASHSEED": seed}
        runs[seed] = [cli("adjudicate", CASE, env=env)[1], cli("adjudicate", "--json", CASE, env=env)[1],
                      cli("adjudicate", "--json", contradiction, env=env)[1:3]]
    first = runs["0"]
    assert first[0] and json.loads(first[1])["rulings"] and json.loads(first[2][0])["error"]["problems"]
    assert all(r == first for r in runs.values())


# --- bounded grounding and solving -----------------------------------------------------------
def test_the_time_limit_stops_the_wait_even_inside_grounding():
    """clingo cannot interrupt a grounding; the caller stops waiting at the limit all the same."""
    inc = incident.load(os.path.join(ROOT, "cases", "whist", "american-1893",
                                     "30-both-sides-revoke-neither-can-win-the-game.yaml"))
    t0 = time.monotonic()
    with pytest.raises(TimeLimit) as e:
        engine.solve(inc, timeout=0.001, full=True)
    assert time.monotonic() - t0 < 1.0
    assert "no ruling within the time limit of 0.001 s" in str(e.value)
    engine.solve(inc)  # and the next ruling is unaffected


def test_the_command_says_so_when_the_time_limit_is_hit():
    rc, out, err, seconds = cli("adjudicate", CASE, env={"ADJUDICATOR_TIME_LIMIT": "0.001"})
    assert rc == 1 and out == "" and seconds < 5
    assert err.startswith(f"{CASE}: no ruling within the time limit of 0.001 s: the grounding of the rules did "
                          "not finish")
    assert "Traceback" not in err


def test_the_time_limit_hit_on_several_files_says_which_file_each_time():
    other = os.path.join(ROOT, "cases", "whist", "american-1893", "30-both-sides-revoke-neither-can-win-the-game.yaml")
    rc, out, err, _ = cli("adjudicate", "--json", CASE, other, env={"ADJUDICATOR_TIME_LIMIT": "0.001"})
    assert rc == 1
    errors = [json.loads(line)["error"] for line in out.splitlines()]     # (one JSON object a file, a line each)
    assert [e["file"] for e in errors] == [CASE, other]
    assert all(e["message"].startswith("no ruling within the time limit") for e in errors)
    assert err.count(": no ruling within the time limit") == 2 and CASE in err and other in err


def _worst(kind):
    """An incident at the input limits that grounds slowest of those measured (see the report of
    issue 5): 100 events, plays interleaved with another kind, every optional field filled, holdings
    of 13 cards and four suits, all four hands given."""
    from adjudicator.core import schema
    cards = [r + s for s in "SHDC" for r in "A K Q J 10 9 8 7 6 5 4 3 2".split()]
    seats = "WNES"

    def val(f, i):
        t = f.type
        if f.choices:
            return f.choices[i % len(f.choices)]
        return {"seat": seats[i % 4], "seats": "N-S", "person": seats[i % 4], "card": cards[i % 52],
                "cards": [cards[(i * 7 + j) % 52] for j in range(13)],
                "holding": [cards[(i * 7 + j) % 52] for j in range(13)] + ["spades", "hearts", "diamonds", "clubs"],
                "suit": "hearts", "suits": ["spades", "hearts", "diamonds", "clubs"], "int": 1,
                "trick": 1 + i % 13, "bool": bool(i % 2), "remedy": "call-suit",
                "side-scores": {"N-S": 7, "E-W": 6}}.get(t, "x")
    events = []
    for i in range(incident.MAX_EVENTS):
        if i % 2 == 0:
            k = i // 2
            events.append({("lead" if k % 4 == 0 else "play"): {"by": seats[k % 4], "card": cards[k % 52]}})
        else:
            ev = schema.EVENTS[kind]
            events.append({kind: {f.name: val(f, i) for f in ev.fields}})
    import yaml
    return yaml.safe_dump({"game": "whist", "dealer": "S", "trump": "7H", "score": {"N-S": 3, "E-W": 4},
                           "start": {"trick": 1, "leader": "W"},
                           "players": {"N": "Ames", "E": "Brown", "S": "Clark", "W": "Dodd"},
                           "hands": {s: cards[i * 13:(i + 1) * 13] for i, s in enumerate("NESW")},
                           "events": events}, sort_keys=False)


@pytest.mark.parametrize("kind", ["lead", "renounce"])
def test_the_worst_incident_the_limits_admit_is_ruled_on_well_inside_the_time_limit(kind):
    inc = incident.parse(_worst(kind), "worst.yaml")       # within every input limit
    assert len(inc.events) == incident.MAX_EVENTS
    t0 = time.monotonic()
    sol = engine.solve(inc, timeout=engine.DEFAULT_TIMEOUT, full=True)
    seconds = time.monotonic() - t0
    try:
        ruling.build(inc, sol)
    except Exception as e:  # a contradiction is a fine answer; only the time is measured here
        assert getattr(e, "exit_code", None) == 2, e
    assert seconds < engine.DEFAULT_TIMEOUT, f"{seconds:.1f} s"


def test_one_event_over_the_limit_is_refused_before_any_grounding():
    text = _worst("lead").replace("events:\n", "events:\n- look: {by: N}\n", 1)
    with pytest.raises(InputError) as e:
        incident.parse(text, "worst.yaml")
    assert f"an incident has at most {incident.MAX_EVENTS} events" in str(e.value)


# --- a fault of ours: exit 1, no traceback, no solver text unless --debug ------------------------
def test_an_internal_fault_shows_no_traceback_and_no_solver_text_unless_debug(monkeypatch):
    from adjudicator.errors import InternalError

    def broken(inc, **kw):
        raise RuntimeError("<block>:3:1-4: error: syntax error, unexpected <IDENTIFIER>")
    monkeypatch.setattr(engine, "solve", broken)
    r = CliRunner().invoke(main, ["adjudicate", CASE])
    assert r.exit_code == 1
    assert r.stderr.startswith("internal error (RuntimeError).\nThis is a fault in the adjudicator")
    assert "Traceback" not in r.output and "syntax error" not in r.output
    r = CliRunner().invoke(main, ["--debug", "adjudicate", CASE])
    assert r.exit_code == 1 and "Traceback" in r.stderr and "syntax error" in r.stderr

    def no_parse(inc, **kw):
        raise InternalError("the rules of american-1893 do not parse", "<block>:3:1-4: error: syntax error")
    monkeypatch.setattr(engine, "solve", no_parse)
    r = CliRunner().invoke(main, ["adjudicate", "--json", CASE])
    assert r.exit_code == 1 and "syntax error" not in r.output
    assert json.loads(r.stdout) == {"error": {"message": "the rules of american-1893 do not parse", "exit_code": 1}}
    r = CliRunner().invoke(main, ["--debug", "adjudicate", CASE])
    assert "details: <block>:3:1-4: error: syntax error" in r.stderr


def test_a_flood_of_contradictions_is_cut_short_on_the_terminal_not_in_json():
    from adjudicator.errors import InconsistentIncident
    e = InconsistentIncident("f.yaml", [f"problem {i} at line {i}" for i in range(25)])
    lines = str(e).splitlines()
    assert lines[20] == "  - problem 19 at line 19" and lines[21] == "  ... and 5 more (--json lists them all)"
    assert len(e.problems) == 25


# ---------------------------------------------------------------------------------------------
# Values as written (YAML 1.2 core), never as YAML 1.1 turns them.
# ---------------------------------------------------------------------------------------------
def _lead_by_north(players):
    return ("game: whist\ndealer: S\ntrump: hearts\n"
            f"players: {players}\n"
            "events:\n  - lead: {by: N, card: KS}\n")


def test_names_are_the_text_written_not_what_yaml_1_1_makes_of_them():
    inc = incident.parse(_lead_by_north("{N: Off, E: 007, S: Yes, W: true}"), "names.yaml")
    assert inc.players == {"N": "Off", "E": "007", "S": "Yes", "W": "true"}


@pytest.mark.parametrize("written,fix", [("010", "write 10"), ("013", "write 13"), ("0x0A", None), ("1:30", None),
                                         ("2.5", None), ("yes", None)])
def test_a_number_with_a_leading_zero_or_a_colon_is_refused_with_its_line(written, fix):
    src = f"game: whist\ndealer: S\ntrump: hearts\nstart: {{trick: {written}, leader: N}}\nevents:\n  - lead: {{by: N, card: KS}}\n"
    with pytest.raises(InputError) as e:
        incident.parse(src, "numbers.yaml")
    assert (e.value.line, e.value.file) == (4, "numbers.yaml")
    assert f"'{written}'" in e.value.message
    if fix:
        assert e.value.hint == fix


def test_games_played_in_minutes_and_seconds_is_refused():
    src = ("game: whist\ncandidates: [Ames, Brown, Clark, Dodd, Ellis]\ngames-played: {Ames: 1:30}\n"
           "events:\n  - declare-intention: {by: Ellis}\n")
    with pytest.raises(InputError) as e:
        incident.parse(src, "gp.yaml")
    assert e.value.line == 3 and "'1:30' is not a whole number" in e.value.message


def test_a_plain_whole_number_and_true_false_still_read_as_such():
    src = "game: whist\ndealer: S\ntrump: hearts\nstart: {trick: 10, leader: N}\nevents:\n  - lead: {by: N, card: KS}\n"
    assert incident.parse(src, "ok.yaml").top["start"] == (10, "N")


# ---------------------------------------------------------------------------------------------
# Accounts that cannot have happened, in two spellings of one thing.
# ---------------------------------------------------------------------------------------------
def _incident(top="", event="lead: {by: N, card: KS}"):
    return f"game: whist\ndealer: S\ntrump: hearts\n{top}events:\n  - lead: {{by: N, card: KS}}\n  - {event}\n"


@pytest.mark.parametrize("top,line,says", [
    ("hands: {N: [AS, as, A♠]}\n", 4, "'as' is the card written 'AS' at line 4"),
    ("score: {N-S: 2, ns: 3}\n", 4, "'ns' is the side N-S again (written 'N-S' at line 4)"),
    ("rubber: {E-W: [1], ew: [2]}\n", 4, "'ew' is the side E-W again"),
    ("players: {N: Ames, E: ames, S: Clark, W: Dodd}\n", 4, "'ames' is already the name of another seat"),
    ("players: {N: Ames, E: \u0410mes, S: Clark, W: Dodd}\n", 4, "'Ames' in another spelling: '\\u0410mes'"),
    ("players: {N: Ames, E: \uff21mes, S: Clark, W: Dodd}\n", 4, "'Ames' in another spelling"),
    ("players: {N: Ames, E: \u039d, S: Clark, W: Dodd}\n", 4, "is the name of a seat or a side"),
    ("players: {N: Ames, E: Nort\u04bb, S: Clark, W: Dodd}\n", 4, "is the name of a seat or a side"),
])
def test_one_thing_in_two_spellings_is_refused_with_its_line(top, line, says):
    code = "code: english-1864\n" if "rubber" in top else ""
    with pytest.raises(InputError) as e:
        incident.parse(_incident(code + top), "twice.yaml")
    assert e.value.line == line + bool(code) and says in e.value.message, e.value


# Two names that differ only in case are one name, whichever letter's case differs: the players'
# check, a seat written as a name and the candidates all read names by one key (incident.name_key).
# The key read small Cyrillic and Greek letters by a table of their own, where the capitals were
# read as Latin ones: `ΟΔΥΣΣΕΥΣ` and `οδυσσευς` were two players, as were `ТОМ` and `том`, and
# `том` named no one at a table where `Том` sat. `İvy` and `ivy` (the Turkish case pairs of i and I)
# were two players, one name to a Turkish reader.
CASE_PAIRS = [("Straße", "STRASSE"), ("\ufb01n", "FIN"), ("ΟΔΥΣΣΕΥΣ", "οδυσσευς"), ("ΟΔΥΣΣΕΥΣ", "οδυσσευσ"),
              ("ТОМ", "том"), ("Том", "TOM"), ("İvy", "ivy"), ("İvy", "Ivy"), ("ıvy", "IVY"), ("ǅemal", "ǆemal"),
              ("Νed", "νED")]


@pytest.mark.parametrize("first,second", CASE_PAIRS)
def test_two_names_that_differ_only_in_case_are_one_player(first, second):
    with pytest.raises(InputError) as e:
        incident.parse(_incident(f"players: {{N: '{first}', E: '{second}', S: Clark, W: Dodd}}\n"), "case.yaml")
    assert e.value.line == 4 and "is already the name of another seat" in e.value.message, e.value
    with pytest.raises(InputError) as e:
        incident.parse(_incident(f"candidates: ['{first}', '{second}', Clark, Dodd]\n"), "case.yaml")
    assert e.value.line == 4 and "is named twice" in e.value.message, e.value


@pytest.mark.parametrize("first,second", CASE_PAIRS)
def test_a_seat_written_as_its_player_s_name_in_another_case_is_that_seat(first, second):
    inc = incident.parse(_incident(f"players: {{N: Ames, E: '{first}', S: Clark, W: Dodd}}\n",
                                   event=f"play: {{by: '{second}', card: 2S}}"), "case.yaml")
    assert inc.events[-1].fields["by"] == "E"
    assert incident.name_key(first) == incident.name_key(second) == incident.name_key(incident.name_key(first))


@pytest.mark.parametrize("written", ["-0", "+99", "14"])
def test_a_number_out_of_range_is_quoted_as_written(written):
    """`-0` was said to be "0 is out of range", a number the file does not hold."""
    with pytest.raises(InputError) as e:
        incident.parse(_incident(f"start: {{trick: {written}, leader: N}}\n"), "n.yaml")
    assert e.value.message == f"start.trick: {written} is out of range (1 to 13)", e.value


@pytest.mark.parametrize("escape,says", [
    ("\\x07", "holds a control character ('\\x07')"),
    ("\\u00a0", "holds a space other than the plain one ('\\xa0')"),
    ("\\u200b", "holds an invisible format character ('\\u200b')"),
    ("\\U0010FFFF", "holds a character Unicode does not assign ('\\U0010ffff')"),
    ("\\ue000", "holds a private-use character ('\\ue000')"),
    ("\\u2028", "holds a line separator ('\\u2028')"),
])
def test_a_character_a_name_refuses_is_said_for_what_it_is(escape, says):
    """A no-break space, U+200B and U+10FFFF were each said to be a control character."""
    with pytest.raises(InputError) as e:
        incident.parse(_incident(f'players: {{N: "Jean{escape}Paul", E: B, S: C, W: D}}\n'), "n.yaml")
    assert says in e.value.message, e.value
    with pytest.raises(InputError) as e:
        incident.parse(_incident(event=f'claim-rest: {{by: N, words: "a{escape}b"}}'), "n.yaml")
    assert says.replace("('", "(").replace("')", ")") in e.value.message, e.value


def test_games_played_by_one_candidate_in_two_spellings():
    src = ("game: whist\ncandidates: [Ames, Brown, Clark, Dodd, Ellis]\ngames-played: {Ames: 1, ames: 2}\n"
           "events:\n  - declare-intention: {by: Ellis}\n")
    with pytest.raises(InputError) as e:
        incident.parse(src, "gp.yaml")
    assert e.value.line == 3 and "'ames' is the player Ames again" in e.value.message


@pytest.mark.parametrize("event,says", [
    ("wrong-number: {player: W, missing: 14}", "14 cards too few cannot be"),
    ("wrong-number: {player: W, missing: 0}", "0 cards too few cannot be"),
    ("wrong-number: {player: W, surplus: 40}", "40 cards too many cannot be"),
    ("consult: {by: [N, E]}", "N and E are not partners"),
])
def test_an_event_that_cannot_have_happened_is_refused_with_its_line(event, says):
    with pytest.raises(InputError) as e:
        incident.parse(_incident(event=event), "event.yaml")
    assert e.value.line == 6 and says in e.value.message, e.value


def test_partners_consulting_and_a_card_short_are_accepted():
    inc = incident.parse(_incident(event="consult: {by: [N, S]}"), "ok.yaml")
    assert inc.events[-1].fields["by"] == ["N", "S"]
    inc = incident.parse(_incident(event="wrong-number: {player: W, missing: 13}"), "ok.yaml")
    assert inc.events[-1].fields["missing"] == 13


# ---------------------------------------------------------------------------------------------
# Messages: short, escaped, never a Python repr, never a line of a file that is not an incident.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["{a: 1}", "[1, [2]]", "{a: [b, {c: d}]}"])
def test_a_mapping_or_list_where_a_value_is_due_is_shown_as_data_never_a_repr(tmp_path, value):
    p = tmp_path / "repr.yaml"
    p.write_text(f"game: whist\ndealer: S\ntrump: hearts\nevents:\n  - lead: {{by: {value}, card: KS}}\n")
    r = CliRunner().invoke(main, ["adjudicate", "--json", str(p)])
    assert r.exit_code == 2
    assert "object at 0x" not in r.output and "<adjudicator" not in r.output, r.output
    assert f"'{value}' is not a seat" in json.loads(r.stdout)["error"]["message"]


def test_a_file_name_cannot_forge_a_line_or_clear_the_screen(tmp_path):
    name = tmp_path / "a\nforged: line\x1b[2J.yaml"
    name.write_text("game: whist\nevents: 3\n")
    r = CliRunner().invoke(main, ["adjudicate", str(name)])
    assert r.exit_code == 2
    assert "\x1b" not in r.stderr and "\nforged" not in r.stderr
    assert "a\\nforged: line\\x1b[2J.yaml" in r.stderr


# `adjudicate ' '` said ": no such file", and `adjudicate 'case.yaml '` "case.yaml : no such file": the
# name as written did not show (an empty one was quoted, '': no such file). Now quoted too.
@pytest.mark.parametrize("path, said", [(" ", "' ': no such file"), ("i.yaml ", "'i.yaml ': no such file"),
                                        ("\ti.yaml", "'\\ti.yaml': no such file")])
def test_a_file_name_with_spaces_at_an_end_is_quoted_so_that_they_show(tmp_path, monkeypatch, path, said):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["adjudicate", path])
    assert r.exit_code == 2 and r.stderr.startswith(said + "\n"), r.stderr
    r = CliRunner().invoke(main, ["adjudicate", path, "--json"])
    assert json.loads(r.stdout)["error"]["file"] == said.split(": ")[0]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_are_told_by_name_to_be_saved_as_utf8(tmp_path, encoding):
    p = tmp_path / "wide.yaml"
    p.write_bytes("game: whist\nevents: []\n".encode(encoding))
    with pytest.raises(InputError) as e:
        incident.load(str(p))
    assert f"this is {encoding[:6].upper()} text, not UTF-8" in e.value.message and "save it as UTF-8" in e.value.hint


def test_a_file_that_is_not_an_incident_is_not_quoted(tmp_path):
    p = tmp_path / "link.yaml"
    p.write_text("secret_password: hunter2\napi_key: abc\n")
    with pytest.raises(InputError) as e:
        incident.load(str(p))
    assert "this is not an incident" in e.value.message
    assert "hunter2" not in str(e.value) and "secret_password" not in str(e.value)


# ---------------------------------------------------------------------------------------------
# Output that cannot be written, and standard input read with the same bound by every command.
# ---------------------------------------------------------------------------------------------
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["codes"], ["adjudicate", "--json", CASE], ["law", "whist", "24"],
                                  ["--version"], ["-h"], ["adjudicate", "-h"]])   # (the last three: click's own output)
def test_a_full_disk_ends_with_a_message_and_a_non_zero_exit(args):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([_exe(), *args], stdout=full, stderr=subprocess.PIPE, timeout=30)
    err = r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in err
    assert "the output could not be written (no space left on device)" in err


# A usage error under --json (`adjudicate --json`, no file) whose JSON line could not be written
# ended in exit 2 with the usage message alone: the JSON lost without a word. It is now said, exit 1,
# as every other output that cannot be written.
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["adjudicate", "--json"], ["law", "whist", "--json"], ["serve", "--json"],
                                  ["codes", "--json", "extra"]])
def test_a_usage_error_s_json_on_a_full_disk_ends_with_a_message_and_a_non_zero_exit(args):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([_exe(), *args], stdout=full, stderr=subprocess.PIPE, timeout=30)
    err = r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in err
    assert "the output could not be written (no space left on device)" in err


@pytest.mark.parametrize("args", [["codes"], ["adjudicate", CASE]])
def test_a_closed_standard_output_ends_with_a_message_and_a_non_zero_exit(args):
    r = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', _exe(), *args], stderr=subprocess.PIPE, timeout=30)
    err = r.stderr.decode()
    assert r.returncode == 1 and "Traceback" not in err
    assert "standard output is closed" in err


@pytest.mark.parametrize("args", [["codes"], ["adjudicate", "--json", CASE], ["law", "whist", "24"]])
def test_a_closed_standard_error_does_not_turn_a_complete_output_into_a_failure(args):
    """`2>&-`: every command wrote its output whole and then ended with exit 1 (an AttributeError
    flushing Python's None for standard error)."""
    r = subprocess.run(["sh", "-c", 'exec "$0" "$@" 2>&-', _exe(), *args], stdout=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=60)
    assert r.returncode == 0 and r.stdout.strip()
    full = subprocess.run([_exe(), *args], capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    assert r.stdout == full.stdout


def test_ask_json_with_standard_error_closed_prints_the_json_alone(tmp_path):
    """`ask --json 2>&-`: the interview (said on standard error under --json) went to standard
    output, before the JSON, and the command ended in an internal error (exit 1)."""
    r = subprocess.run(["sh", "-c", 'exec "$0" "$@" 2>&-', _exe(), "ask", ASKED, "--json", "--save",
                        str(tmp_path / "s.yaml")], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=60)
    lines = r.stdout.decode().splitlines()
    assert r.returncode == 0 and len(lines) == 1, r.stdout[:300]
    assert json.loads(lines[0])["saved"] == str(tmp_path / "s.yaml")


def test_the_quiz_with_standard_input_closed_ends_as_at_the_end_of_its_answers(tmp_path):
    """`quiz <&-`: an internal error (AttributeError: None has no readline) after the first question."""
    r = subprocess.run(["sh", "-c", 'exec "$0" "$@" <&-', _exe(), "quiz", "-n", "1", "--seed", "1"],
                       capture_output=True, env={**os.environ, "ADJUDICATOR_DATA_DIR": str(tmp_path)}, timeout=60)
    err = r.stderr.decode()
    assert r.returncode == 0 and "internal error" not in err and "Traceback" not in err, err
    assert b"Law quiz: 1 question (seed 1)." in r.stdout


def test_serve_with_standard_error_closed_still_serves():
    """`serve 2>&-` stopped before listening, with exit 1 and no word (sys.stderr.flush on None)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(["sh", "-c", 'exec "$0" "$@" 2>&-', _exe(), "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        first = proc.stdout.readline().decode()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert first.startswith(f"Serving the referee's page at http://127.0.0.1:{port}/"), first


@pytest.mark.parametrize("args", [["codes"], ["adjudicate", CASE], ["law", "whist", "24"], ["--version"], ["-h"]])
def test_a_reader_gone_before_the_output_ends_it_quietly_as_sigpipe_ends_git(args):
    # (`adjudicator ... | head -c0`: the pipe's reading end closed before anything is written.
    # A reader that stops early is normal in a pipe (issue 46): the command ends as git, cat and
    # grep end there, killed by SIGPIPE, saying nothing; it was "the output could not be written
    # (broken pipe)", exit 1, kept now for a full disk alone)
    import signal
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([_exe(), *args], stdout=write_end, stderr=subprocess.PIPE, timeout=30)
    finally:
        os.close(write_end)
    assert r.returncode == -signal.SIGPIPE and r.stderr == b"", (r.returncode, r.stderr[-300:])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_serve_with_its_output_on_a_full_disk_says_so_and_does_not_blame_the_port():
    import socket
    with socket.socket() as s:          # a port free now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with open("/dev/full", "wb") as full:
        r = subprocess.run([_exe(), "serve", "--port", str(port)], stdout=full, stderr=subprocess.PIPE, timeout=30)
    err = r.stderr.decode()
    assert r.returncode == 1 and "cannot listen" not in err and "--port" not in err, err
    assert "the output could not be written (no space left on device)" in err


def test_compare_reads_standard_input_no_further_than_the_limit():
    rc, out, err, seconds = cli("compare", "-", stdin=open("/dev/zero", "rb"))
    refused(rc, out, err, seconds, message="over")


# ---------------------------------------------------------------------------------------------
# Settings and command-line values: refused with what was set, escaped and cut short, exit 2.
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["abc", "nan", "inf", "1e999", "", "0", "-5"])
def test_a_time_limit_that_is_not_one_is_refused_with_what_was_set(value):
    for args in (["adjudicate", CASE], ["adjudicate", "--json", CASE]):
        rc, out, err, _ = cli(*args, env={"ADJUDICATOR_TIME_LIMIT": value})
        assert rc == 2 and "Traceback" not in err and "internal error" not in err, err
        assert f"ADJUDICATOR_TIME_LIMIT is '{value}', which is not a time limit" in err
        assert "a number of seconds above 0" in err
    assert json.loads(out)["error"]["exit_code"] == 2


@pytest.mark.parametrize("folder", ["/dev/null", "/etc/passwd"])
def test_a_progress_folder_that_is_a_file_is_refused_with_its_name(folder):
    rc, out, err, _ = cli("quiz", "stats", "--json", env={"ADJUDICATOR_DATA_DIR": folder})
    assert rc == 2 and "internal error" not in err, err
    assert f"the progress folder '{folder}' cannot be made or used (it is not a folder)" in err
    assert json.loads(out)["error"]["hint"].startswith("set ADJUDICATOR_DATA_DIR to a folder")


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to /dev/zero", "link to nothing"])
def test_a_progress_file_that_is_not_a_file_is_refused_never_opened_or_moved_aside(tmp_path, kind):
    """A FIFO where the progress file goes made the quiz wait for ever (SQLite opened it); a
    folder or a link to nothing was moved aside as a damaged file."""
    path = tmp_path / "progress.sqlite3"
    {"fifo": lambda: os.mkfifo(path), "folder": path.mkdir, "link to /dev/zero": lambda: path.symlink_to("/dev/zero"),
     "link to nothing": lambda: path.symlink_to(tmp_path / "gone")}[kind]()
    rc, out, err, seconds = cli("quiz", "stats", "--json", env={"ADJUDICATOR_DATA_DIR": str(tmp_path)}, timeout=20)
    assert rc == 2 and f"the progress file {path} is not a regular file" in err, err
    assert json.loads(out)["error"]["hint"] == "move it away, or set ADJUDICATOR_DATA_DIR to another folder"
    assert sorted(os.listdir(tmp_path)) == ["progress.sqlite3"]


def test_a_progress_folder_that_takes_no_file_is_said_so_not_a_missing_file():
    """/proc takes no new file: the file never made was "moved aside" as damaged, and what was
    said was the generic "'/proc/progress.sqlite3': no such file or directory"."""
    rc, out, err, _ = cli("quiz", "stats", "--json", env={"ADJUDICATOR_DATA_DIR": "/proc"})
    assert rc == 2 and "the progress file /proc/progress.sqlite3 cannot be made (" in err, err
    assert json.loads(out)["error"]["hint"].startswith("set ADJUDICATOR_DATA_DIR to a folder")


def test_a_quiz_sheet_written_into_a_missing_folder_names_the_path(tmp_path):
    rc, out, err, _ = cli("quiz", "--sheet", "1", "--out", "/nonexistent/dir/sheet",
                          env={"ADJUDICATOR_DATA_DIR": str(tmp_path)})
    assert rc == 2 and "internal error" not in err, err
    assert "'/nonexistent/dir/sheet.md' cannot be written (its folder does not exist)" in err


@pytest.mark.parametrize("args", [["law", "whist", "24\x1b[2J"], ["law", "whist", "rev\u202eoke\rX\x07"],
                                  ["topic", "x\x1b]0;pwned\x07"], ["search", "re\x1b[2Jvoke\u202e"],
                                  ["ask", "--game", "wh\x1b[2Jist", "led"]])
def test_a_value_from_the_command_line_is_never_printed_raw(args):
    rc, out, err, _ = cli(*args)
    raw = [c for c in out + err if c in "\x1b\x07\r\u202e"]
    assert not raw, (out, err)
    assert "\\x1b" in out + err or "\\u202e" in out + err


@pytest.mark.parametrize("args", [["law", "whist", "24\x1b[2J\nforged: line"], ["law", "whist", "24.\nforged: line"],
                                  ["topic", "rev\nforged: line"], ["search", "--code", "x\nforged: line", "revoke"],
                                  ["serve", "--host", "no\nforged: line", "--port", "18099"]])
def test_a_newline_in_a_value_from_the_command_line_cannot_forge_a_line(args):
    rc, out, err, _ = cli(*args)
    assert rc == 2, err
    assert not any(line.startswith("forged") for line in (out + err).splitlines()), err
    assert "\\nforged: line" in err


@pytest.mark.parametrize("args", [["law", "whist", "9" * 100_000], ["law", "whist", "24." + "9" * 100_000],
                                  ["topic", "x" * 100_000], ["search", "--code", "x" * 100_000, "revoke"]])
def test_a_long_value_from_the_command_line_is_quoted_short(args, tmp_path):
    rc, out, err, _ = cli(*args, env={"ADJUDICATOR_DATA_DIR": str(tmp_path)})
    assert rc == 2 and len(err) < 400, err


@pytest.mark.parametrize("args", [["quiz", "--topic", "x" * 100_000], ["x" * 100_000]])
def test_a_long_value_the_quiz_or_click_quotes_is_cut(args, tmp_path):
    rc, out, err, _ = cli(*args, env={"ADJUDICATOR_DATA_DIR": str(tmp_path)})
    assert rc == 2 and len(err) < 2_000, len(err)


@pytest.mark.parametrize("args", [["quiz", "--json", "--code", "nosuch"], ["quiz", "stats", "--json"]])
def test_a_json_error_of_the_quiz_is_one_line_of_json(args):
    rc, out, err, _ = cli(*args, env={"ADJUDICATOR_DATA_DIR": "/dev/null"})
    lines = out.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and json.loads(lines[0])["error"]["exit_code"] == 2


@pytest.mark.parametrize("args, said", [
    (["adjudicate", "--json", "--jobs", "-1", CASE], "-1 is not in the range"),
    (["adjudicate", "--json"], "Missing argument 'FILES...'"),
    (["search", "revoke", "--limit", "0", "--json"], "0 is not in the range 1<=x<=500"),
    (["check", "--json", "-", ], "check runs case files named by path"),
])
def test_a_usage_error_under_json_is_one_line_of_json_too(args, said):
    rc, out, err, _ = cli(*args)
    lines = out.strip().splitlines()
    assert rc == 2 and len(lines) == 1, (out, err)
    error = json.loads(lines[0])["error"]
    assert error["exit_code"] == 2 and said in error["message"] and error["command"].startswith("adjudicator ")
    assert said in err                  # (and said on standard error, as without --json)


def test_a_usage_error_without_json_prints_nothing_on_standard_output():
    rc, out, err, _ = cli("adjudicate", "--jobs", "-1", CASE)
    assert rc == 2 and out == "" and "-1 is not in the range" in err


def test_check_refuses_standard_input_and_says_what_to_use():
    rc, out, err, _ = cli("check", "-", stdin=open(CASE, "rb"))
    assert rc == 2 and "not standard input" in err and "adjudicator adjudicate -" in err


def test_a_file_in_error_gives_the_same_json_line_alone_as_among_several(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: whist\ndealer: Q\nevents: []\n")
    rc1, alone, _, _ = cli("adjudicate", "--json", str(bad))
    rc2, several, _, _ = cli("adjudicate", "--json", str(bad), CASE)
    assert rc1 == rc2 == 2
    assert alone.splitlines() == several.splitlines()[:1]
    assert json.loads(alone)["error"]["file"] == str(bad) and list(json.loads(alone)) == ["error"]


# --- `adjudicator ask`: its answers read with the quiz's bound, its files checked as the quiz's ------
ASKED = os.path.join(ROOT, "cases", "whist", "american-1893",
                     "unknown-28-whether-the-renouncer-held-the-suit-led-decides-between-a-revoke-and-no-penalty.yaml")


def _ask_peak_kb(args, stdin_path, cwd):
    """`adjudicator ask ARGS < stdin_path` in a child of its own: (exit code, stderr, peak memory in KB)."""
    code = ("import resource, subprocess, sys\n"
            "with open(sys.argv[1], 'rb') as fh:\n"
            "    r = subprocess.run(sys.argv[2:], stdin=fh, capture_output=True, timeout=60)\n"
            "sys.stderr.write(r.stderr.decode('utf-8', 'replace'))\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    r = subprocess.run([sys.executable, "-c", code, stdin_path, _exe(), "ask", *args], capture_output=True,
                       text=True, timeout=90, cwd=cwd)
    rc, kb = r.stdout.split()
    return int(rc), r.stderr, int(kb)


def test_endless_zeros_on_standard_input_stop_ask_at_once_with_exit_2_not_gigabytes(tmp_path):
    rc, err, kb = _ask_peak_kb([ASKED], "/dev/zero", tmp_path)
    assert rc == 2, err
    assert "the interview stops: a line of input ran past 1048576 bytes without an end" in err
    assert "Traceback" not in err and "\x00" not in err and len(err.splitlines()[0]) < 400
    assert kb < 600_000                 # it grew to 3.1 GB in 6 s when answers were read by a bare readline
    assert not list(tmp_path.iterdir())      # stopped before anything was saved


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_given_for_ask_answers_is_refused_at_once(tmp_path, device):
    r = cli("ask", ASKED, "--answers", device, "--save", str(tmp_path / "out.yaml"), timeout=10)
    refused(*r, message=f"adjudicator ask --answers: cannot read the answers: '{device}' is not a regular file "
                       "(a device or a socket)")
    assert not (tmp_path / "out.yaml").exists()


def test_a_fifo_given_for_ask_answers_is_refused_without_waiting_for_a_writer(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "answers.txt")
    r = cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"), "--save", str(tmp_path / "o.yaml"),
            timeout=10)
    refused(*r, message="is not a regular file (a FIFO)")
    assert "hint: give a regular file with one answer a line" in r[2]


def test_a_fifo_given_for_ask_save_is_refused_before_any_question(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "saved.yaml")
    (tmp_path / "answers.txt").write_text("1\n")
    r = cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"), "--save", str(tmp_path / "saved.yaml"),
            timeout=10)
    refused(*r, message="adjudicator ask --save: cannot save the incident: '")
    assert "saved.yaml' is not a regular file (a FIFO)" in r[2] and "Did " not in r[1]    # no question asked
    r = cli("ask", "--game", "whist", "lead", "out", "of", "turn", "--answers", str(tmp_path / "answers.txt"),
            "--save", str(tmp_path / "saved.yaml"), timeout=10)
    refused(*r, message="saved.yaml' is not a regular file (a FIFO)")
    assert "Who dealt" not in r[1]


def test_a_regular_file_given_for_ask_save_is_replaced(tmp_path):
    (tmp_path / "saved.yaml").write_text("old old " * 10_000)
    (tmp_path / "answers.txt").write_text("1\n")
    rc, out, err, _ = cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"),
                          "--save", str(tmp_path / "saved.yaml"))
    assert rc == 0, err
    assert "old old" not in (tmp_path / "saved.yaml").read_text() and "holding" in (tmp_path / "saved.yaml").read_text()


# `--save /proc/sys/kernel/hostname` (a regular file to stat) passed the check, the interview ran,
# and the saved incident was written into the file: run as root, it renamed the machine, and the
# saved copy read back was "the file holds only comments". `--save /proc/version` (or a full disk)
# failed only when the file was closed: "the output could not be written ... nothing is complete",
# exit 1, naming no file, the file there already cut to nothing. Now a save (and a quiz sheet) is
# written beside its place and put there: a folder that takes no new file is refused before any
# question, and a write that fails is said as the save's, exit 2, the file there left whole.
def test_a_save_in_a_folder_that_takes_no_new_file_is_refused_before_any_question(tmp_path, monkeypatch):
    import errno
    import tempfile

    def no_file(*_a, **_k):
        raise OSError(errno.EROFS, "Read-only file system")
    (tmp_path / "answers.txt").write_text("1\n")
    monkeypatch.setattr(tempfile, "mkstemp", no_file)
    r = CliRunner().invoke(main, ["ask", ASKED, "--answers", str(tmp_path / "answers.txt"),
                                  "--save", str(tmp_path / "saved.yaml")])
    assert r.exit_code == 2, r.output
    assert ("saved.yaml' cannot be written: its folder takes no new file (read-only file system)" in r.stderr)
    assert "Did " not in r.stdout and not (tmp_path / "saved.yaml").exists()
    r = CliRunner().invoke(main, ["quiz", "--sheet", "1", "--seed", "1", "--out", str(tmp_path / "sheet")])
    assert r.exit_code == 2 and "sheet.md' cannot be written: its folder takes no new file" in r.stderr


def test_a_save_that_fails_as_it_is_written_is_said_as_the_save_s_and_leaves_the_file_whole(tmp_path, monkeypatch):
    import errno
    real = os.fdopen

    class Full:
        def __init__(self, fh):
            self._fh = fh

        def __getattr__(self, name):
            return getattr(self._fh, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()

        def close(self):
            self._fh.close()
            raise OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd, mode="r", *a, **k):
        fh = real(fd, mode, *a, **k)
        return Full(fh) if "w" in mode else fh
    (tmp_path / "saved.yaml").write_text("kept\n")
    (tmp_path / "answers.txt").write_text("1\n")
    monkeypatch.setattr(os, "fdopen", fdopen)
    r = CliRunner().invoke(main, ["ask", ASKED, "--answers", str(tmp_path / "answers.txt"),
                                  "--save", str(tmp_path / "saved.yaml")])
    monkeypatch.undo()
    assert r.exit_code == 2, r.output
    assert "cannot save the incident: '" in r.stderr
    assert "saved.yaml' cannot be written (no space left on device)" in r.stderr
    assert "output could not be written" not in r.stderr and "Traceback" not in r.output
    assert (tmp_path / "saved.yaml").read_text() == "kept\n"
    assert sorted(os.listdir(tmp_path)) == ["answers.txt", "saved.yaml"]     # nothing left beside it


def test_a_save_through_a_link_replaces_the_file_it_names_and_keeps_the_link(tmp_path):
    (tmp_path / "real.yaml").write_text("old\n")
    os.symlink("real.yaml", tmp_path / "link.yaml")
    (tmp_path / "answers.txt").write_text("1\n")
    r = CliRunner().invoke(main, ["ask", ASKED, "--answers", str(tmp_path / "answers.txt"),
                                  "--save", str(tmp_path / "link.yaml")])
    assert r.exit_code == 0, r.output
    assert os.path.islink(tmp_path / "link.yaml") and "holding" in (tmp_path / "real.yaml").read_text()


def test_a_save_folder_that_does_not_exist_is_refused_before_any_question(tmp_path):
    (tmp_path / "answers.txt").write_text("1\n")
    r = cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"), "--save", str(tmp_path / "no" / "s.yaml"))
    refused(*r, message="s.yaml' cannot be written (its folder does not exist)")
    assert "Did " not in r[1]


@pytest.mark.parametrize("save", ["", " "])
def test_a_save_given_empty_is_refused_before_any_question_not_taken_as_the_default(tmp_path, save):
    """`--save ''` saved to FILE-answered.yaml as if it had been left out (and `--save ' '` to a
    file named by a space)."""
    (tmp_path / "answers.txt").write_text("1\n")
    r = cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"), "--save", save)
    said = f"'{save}'" if save else "an empty argument"
    refused(*r, message=f"adjudicator ask --save: cannot save the incident: {said} names no file")
    assert "Did " not in r[1] and not os.path.exists(" ")


def test_answers_given_empty_are_refused_not_read_from_standard_input(tmp_path):
    """`--answers ''` read the answers from standard input as if it had been left out."""
    r = cli("ask", ASKED, "--answers", "", "--save", str(tmp_path / "s.yaml"))
    refused(*r, message="adjudicator ask --answers: cannot read the answers: an empty argument names no file")
    assert not (tmp_path / "s.yaml").exists()


@pytest.mark.parametrize("args", [[ASKED], ["--game", "whist", "lead", "out", "of", "turn"]])
def test_an_answer_in_digits_that_are_not_ascii_is_asked_again_not_an_internal_error(tmp_path, args, monkeypatch):
    """'²' passed str.isdigit() and failed int(): the interview ended in an internal error (ValueError)."""
    monkeypatch.setenv("ADJUDICATOR_DATA_DIR", str(tmp_path / "data"))   # (no draft of another test's)
    (tmp_path / "answers.txt").write_text("\u00b2\n\u0661\n1\n")
    rc, out, err, _ = cli("ask", *args, "--answers", str(tmp_path / "answers.txt"), "--save", str(tmp_path / "s.yaml"))
    assert "internal error" not in err + out and "Traceback" not in err + out, err
    # asked again: the interview's "Please answer 1-..", the builder's "... is none of the answers"
    assert "Please answer 1-" in out or out.count("is none of the answers: choose one of those listed") == 2


def test_spaces_around_a_name_are_not_part_of_it(tmp_path):
    # (the boundary of the test above: spaces are trimmed, control characters are refused)
    p = tmp_path / "n.yaml"
    p.write_text('game: whist\nplayers: {N: "  Ames ", E: Brown}\nevents: []\n')
    assert incident.load(str(p)).players["N"] == "Ames"


def test_a_fifo_where_ask_saves_by_default_is_refused_before_any_question(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    shutil.copy(ASKED, tmp_path / "u.yaml")
    os.mkfifo(tmp_path / "u-answered.yaml")             # FILE-answered.yaml in the current folder
    (tmp_path / "a.txt").write_text("1\n")
    t0 = time.monotonic()
    r = subprocess.run([_exe(), "ask", "u.yaml", "--answers", "a.txt"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=20)
    refused(r.returncode, r.stdout, r.stderr, time.monotonic() - t0,
            message="cannot save the incident: 'u-answered.yaml' is not a regular file (a FIFO)")
    assert "Did " not in r.stdout and "(--save FILE)" in r.stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_a_folder_given_for_ask_answers_is_refused_as_a_fifo_is(tmp_path, as_json):
    r = cli("ask", ASKED, "--answers", str(tmp_path), *(["--json"] if as_json else []), timeout=10)
    refused(*r, message="is not a regular file (a folder)")
    if as_json:
        assert r[1].count("\n") == 1 and json.loads(r[1])["error"]["command"] == "adjudicator ask --answers"


@pytest.mark.parametrize("line, said, hint", [
    ("score: [3, 5]", "score: expected a mapping (key: value), not '[3, 5]'", "`adjudicator events score`"),
    ("start: [3, N]", "start: expected a mapping (key: value), not '[3, N]'", "`adjudicator events start`"),
    ("candidates: Ames", "candidates: expected a list of names, not 'Ames'", "candidates: [Ames, Brown"),
])
def test_a_value_of_the_wrong_shape_is_quoted_with_a_fix(tmp_path, line, said, hint):
    p = tmp_path / "shape.yaml"
    p.write_text(f"game: whist\ndealer: S\n{line}\nevents:\n  - lead: {{by: W, card: KS}}\n")
    r = CliRunner().invoke(main, ["adjudicate", str(p)])
    assert r.exit_code == 2 and f"shape.yaml:3:" in r.stderr
    assert said in r.stderr and "hint: " in r.stderr and hint in r.stderr, r.stderr


@pytest.mark.parametrize("event, good, bad", [
    ("take-up-stock: {by: younger, position: %d}", 8, 9),       # the stock's eight places (law 27)
    ("count-stock: {by: elder, count: %d}", 32, 33),            # a piquet pack holds 32
    ("call: {by: elder, what: point, count: %d, value: 41}", 8, 9),   # a suit holds eight cards
])
def test_a_number_the_cards_bound_is_refused_past_the_bound(tmp_path, event, good, bad):
    for n, ok in ((good, True), (bad, False)):
        p = tmp_path / "pq.yaml"
        p.write_text("game: piquet\nplayers: {elder: Ames, younger: Brown}\nevents:\n  - " + event % n + "\n")
        r = CliRunner().invoke(main, ["adjudicate", str(p)])
        assert ("out of range" in r.stderr) != ok, (n, r.output)
        assert r.exit_code in ((0, 2) if ok else (2,))


@pytest.mark.parametrize("head, last", [
    ("game: whist\ndealer: S", 13),
    ("game: piquet\nplayers: {elder: Ames, younger: Brown}", 12),          # twelve cards a hand
    ("game: german-whist\nplayers: {elder: Ames, younger: Brown}\ntrump: hearts", 26),   # the talon's 13, then 13
    ("game: loo\nplayers: {p1: Ames, p2: Brown, p3: Clark}\ndealer: p1\ntrump: 5H", 5),  # five at five-card loo
])
def test_a_trick_is_numbered_up_to_the_games_last(tmp_path, head, last):
    for n, ok in ((last, True), (last + 1, False)):
        p = tmp_path / "t.yaml"
        leader = "elder" if "elder" in head else "p2" if "p1" in head else "W"
        p.write_text(f"{head}\nstart: {{trick: {n}, leader: {leader}}}\nevents: []\n")
        r = CliRunner().invoke(main, ["adjudicate", str(p)])
        assert (f"start.trick: {n} is out of range (1 to {last})" in r.stderr) != ok, (n, r.output)


def test_a_value_is_quoted_as_yaml_writes_it_read_or_plain():
    """incident.shown, for every message: a value as written when read, a plain one (a
    possibility of an unknown fact, a list of them) as YAML writes it; a list of plain values
    failed (AttributeError), and None was quoted None."""
    from adjudicator.core.values import Y, shown
    assert [shown(v) for v in (None, True, False, "W", 3)] == ["~", "true", "false", "W", "3"]
    assert shown(["N", None, [True]]) == "[N, ~, [true]]" and shown({"u1": "W"}) == "{u1: W}"
    assert shown(Y(True, 1, 1, "yes")) == "yes" and shown(Y([Y(7, 1, 2, "007")], 1, 1)) == "[007]"


def test_a_number_chosen_is_ascii_digits_within_its_range():
    """reading.chosen_number, read by every choice a user writes (ask, the opening, the quiz, the
    web interview, the API's limit, the quiz page's seed)."""
    from adjudicator.core import reading
    assert reading.chosen_number("3", 1, 3) == 3 and reading.chosen_number("0", 0, 0) == 0
    assert reading.chosen_number("4", 1, 3) is None and reading.chosen_number("", 0, 9) is None
    for written in ("²", "١", "\U0001d7d1", "-1", "+1", " 1", "1.0", "9" * 5000):
        assert reading.chosen_number(written, 0, 10**20) is None, written


# --- host7 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("written", ["17. II", "17 .ii", " 17 . II "])
def test_spaces_beside_a_clauses_dot_name_the_same_clause(written):
    """`law whist "17. II"` said law 17 had no clause ' II'."""
    r = CliRunner().invoke(main, ["law", "whist", written, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["clause"] == "II"


@pytest.mark.parametrize("written, fix", [("17 II", "17.II"), ("17 ii", "17.II"), ("24 boston", "24.boston")])
def test_a_clause_named_after_a_space_is_refused_with_the_dot(written, fix):
    r = CliRunner().invoke(main, ["law", "whist", written])
    assert r.exit_code == 2 and f"has no law '{written}'" in r.stderr
    assert f"with a dot: `adjudicator law american-1893 {fix}`" in r.stderr, r.stderr


@pytest.mark.parametrize("words, cword, expect", [
    ("adjudicator law WH", "2", "whist"), ("adjudicator events LEA", "2", "lead"),
    ("adjudicator ask --game PIQ", "3", "piquet"), ("adjudicator quiz --code Amer", "3", "american-1893"),
    ("adjudicator compare x.yaml --codes american-1893,ENG", "4", "american-1893,english-1864")])
def test_shell_completion_matches_in_any_case_as_the_commands_read_codes_and_events(words, cword, expect):
    """The commands take `law WHIST 24`, `events LEAD`; TAB completed only what was typed in lower case."""
    r = CliRunner().invoke(main, [], prog_name="adjudicator",
                           env={"_ADJUDICATOR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": cword})
    assert f"plain,{expect}" in r.output.splitlines(), r.output


@pytest.mark.parametrize("args, said", [
    (["adjudicate", ""], "adjudicator: an empty argument names no incident file"),
    (["compare", ""], "adjudicator: an empty argument names no incident file"),
    (["ask", ""], "adjudicator: an empty argument names no incident file"),
    (["check", ""], "adjudicator: an empty argument names no file or folder"),
    (["law", "", "24"], "adjudicator law: no code or game is named: the argument is empty"),
    (["search", "revoke", "--code", ""], "adjudicator search --code: no code or game is named: the argument is empty"),
    (["search", ""], "adjudicator search: nothing to search for: the words are empty"),
    (["search", " ", "\t"], "adjudicator search: nothing to search for: the words are only blanks"),   # (quoted '')
    (["topic", ""], "adjudicator topic: no topic is named: the argument is empty"),
    (["compare", CASE, "--codes", ""], "adjudicator compare: --codes is empty: it names no code"),
    (["quiz", "--topic", ""], "adjudicator quiz: --topic is empty: it names nothing"),
    (["quiz", "--sheet", "1", "--out", ""], "adjudicator quiz --out: it is empty: it names no file"),
    (["ask", "--game", "", "lead"], "adjudicator ask --game: no game is named: it is empty"),
    (["serve", "--host", ""], "adjudicator serve: --host is empty: it names no address to listen on"),
])
def test_an_empty_argument_is_said_to_be_empty_with_the_fix_not_quoted_as_two_quotes(args, said):
    """Each was quoted '' ("'': no such file", "no topic ''"), a mark easily read as a typing slip."""
    r = CliRunner().invoke(main, args, input="")
    assert r.exit_code == 2 and r.stderr.startswith(said + "\n  hint: "), r.stderr
    assert "''" not in r.stderr.splitlines()[0]
    if args[0] == "topic":      # every topic's title holds '': all were offered as near
        assert "did you mean" not in r.stderr


def test_a_long_path_that_cannot_be_opened_is_quoted_by_its_end(tmp_path):
    """A 300-character missing path was printed whole (cut only past 300, from its start, the
    file's own name lost); `check` cut it at 80 from its start."""
    long = "/".join(["abcdefghi"] * 29) + "/missing-case.yaml"
    for args in (["adjudicate", long], ["adjudicate", "--json", long], ["check", long]):
        r = CliRunner().invoke(main, args)
        first = r.stderr.splitlines()[0]
        assert r.exit_code == 2 and "missing-case.yaml" in first and len(first) < 160, r.stderr
        assert "..." in first and long not in r.stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_in_the_interview_is_said_stopped_exit_130_nothing_saved(tmp_path, as_json):
    """Ctrl-C at a question of `ask` printed click's "Aborted!" and exit 1, the code of an internal
    fault; --json printed no line at all."""
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "s.yaml"
    child = pexpect.spawn(_exe(), ["ask", "--game", "whist", "lead", "out", "of", "turn", "--save", str(save),
                                   *(["--json"] if as_json else [])],
                          encoding="utf-8", timeout=30, cwd=str(tmp_path))
    child.expect("> ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    said = child.before
    assert child.exitstatus == 130, said
    assert "stopped (Ctrl-C)" in said and "Aborted!" not in said and "Traceback" not in said
    if as_json:
        line = [ln for ln in said.splitlines() if ln.startswith("{")][-1]
        assert json.loads(line)["error"]["exit_code"] == 130
    assert not save.exists()


@pytest.mark.parametrize("args", [["search", "--json", "re\u00advoke"], ["search", "--json", "re\u200bvoke"],
                                  ["topic", "--json", "re\u00advoke"]])
def test_a_soft_hyphen_or_zero_width_space_inside_a_word_is_read_as_nothing(args):
    """`search re<soft hyphen>voke` (a word copied from a PDF) said "No law matches", the word drawn
    as `revoke` on the screen; `topic` said no such topic."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    if args[0] == "search":
        assert data["results"] and data["results"][0]["code"] and "revoke" in json.dumps(data["results"][0]).lower()


@pytest.mark.parametrize("as_json", [False, True])
def test_check_on_a_folder_without_cases_says_so_with_a_hint_and_its_json_line(tmp_path, as_json):
    """`check EMPTY-FOLDER` said a bare "no case files found" (no `adjudicator:`, no hint), and
    with --json printed no line: the only refusal of check that left --json without one."""
    r = CliRunner().invoke(main, ["check", str(tmp_path), *(["--json"] if as_json else [])])
    assert r.exit_code == 2
    assert r.stderr.startswith("adjudicator: no case files found: the folders given hold no .yaml file\n  hint: ")
    if as_json:
        assert json.loads(r.stdout)["error"]["exit_code"] == 2
    else:
        assert r.stdout == ""


@pytest.mark.parametrize("game, hint", [("piquet", "hint: rule under portland-club alone"),
                                        ("boston", "e.g. --codes boston-1893,american-1893")])
def test_compare_without_codes_on_a_game_of_one_code_is_refused_as_one_code_given_is(game, hint):
    """`compare PIQUET-CASE` printed a "comparison" of one code, "The codes give the same remedies",
    exit 0, where `--codes portland-club` is refused: a comparison needs two or more."""
    path = next(p for p in sorted(__import__("glob").glob(os.path.join(ROOT, "cases", "**", "*.yaml"), recursive=True))
                if f"\ngame: {game}\n" in open(p, encoding="utf-8").read() and "unknown" not in open(p, encoding="utf-8").read())
    r = CliRunner().invoke(main, ["compare", path, "--json"])
    assert r.exit_code == 2, r.output
    err = json.loads(r.stdout)["error"]
    assert err["file"] == path and err["line"] and "is ruled by one code" in err["message"], err
    assert hint in r.stderr


@pytest.mark.parametrize("host,why", [("a" * 64, "label too long"), ("a" * 5000, "label too long"),
                                      ("a..b", "label empty or too long")])
def test_a_host_that_is_no_host_name_is_refused_not_an_internal_error(host, why):
    """`serve --host` with a label over 63 characters was 'internal error (UnicodeError)'."""
    r = CliRunner().invoke(main, ["serve", "--host", host, "--port", "18097"])
    assert r.exit_code == 2 and "internal error" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"adjudicator serve: cannot listen on {host[:40]}") and \
        f": this is not a host name ({why})\n  hint: give --host an address" in r.stderr, r.stderr


@pytest.mark.parametrize("args,said", [
    (["search", "caf\udce9", "revoke"], "adjudicator search: the words to search for are not UTF-8 text "
                                        "(byte 0xe9: 'caf\\xe9 revoke')"),
    (["law", "whist", "\udcff"], "adjudicator law: american-1893 has no law '\\xff'"),
    (["adjudicate", "\udcff.yaml"], "\\xff.yaml: no such file"),
    (["topic", "\udcff"], "adjudicator topic: no topic '\\xff'"),
])
def test_a_byte_that_is_not_utf8_on_the_command_line_is_said_as_that_byte(args, said):
    """A byte that is not UTF-8 in an argument reaches Python as a lone surrogate: `search $'\\xff'`
    was 'internal error (UnicodeEncodeError)' (SQLite cannot take it), and every message quoted
    it as '\\udcff', a character the user never wrote."""
    for as_json in (False, True):
        r = CliRunner().invoke(main, args + (["--json"] if as_json else []))
        assert r.exit_code == 2 and r.stderr.startswith(said + "\n"), r.stderr
        assert "internal error" not in r.stderr and "udc" not in r.stderr + r.stdout


@pytest.mark.parametrize("args,said", [
    (["search", "revoke", "--limit", "\uff13"], "'\uff13' is not a whole number in plain digits (0-9)"),
    (["quiz", "--seed", "\u0661", "-n", "1"], "'\u0661' is not a whole number in plain digits (0-9)"),
    (["quiz", "--seed", "1_000", "-n", "1"], "'1_000' is not a whole number in plain digits (0-9)"),
    (["adjudicate", "-j", "\uff12", CASE], "'\uff12' is not a whole number in plain digits (0-9)"),
    (["quiz", "--seed", "9" * 5000, "-n", "1"], "'99999999999999999999...' has 5,000 digits: at most 100"),
])
def test_a_number_on_the_command_line_is_plain_digits_as_the_api_and_the_incident_read_it(args, said):
    """click's int() read '３' (fullwidth) as 3 and '١' (Arabic-Indic) as 1, where
    `/api/search?limit=３` is refused; 5,000 digits were quoted whole."""
    for as_json in (False, True):
        rc, out, err, _ = cli(*args, *(["--json"] if as_json else []))
        assert rc == 2 and said in err and len(err) < 400, err
        if as_json:
            assert said in json.loads(out)["error"]["message"]


# ---------------------------------------------------------------------------------------------
# Files opened as their owner meant (issue 45, 2): in a folder others may write (mode 1777, /tmp),
# a link another user planted is not followed, nor a file of another user replaced; the quiz never
# writes into a database that is not its own; a file that is no incident, a system file through a
# link above all, is named, never quoted.
# ---------------------------------------------------------------------------------------------
OTHER = 65534           # another user (nobody): root hands files and links to it


def _as_root():
    if os.getuid() != 0:
        pytest.skip("only root can make a file or a link that belongs to another user")


def _shared(tmp_path):
    """A folder anyone may write, as /tmp is (mode 1777)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    return shared


def _planted(link, target):
    """A link another user put there."""
    os.symlink(target, link)
    os.lchown(link, OTHER, OTHER)


def _ask_save(tmp_path, save):
    (tmp_path / "answers.txt").write_text("1\n")
    return cli("ask", ASKED, "--answers", str(tmp_path / "answers.txt"), "--save", str(save))


@pytest.mark.parametrize("victim", ["a file of the user's", "a file not made yet"])
def test_ask_save_does_not_follow_a_link_another_user_planted_in_a_shared_folder(tmp_path, victim):
    """`ask --save /tmp/x.yaml`, where another user had put x.yaml -> the user's ~/.bashrc: the save
    replaced the file the link named (or made it, where it was not yet)."""
    _as_root()
    shared = _shared(tmp_path)
    target = tmp_path / "bashrc"
    if victim == "a file of the user's":
        target.write_text("the user's own\n")
    _planted(shared / "saved.yaml", target)
    r = _ask_save(tmp_path, shared / "saved.yaml")
    refused(*r, message="saved.yaml' is a link that belongs to another user (uid 65534): it is not followed")
    assert "Did " not in r[1]
    assert (target.read_text() == "the user's own\n") if victim == "a file of the user's" else not target.exists()
    assert os.path.islink(shared / "saved.yaml")


def test_ask_save_does_not_follow_a_planted_link_on_the_way_to_the_file(tmp_path):
    """A folder on the path that is a link another user planted in a shared folder (the kernel's
    protected_symlinks rule): not followed."""
    _as_root()
    shared = _shared(tmp_path)
    (tmp_path / "home").mkdir()
    _planted(shared / "work", tmp_path / "home")
    r = _ask_save(tmp_path, shared / "work" / "saved.yaml")
    refused(*r, message="passes through a link that another user (uid 65534) put in a folder others can write")
    assert not (tmp_path / "home" / "saved.yaml").exists()


def test_ask_save_does_not_replace_another_users_file_in_a_shared_folder(tmp_path):
    """A file of another user in a shared folder (the kernel's protected_regular rule)."""
    _as_root()
    shared = _shared(tmp_path)
    theirs = shared / "saved.yaml"
    theirs.write_text("theirs\n")
    os.chown(theirs, OTHER, OTHER)
    r = _ask_save(tmp_path, theirs)
    refused(*r, message="saved.yaml' belongs to another user (uid 65534), in a folder others can write")
    assert theirs.read_text() == "theirs\n" and os.stat(theirs).st_uid == OTHER


def test_ask_save_through_the_users_own_link_to_another_users_file_is_refused(tmp_path):
    _as_root()
    theirs = tmp_path / "theirs.yaml"
    theirs.write_text("theirs\n")
    os.chown(theirs, OTHER, OTHER)
    os.symlink(theirs, tmp_path / "link.yaml")
    r = _ask_save(tmp_path, tmp_path / "link.yaml")
    refused(*r, message="link.yaml' is a link to a file that belongs to another user (uid 65534)")
    assert theirs.read_text() == "theirs\n"


def _other_programs_database(path):
    import sqlite3
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT, balance INTEGER)")
    db.execute("INSERT INTO accounts VALUES (1, 'jo', 100)")
    db.commit()
    db.close()
    return path.read_bytes()


def _quiz_answers(tmp_path, data_dir):
    return cli("quiz", "stats", "--json", env={"ADJUDICATOR_DATA_DIR": str(data_dir)})


@pytest.mark.parametrize("how", ["the file itself", "the user's own link to it"])
def test_the_quiz_never_writes_into_another_programs_database(tmp_path, how):
    """The progress file a link to another program's SQLite file (or that file itself): the quiz
    wrote its tables into it. Refused, exit 2, the file left byte for byte as it was."""
    other = tmp_path / "other.sqlite"
    before = _other_programs_database(other)
    data = tmp_path / "data"
    data.mkdir()
    if how == "the file itself":
        os.replace(other, data / "progress.sqlite3")
        other = data / "progress.sqlite3"
    else:
        os.symlink(other, data / "progress.sqlite3")
    rc, out, err, _ = _quiz_answers(tmp_path, data)
    assert rc == 2 and "is not the quiz's progress database (it holds the table accounts)" in err, err
    assert json.loads(out)["error"]["hint"].startswith("move it away")
    assert other.read_bytes() == before
    assert sorted(os.listdir(data)) == ["progress.sqlite3"]


@pytest.mark.parametrize("meta", ["CREATE TABLE meta (k TEXT, v TEXT)",
                                  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                                  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); "
                                  "INSERT INTO meta VALUES ('schema', '7')"],
                         ids=["another meta", "no schema in it", "another schema"])
def test_a_database_with_a_meta_table_that_is_not_the_quizs_is_refused_never_altered(tmp_path, meta):
    import sqlite3
    data = tmp_path / "data"
    data.mkdir()
    path = data / "progress.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(meta)
    db.commit()
    db.close()
    before = path.read_bytes()
    rc, out, err, _ = _quiz_answers(tmp_path, data)
    assert rc == 2 and "progress.sqlite3 is not the quiz's progress database" in err, err
    assert path.read_bytes() == before and sorted(os.listdir(data)) == ["progress.sqlite3"]


def test_the_quiz_does_not_follow_a_link_another_user_planted_in_a_shared_data_folder(tmp_path):
    _as_root()
    shared = _shared(tmp_path)
    other = tmp_path / "other.sqlite"
    before = _other_programs_database(other)
    _planted(shared / "progress.sqlite3", other)
    rc, out, err, _ = _quiz_answers(tmp_path, shared)
    assert rc == 2 and "is a link that belongs to another user (uid 65534): it is not followed" in err, err
    assert other.read_bytes() == before


def test_the_quizs_own_database_and_a_new_one_are_used(tmp_path):
    """The refusals above leave the quiz's own file alone: a new one is made, and read after."""
    data = tmp_path / "data"
    for _ in range(2):
        rc, out, err, _ = _quiz_answers(tmp_path, data)
        assert rc == 0 and json.loads(out)["answers"] == 0, err


@pytest.mark.parametrize("target", ["/etc/shadow", "/etc/passwd", "/proc/self/status", "/etc/os-release"])
def test_a_system_file_through_a_link_is_named_never_quoted(tmp_path, target):
    """An incident given as a link to /etc/shadow: its first line was quoted back in the error
    ("root:*:20228:0:99999:7::: nothing is written after the colon")."""
    if not os.access(target, os.R_OK):
        pytest.skip(f"{target} cannot be read here")
    link = tmp_path / "incident.yaml"
    os.symlink(target, link)
    (tmp_path / "no-answers.txt").write_text("")
    with open(target, "rb") as fh:
        words = {w for w in fh.read(4096).decode("utf-8", "replace").replace(":", " ").replace("=", " ").split()
                 if len(w) >= 3}
    for args in (["adjudicate", str(link)], ["adjudicate", "--json", str(link)],
                 ["ask", str(link), "--answers", str(tmp_path / "no-answers.txt")]):
        rc, out, err, _ = cli(*args)
        assert rc == 2, err
        assert "incident.yaml" in err + out and target in err + out
        said = set((err + out).replace(str(link), "").replace(target, "").replace(":", " ").replace('"', " ").split())
        assert not (words & said) - _OURS, (args, said)


# words of the refusal itself, which a system file may hold too
_OURS = set("this the file not incident system link adjudicator error give your and nothing shown "
            "hint path itself its any one that was are for with here".split())


def test_another_users_private_file_is_named_never_quoted(tmp_path):
    """A file of another user that others may not read (root reads it all the same)."""
    _as_root()
    private = tmp_path / "private.yaml"
    private.write_text("password_of_theirs: hunter2\nsecond_key:\n")
    os.chown(private, OTHER, OTHER)
    os.chmod(private, 0o600)
    rc, out, err, _ = cli("adjudicate", str(private))
    assert rc == 2 and "private.yaml" in err
    assert "hunter2" not in err + out and "password_of_theirs" not in err + out and "second_key" not in err + out
