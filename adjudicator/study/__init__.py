"""Study of the laws: the quiz drawn from the bundled cases and graded by the engine, and the
student's progress (its SQLite file and FSRS schedule)."""
