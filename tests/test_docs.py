"""docs/incident-format.md and the schema in code say the same thing."""
from pathlib import Path

from adjudicator.lookup import formatdoc as docs
from adjudicator.core import registry, schema

DOC = Path(__file__).resolve().parents[1] / "docs" / "incident-format.md"


def test_reference_section_is_generated_from_the_schema():
    text = DOC.read_text(encoding="utf-8")
    assert docs.START in text and docs.END in text, "the reference markers are missing"
    assert text.count(docs.START) == 1 and text.count(docs.END) == 1, "one reference block, its markers once each"
    body = text[text.index(docs.START):text.index(docs.END) + len(docs.END)] + "\n"
    assert body == docs.block(), (
        "docs/incident-format.md is out of step with adjudicator/core/schema.py: "
        "regenerate the reference with `adjudicator events --markdown`")


def test_every_event_and_key_is_documented_with_an_example():
    text = DOC.read_text(encoding="utf-8")
    for name, ev in schema.EVENTS.items():
        assert f"##### `{name}`" in text
        assert ev.example in text
        assert ev.example.startswith(f"- {name}:"), f"the example of {name} is not of that event"
        for f in ev.fields:
            assert f"| `{f.name}` |" in text
    for key in schema.TOP_KEYS:
        assert f"| `{key}` |" in text


def test_examples_are_valid_events():
    from adjudicator.core import incident
    for ev in schema.EVENTS.values():
        if ev.name in schema.ONLY_FOR:       # a game's own event, in an incident of that game
            src = f"game: {schema.ONLY_FOR[ev.name]}\nevents:\n  {ev.example}\n"
        else:
            src = f"game: whist\ndealer: S\nplayers: {{N: Ames, E: Brown, S: Clark, W: Dodd}}\n" \
                  f"candidates: [Ames, Brown, Clark, Dodd, Ellis]\nevents:\n  {ev.example}\n"
        inc = incident.parse(src, f"example of {ev.name}")
        assert inc.events[0].name == ev.name


def test_every_law_an_event_reference_names_exists_in_its_code():
    """The event reference's laws (laws.event_laws, worked out from the rules), per code, are laws
    of that code; and most events are read by some code's rules."""
    from adjudicator.lookup import laws
    from adjudicator.core import schema
    read = 0
    for ev in schema.EVENTS.values():
        by_code = laws.event_laws(ev.name)
        read += bool(by_code)
        for code, idents in by_code.items():
            for ident in idents:        # (Dummy's are its own and the English code's: laws.base_with)
                laws.lookup(laws.base_with(code, ident, sections=False) or code, ident)    # raises for a law it has not
    assert read == len(schema.EVENTS)


def test_the_games_the_schema_names_are_those_of_the_game_definitions():
    assert list(schema.GAMES) == registry.games()


def test_a_top_level_key_read_as_a_list_is_not_said_to_be_free_text():
    """`adjudicator events events` said `events (top-level key, text, required)`, and the type
    `text` is 'free text, kept for the reader; the rules never read it': the events and the facts
    not known are lists the rules read. Every type a key or field names is one the reference explains."""
    assert schema.TOP_KEYS["events"].type != "text" and schema.TOP_KEYS["unknown"].type != "text"
    for f in [*schema.TOP, *(g for ev in schema.EVENTS.values() for g in ev.fields)]:
        assert f.type in schema.TYPES, (f.name, f.type)
