"""The bounds of an incident: what the format admits, read by the reader and said by the faces
(no import here: the command and the page read them without loading the engine)."""

MAX_BYTES = 1_000_000          # an incident is a page of text; refuse anything far larger
MAX_DEPTH = 12                 # incidents nest four or five levels deep (case files seven)
MAX_NODES = 5_000              # values in the file; a hand described in full has about 600
MAX_EVENTS = 100               # a hand played out in full, with its deal and claims, is about 80
MAX_LIST = 52                  # items in one list: a pack
MAX_NAME = 60                  # characters in a player's name
# Grounding grows faster than the number of events: these limits keep the worst incident the
# format admits well inside the engine's time limit (tests/test_hostile.py measures it).


def seconds_setting(raw: str) -> float | None:
    """The seconds a setting gives (the time limit here; the web server's time for a request to
    arrive, adjudicator/web): a number above 0 and at most a day; None for anything else (the
    command then refuses to run, saying what was set)."""
    try:
        seconds = float(raw)
    except ValueError:
        return None
    return seconds if 0 < seconds <= 86400 else None     # (NaN and infinity are outside too)
