"""Random incidents, built from the schema: each must end in a ruling or a clean refusal (exit 2).

A rule set that gives no answer, or more than one, for some account (an odd loop through "not", a
missing case) shows up here as an InternalError, whatever the cases happen to cover.
"""
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import engine, incident, registry, ruling, schema
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


@settings(max_examples=int(__import__("os").environ.get("RANDOM_INCIDENTS", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(incidents())
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
