"""Incidents the page offers as examples: written here, so no file is read on a request's word."""
from __future__ import annotations

EXAMPLES = {
    "lead-out-of-turn": ("West leads out of turn (American code)", """\
# West leads the king of spades; it was North's lead. Who may call a suit, and from whom?
game: whist
players: {N: Ames, E: Brown, S: Clark, W: Dodd}
dealer: S
trump: hearts
start: {trick: 3, leader: N}
events:
  - lead: {by: W, card: KS}     # West leads; it was North's turn
  - play: {by: N, card: 2S}
"""),
    "renounce-not-known": ("Did East hold a spade? (facts not known)", """\
# East played a club to a spade lead and the trick was quitted. Nobody knows whether East
# still held a spade: the ruling says what turns on it.
game: whist
dealer: S
trump: hearts
start: {trick: 3, leader: N}
events:
  - lead: {by: N, card: AS}
  - renounce: {by: E, card: 3C}          # did East hold a spade?
  - play: {by: S, card: 2S}
  - play: {by: W, card: 4S}
  - turn-and-quit: {}
unknown:
  - {event: 2, field: holding}
"""),
    "renounce-unsaid": ("A renounce, the account incomplete (for the interview)", """\
# East renounced; the account does not say whether he held a spade, nor more.
# The interview asks only what the ruling turns on.
game: whist
players: {N: Ames, E: Brown, S: Clark, W: Dodd}
dealer: S
trump: hearts
start: {trick: 3, leader: N}
events:
  - lead: {by: N, card: AS}
  - renounce: {by: E, card: 3C}
  - play: {by: S, card: 2S}
  - play: {by: W, card: 4S}
  - turn-and-quit: {}
"""),
}

NAMES = [(k, title) for k, (title, _text) in EXAMPLES.items()]


def get(name: str) -> str | None:
    """The example's text, or None for a name that is not one of them."""
    found = EXAMPLES.get(name)
    return found[1] if found else None
