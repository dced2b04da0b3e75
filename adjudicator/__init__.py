"""adjudicator: settles disputes at the card table under the classic codes of law."""
__version__ = "0.1.0"

# Before anything imports clingo: its C++ allocations go to mimalloc where the machine has it
# (adjudicator/core/allocator.py says why, and when not).
from adjudicator.core import allocator as _allocator  # noqa: E402

_allocator.give_clingo_mimalloc()
