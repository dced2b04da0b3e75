"""Random incidents, built from the schema: each must end in a ruling or a clean refusal (exit 2).

A rule set that gives no answer, or more than one, for some account (an odd loop through "not", a
missing case) shows up here as an InternalError, whatever the cases happen to cover.
"""
import string

from hypothesis import event, given, settings
from hypothesis import strategies as st

from adjudicator.core import engine, incident, registry, ruling, schema
from adjudicator.errors import AdjudicatorError, InternalError

SEATS = ["N", "E", "S", "W"]
NAMES = ["Ames", "Brown", "Clark", "Dodd", "Ellis", "Ford"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUITS = ["S", "H", "D", "C"]
cards = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))


def value(f: schema.Field, forming: bool):
    t = f.type
    if f.choices:
        return st.sampled_from(f.choices)
    if t == "seat":
        return st.sampled_from(SEATS)
    if t == "seats":
        return st.sampled_from(["N-S", "E-W"])
    if t == "person":
        return st.sampled_from(NAMES if forming else SEATS)
    if t == "names":
        return st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True)
    if t == "card":
        return cards
    if t == "cards":
        return st.one_of(cards, st.lists(cards, min_size=1, max_size=3, unique=True))
    if t == "holding":
        return st.one_of(cards, st.sampled_from(["spades", "hearts", "diamonds", "clubs"]))
    if t in ("suit",):
        return st.sampled_from(["spades", "hearts", "diamonds", "clubs"])
    if t == "suits":
        return st.sampled_from(["spades", "hearts"])
    if t == "int":
        return st.integers(0, 6)
    if t == "trick":
        return st.integers(1, 13)
    if t == "bool":
        return st.booleans()
    if t == "remedy":
        return st.sampled_from(registry.remedy_ids())
    if t == "side-scores":
        return st.fixed_dictionaries({"N-S": st.integers(0, 13), "E-W": st.integers(0, 13)})
    return st.text(string.ascii_letters, max_size=8)


@st.composite
def events(draw, forming):
    name = draw(st.sampled_from(sorted(schema.EVENTS)))
    ev = schema.EVENTS[name]
    fields = {}
    for f in ev.fields:
        if f.required or draw(st.booleans()):
            fields[f.name] = draw(value(f, forming))
    if name == "wrong-number":
        fields.pop("surplus", None)
        fields["missing"] = 1
    return {name: fields}


@st.composite
def incidents(draw):
    forming = draw(st.booleans()) and draw(st.booleans())
    inc = {"game": "whist", "dealer": draw(st.sampled_from(SEATS)),
           "trump": draw(st.sampled_from(["hearts", "spades", "7H"]))}
    if forming:
        inc["candidates"] = NAMES
    elif draw(st.booleans()):
        inc["start"] = {"trick": draw(st.integers(1, 13)), "leader": draw(st.sampled_from(SEATS))}
    if draw(st.booleans()):
        inc["score"] = {"N-S": draw(st.integers(0, 6)), "E-W": draw(st.integers(0, 6))}
    inc["events"] = draw(st.lists(events(forming), min_size=1, max_size=14))
    return inc


def _yaml(inc) -> str:
    import yaml
    return yaml.safe_dump(inc, sort_keys=False)


@given(incidents())     # as many examples as the profile draws (tests/conftest.py)
def test_every_account_gets_a_ruling_or_a_clean_refusal(inc):
    text = _yaml(inc)
    try:
        parsed = incident.parse(text, "random.yaml")
        result = ruling.build(parsed, engine.solve(parsed))
    except InternalError as e:  # a fault in the rules: no answer, or more than one
        raise AssertionError(f"{e}\n--- incident ---\n{text}")
    except AdjudicatorError as e:
        assert e.exit_code == 2, f"{e}\n{text}"
        return
    assert result["rulings"], text
    for r in result["rulings"]:
        assert r["laws"], f"a ruling without a law:\n{r}\n{text}"
    from tests.test_texts import faults
    assert not faults(result), f"a text with a placeholder left or a word doubled:\n{faults(result)}\n{text}"


# ---------------------------------------------------------------------------------------------
# Mutated incidents: the real case files, broken the ways people (and attackers) break them.
# ---------------------------------------------------------------------------------------------
import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402

import yaml  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from adjudicator.cli import main  # noqa: E402

from .conftest import CASES  # noqa: E402

HOSTILE = ['x). #include "/etc/passwd".', "#script (python) import os #end.", '"\\\'', "a\nb", "\t",
           "&a", "*a", "!!python/object:os.system", "<<", "{", "[", "---", "\x00", "\x1b[2J", "\u202e",
           "9" * 5000, "", "~", "null", "true", "-1", "1e999", "ЖЖ", "🂡", "x" * 300]
CARDS = [r + s for s in "SHDC" for r in "A K Q J 10 9 8 7 6 5 4 3 2".split()] + ["1S", "ZZ", "10", "KX"]
SEATWORDS = ["N", "E", "S", "W", "north", "Ames", "Smith", "N-S", "X"]


@functools.cache
def _case(path):
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.pop("expected", None)
    data.pop("name", None)
    return data


def _misspell(draw, word):
    word = str(word)
    i = draw(st.integers(0, max(len(word) - 1, 0)))
    how = draw(st.sampled_from(["drop", "double", "swap", "letter"]))
    if how == "drop" and word:
        return word[:i] + word[i + 1:]
    if how == "double":
        return word[:i] + word[i:i + 1] * 2 + word[i + 1:]
    if how == "swap" and len(word) > 1:
        j = min(i + 1, len(word) - 1)
        w = list(word)
        w[i], w[j] = w[j], w[i]
        return "".join(w)
    return word[:i] + draw(st.sampled_from(string.ascii_lowercase)) + word[i + 1:]


def _mutate_data(draw, data):
    events = data.get("events") if isinstance(data.get("events"), list) else []
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "misspell-event", "misspell-field",
                               "misspell-top", "card", "seat", "hostile-value", "hostile-name",
                               "number", "drop-field", "hostile-event"]))
    if op in ("delete", "duplicate", "swap") and events:
        i = draw(st.integers(0, len(events) - 1))
        if op == "delete":
            events.pop(i)
        elif op == "duplicate":
            events.insert(draw(st.integers(0, len(events))), json.loads(json.dumps(events[i])))
        else:
            j = draw(st.integers(0, len(events) - 1))
            events[i], events[j] = events[j], events[i]
        return
    if op == "misspell-top":
        key = draw(st.sampled_from(sorted(data)))
        data[_misspell(draw, key)] = data.pop(key)
        return
    if op == "hostile-name":
        data["players"] = {s: draw(st.sampled_from(HOSTILE + ["Ames", "Brown"])) for s in "NESW"}
        return
    if op == "hostile-event":
        events.insert(draw(st.integers(0, len(events))), {draw(st.sampled_from(HOSTILE)): {"by": "N"}})
        return
    if not events:
        return
    ev = draw(st.sampled_from(events))
    if not isinstance(ev, dict) or len(ev) != 1:
        return
    (name, body), = ev.items()
    if op == "misspell-event":
        ev[_misspell(draw, name)] = ev.pop(name)
        return
    if not isinstance(body, dict) or not body:
        return
    field = draw(st.sampled_from(sorted(body)))
    if op == "misspell-field":
        body[_misspell(draw, field)] = body.pop(field)
    elif op == "drop-field":
        body.pop(field)
    elif op == "card":
        body["card"] = draw(st.sampled_from(CARDS))
    elif op == "seat":
        body[draw(st.sampled_from(["by", field]))] = draw(st.sampled_from(SEATWORDS))
    elif op == "number":
        body[field] = draw(st.sampled_from([0, -1, 14, 13, 10 ** 30, 2.5, True, None]))
    else:
        body[field] = draw(st.sampled_from(HOSTILE))


def _mutate_text(draw, data: bytes) -> bytes:
    op = draw(st.sampled_from(["truncate", "insert", "drop-line", "tab"]))
    i = draw(st.integers(0, len(data)))
    if op == "truncate":
        return data[:i]
    if op == "insert":
        junk = draw(st.sampled_from([b"\x00", b"\xff\xfe", b"\t", b"{", b"]", b"&a ", b"*a", b" !!str ",
                                     b"\n---\n", b": ", b"\r", b"\xef\xbb\xbf", b"- ", b"#"]))
        return data[:i] + junk + data[i:]
    lines = data.split(b"\n")
    k = draw(st.integers(0, max(len(lines) - 1, 0)))
    if op == "drop-line":
        del lines[k]
    else:
        lines[k] = b"\t" + lines[k]
    return b"\n".join(lines)


@st.composite
def mutated(draw):
    path = draw(st.sampled_from(CASES))
    data = json.loads(json.dumps(_case(path)))  # a fresh copy to mutate
    for _ in range(draw(st.integers(1, 3))):
        _mutate_data(draw, data)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True).encode("utf-8")
    if draw(st.integers(0, 3)) == 0:
        text = _mutate_text(draw, text)
    return os.path.basename(path), text


LINE = re.compile(r"^<stdin>:\d+:\d+: ")


@settings(max_examples=2 * settings.default.max_examples)   # twice the profile's draw
@given(mutated(), st.booleans())
def test_a_mutated_case_gets_a_ruling_or_an_error_naming_the_line(case, as_json):
    """Through the command, on standard input: exit 0 with rulings, or exit 2 with a message that
    names the line (each contradiction names its lines); never exit 1, a traceback, or a wait
    past the time limit."""
    source, data = case
    t0 = time.monotonic()
    r = CliRunner().invoke(main, ["adjudicate", *(["--json"] if as_json else []), "-"], input=data)
    seconds = time.monotonic() - t0
    shown = f"(mutated from {source})\n{data.decode('utf-8', 'replace')}\n--- gave exit {r.exit_code}:\n{r.output}"
    assert seconds < engine.DEFAULT_TIMEOUT, shown
    assert r.exit_code in (0, 2), shown
    assert "Traceback" not in r.output, shown
    event(f"exit {r.exit_code}" + (": contradiction" if "cannot have happened" in r.stderr else ""))
    if r.exit_code == 0:
        assert r.stderr == "", shown
        if as_json:
            out = json.loads(r.stdout)
            # with unknown facts, what holds whatever they were may be nothing (docs/unknowns.md):
            # the answer is then in the conditional rulings, each branch with its own
            assert out["rulings"] or (out.get("conditional")
                                      and all(c["rulings"] for c in out["conditional"])), shown
        else:
            assert "[law" in r.stdout, shown
        return
    if r.stderr.startswith("<stdin>: this incident cannot have happened as described:"):
        problems = [ln for ln in r.stderr.splitlines() if ln.startswith("  - ")]
        assert problems and all(re.search(r"\bline \d+\b", p) for p in problems), shown
    else:
        assert LINE.match(r.stderr), shown
    if as_json:
        assert json.loads(r.stdout)["error"]["exit_code"] == 2, shown
