"""Elysian Battlefields (key ``elysian``): land tiles, armies and settlements; win by conquest, rule or reign."""
