"""People's words read, and the format's values said back in words: one reader for the terminal
and the web page.

A seat is read as players name it: its letter in any case ("S", "s"), its word ("South", "south",
"the elder hand", "elder"), the name of the player sitting there ("Clark", "clark"), or at a round
table its place ("3rd", "third", "the third place", "p3"). A card as it is said or written: "king
of spades", "the ten of hearts", "KS", "10h", "K♠", "♠K". A suit: "spades", "spade", "S", "♠".
"I don't know" in the ways people say it ("don't know", "not sure", "?", "no idea") is one answer.
Nothing here knows a law: the seats are the game's table (rules/codes.yaml).
"""
from __future__ import annotations

import re

from adjudicator.core import registry

SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
LETTER_SUIT = {v: k for k, v in SUIT_LETTER.items()}
SUIT_SIGN = {"spades": "\u2660", "hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663"}
SINGULAR = {"spades": "spade", "hearts": "heart", "diamonds": "diamond", "clubs": "club"}
_SUIT_WORDS = {
    **{s: s for s in SUITS}, **{SINGULAR[s]: s for s in SUITS}, **{SUIT_LETTER[s].lower(): s for s in SUITS},
    **{SUIT_SIGN[s]: s for s in SUITS}, "\u2664": "spades", "\u2661": "hearts", "\u2662": "diamonds",
    "\u2667": "clubs", "\u2660\ufe0f": "spades", "\u2665\ufe0f": "hearts", "\u2666\ufe0f": "diamonds",
    "\u2663\ufe0f": "clubs",
}
# Ranks as the format writes them, highest first, and the words people say them in.
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
RANK_WORD = {"A": "ace", "K": "king", "Q": "queen", "J": "knave", "10": "ten", "9": "nine", "8": "eight",
             "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
_RANK_WORDS = {**{r.lower(): r for r in RANKS}, **{w: r for r, w in RANK_WORD.items()},
               "jack": "J", "t": "10", "deuce": "2", "trey": "3", "tray": "3", "1": "A"}
# The ranks of each game's pack, where it is not the whole pack (piquet: seven to the ace).
GAME_RANKS = {"piquet": ("A", "K", "Q", "J", "10", "9", "8", "7")}

DONT_KNOW = ("?", "??", "dk", "d/k", "don't know", "dont know", "do not know", "i don't know", "i dont know",
             "i do not know", "not sure", "i'm not sure", "im not sure", "i am not sure", "unsure", "unknown",
             "no idea", "not known", "nobody knows", "can't say", "cant say", "cannot say", "can't remember",
             "cant remember", "don't remember", "dont remember", "not certain")
YES = ("y", "yes", "yeah", "yep", "he did", "she did", "it was", "true", "right", "correct", "so")
NO = ("n", "no", "nope", "he did not", "he didn't", "she did not", "she didn't", "it was not", "it wasn't",
      "false", "not so", "none", "never")


def plain(text: str) -> str:
    """An answer as compared: stripped, in small letters, the typographic apostrophe a phone types
    made straight, a full stop or exclamation at the end left out, spaces made one."""
    s = (text or "").strip().lower().replace("\u2019", "'").replace("\u02bc", "'").replace("\u2018", "'")
    s = s.rstrip(".!").strip()
    return " ".join(s.split())


def is_dont_know(text: str) -> bool:
    return plain(text) in DONT_KNOW


def yes_no(text: str) -> bool | None:
    """True for a yes, False for a no, None for neither."""
    s = plain(text)
    if s in YES:
        return True
    if s in NO:
        return False
    return None


def ranks_of(game: str | None) -> tuple[str, ...]:
    return GAME_RANKS.get(game or "", RANKS)


def read_suit(text: str) -> str | None:
    """'spades', 'Spade', 'S', '♠' -> 'spades'; None when it names no suit."""
    s = plain(text)
    if s.startswith("the "):
        s = s[4:]
    return _SUIT_WORDS.get(s)


_CARD_SPLIT = re.compile(r"^(ace|king|queen|knave|jack|ten|nine|eight|seven|six|five|four|three|two|deuce|trey|tray"
                         r"|10|[2-9akqjt1])\s*(?:of\s+)?(.+)$")
_CARD_SUIT_FIRST = re.compile(r"^([\u2660-\u2667]\ufe0f?|[shdc])\s*(10|[2-9akqjt])$")


def read_card(text: str, game: str | None = None) -> str | None:
    """A card in the format's writing (rank then suit: 'KS', '10H') from what a person types:
    'king of spades', 'the King of Spades', 'KS', 'ks', 'K♠', '♠K', '10 of hearts', 'ten of hearts',
    'TH', 'jack of clubs'. None when it is no card (or no card of the game's pack)."""
    s = plain(text)
    if s.startswith("the "):
        s = s[4:]
    s = s.replace("-", " ")
    m = _CARD_SUIT_FIRST.match(s.replace(" ", ""))
    if m:
        rank_word, suit_word = m.group(2), m.group(1)
    else:
        m = _CARD_SPLIT.match(s)
        if not m:
            return None
        rank_word, suit_word = m.group(1), m.group(2).strip()
        if len(rank_word) > 2 and not s[len(rank_word):].startswith(" "):     # 'kings' is no card
            return None
    rank = _RANK_WORDS.get(rank_word)
    suit = read_suit(suit_word)
    if rank is None or suit is None or rank not in ranks_of(game):
        return None
    return rank + SUIT_LETTER[suit]


def card_words(card: str) -> str:
    """'KS' -> 'the king of spades' (a card in the format's writing)."""
    c = str(card).upper()
    rank, letter = c[:-1], c[-1:]
    rank = "10" if rank == "T" else rank
    if rank not in RANK_WORD or letter not in LETTER_SUIT:
        return str(card)
    return f"the {RANK_WORD[rank]} of {LETTER_SUIT[letter]}"


def card_parts(card: str) -> tuple[str, str]:
    """'KS' -> ('K', 'spades'); ('', '') for what is no card."""
    c = str(card or "").upper()
    rank, letter = c[:-1], c[-1:]
    rank = "10" if rank == "T" else rank
    if rank in RANK_WORD and letter in LETTER_SUIT:
        return rank, LETTER_SUIT[letter]
    return "", ""


def suit_of(card: str) -> str | None:
    return card_parts(card)[1] or None


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def seat_label(seat: str, game: str, players: dict | None = None) -> str:
    """A seat as the questions say it: the player's name with the seat's word ('Clark (South)'), or
    the word alone ('South', 'the elder hand')."""
    word = registry.table(game).word(seat)
    name = (players or {}).get(seat)
    if name:
        return f"{name} ({word.removeprefix('the ')})"
    return word[:1].upper() + word[1:]


def seat_name(seat: str, game: str, players: dict | None = None) -> str:
    """A seat as a sentence names it: the player's name, or the seat's word ('South', 'the elder hand')."""
    name = (players or {}).get(seat)
    return str(name) if name else registry.table(game).word(seat)


def read_seat(text: str, game: str, players: dict | None = None, seats: tuple | list | None = None) -> str | None:
    """The seat a person means: 'S', 's', 'South', 'south', 'Clark' (the name of South's player),
    'the elder hand', 'elder', at a round table 'p3', 'third', '3rd', 'the third place'. None when
    it names no seat (or one not among `seats`)."""
    table = registry.table(game)
    allowed = list(seats) if seats is not None else list(table.seats)
    s = plain(text)
    if not s:
        return None
    for seat in allowed:
        if s == seat.lower():
            return seat
    for seat in allowed:
        name = (players or {}).get(seat)
        if name and s == plain(str(name)):
            return seat
    for seat in allowed:
        word = plain(table.word(seat))
        bare = word.removeprefix("the ")
        if s in (word, bare, bare.removesuffix(" hand"), bare.removesuffix(" place")):
            return seat
    if table.places_from_players:            # a round table: "third", "3rd", "place 3", "player 3"
        m = re.fullmatch(r"(?:the\s+)?(?:(?:place|player|seat)\s+)?(\d)(?:st|nd|rd|th)?(?:\s+(?:place|player))?", s)
        n = int(m.group(1)) if m else (_ORDINALS.index(s.split()[0]) + 1 if s.split()[0] in _ORDINALS else None)
        if n is not None and 1 <= n <= len(table.seats) and table.seats[n - 1] in allowed:
            return table.seats[n - 1]
    # a name given as its first word alone ("Clark" for "Clark Gable"), when only one player has it
    hits = [seat for seat in allowed if (players or {}).get(seat)
            and plain(str(players[seat])).split()[0] == s]
    return hits[0] if len(hits) == 1 else None


def ordinal(n: int) -> str:
    words = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh", "twelfth", "thirteenth")
    return words[n] if 0 <= n < len(words) else f"{n}th"


def ordinal_number(text: str) -> int | None:
    """'fifth', '5th', 'the fifth' -> 5; None for anything else."""
    s = plain(text).removeprefix("the ").removesuffix(" trick").removeprefix("trick ")
    m = re.fullmatch(r"([0-9]{1,2})(?:st|nd|rd|th)?", s)
    if m:
        return int(m.group(1))
    ords = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth")
    nums = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen")
    if s in ords:
        return ords.index(s) + 1
    if s in nums:
        return nums.index(s) + 1
    return None


def and_list(items: list[str], word: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]
