"""Elysian Battlefields: heroes' armies fighting over land tiles with dice (docs/elysian-rules.md)."""
