"""adjudicator: settles disputes at the card table under the classic codes of law.

    >>> import adjudicator
    >>> ruling = adjudicator.adjudicate(open("incident.yaml").read())
    >>> ruling.text()                 # what `adjudicator adjudicate` prints
    >>> ruling.as_dict()              # what `adjudicator adjudicate --json` prints

The public API is this module's (adjudicator/api.py; docs/api.md): adjudicate, adjudicate_files,
compare, check, law, laws, law_ids, search, topic, topics, topic_names, codes, games, remedies, event,
events, and the errors a program catches (InputError, InconsistentIncident, ...). Everything else is
the engine's parts.
"""
__version__ = "0.1.0"

# Before anything imports clingo: its C++ allocations go to mimalloc where the machine has it
# (adjudicator/core/allocator.py says why, and when not).
from adjudicator.core import allocator as _allocator  # noqa: E402

_allocator.give_clingo_mimalloc()

from adjudicator.api import (  # noqa: E402  (light: the engine is imported when first used)
    MAX_BYTES, AsGiven, CaseResult, Comparison, Finding, Lookup, Refused, Remedy, Ruling, Source, adjudicate,
    adjudicate_files, check, check_settings, codes, compare, event, events, find_cases, format_reference, games,
    law, law_ids, laws, read_stdin, remedies, search, topic, topic_names, topics)
from adjudicator.errors import (  # noqa: E402
    AdjudicatorError, InconsistentIncident, InputError, InternalError, TimeLimit, UnknownCode, UsageError)

__all__ = ["MAX_BYTES", "AdjudicatorError", "AsGiven", "CaseResult", "Comparison", "Finding", "InconsistentIncident",
           "InputError", "InternalError", "Lookup", "Refused", "Remedy", "Ruling", "Source", "TimeLimit", "UnknownCode",
           "UsageError", "adjudicate", "adjudicate_files", "check", "check_settings", "codes", "compare", "event",
           "events", "find_cases", "format_reference", "games", "law", "law_ids", "laws", "read_stdin", "remedies",
           "search", "topic", "topic_names", "topics"]
