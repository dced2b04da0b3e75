"""adjudicator: settles disputes at the card table under the classic codes of law."""
__version__ = "0.1.0"

# Set by the console script (cli.entry), which ends the process with os._exit once its output is
# flushed: what is still held then need not be freed (engine.solve keeps its last program).
leaves_with_exit = False

# Before anything imports clingo: its C++ allocations go to mimalloc where the machine has it
# (adjudicator/allocator.py says why, and when not).
from . import allocator as _allocator  # noqa: E402

_allocator.give_clingo_mimalloc()
