"""Read an incident (or a case file) from YAML, check it against the schema, keep positions.

Every error names the file, the line and column, the key or event, what was expected, and a
suggestion. Values are normalised here (seats to N/E/S/W, cards to (rank, suit)); what they
mean is left to the rules. The parts:

    yamlread  YAML to values with their positions; the file or standard input read, bounded
    checker   each value checked by its schema type (seat, name, card, number ...)
    games     what only some games hold: the bid, the partie, the stakes, the Dummies
    account   the account read whole: parse(text), load(path)
    model     the checked Incident and its Events
"""
from adjudicator.core.incident.account import load, parse, parse_events
from adjudicator.core.incident.checker import CARD_RE, RANKS, SUITS, Checker, last_trick
from adjudicator.core.incident.games import GAME_ONLY_FIELDS, STAKES, field_of_game
from adjudicator.core.incident.model import Event, Incident
from adjudicator.core.incident.yamlread import (MAX_BYTES, MAX_DEPTH, MAX_EVENTS, MAX_LIST, MAX_NAME, MAX_NODES,
                                                PATH_SHOWN, load_text, read_source, read_stdin)
from adjudicator.core.values import Y, name_key, seat_words, shown, side_words, suggest

__all__ = ["CARD_RE", "Checker", "Event", "GAME_ONLY_FIELDS", "Incident", "MAX_BYTES", "MAX_DEPTH", "MAX_EVENTS",
           "MAX_LIST", "MAX_NAME", "MAX_NODES", "PATH_SHOWN", "RANKS", "STAKES", "SUITS", "Y", "field_of_game",
           "last_trick", "load", "load_text", "name_key", "parse", "parse_events", "read_source", "read_stdin",
           "seat_words", "shown", "side_words", "suggest"]
