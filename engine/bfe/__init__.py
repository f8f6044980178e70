"""Battle for Empyrean (key ``bfe``): its rules, line grammar, catalog and data."""
