"""Empyreal: Spells & Steam (key ``steam``): railway companies on a hex map. docs/steam.md."""
