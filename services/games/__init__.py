"""The life of a stored game: storing uploads, sending them to workers, replaying them, counting
them into the statistics, and the disputes of their matches. The only writer of games, verdicts,
records and disputes."""
