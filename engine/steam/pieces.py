"""The manual's facts about Empyreal: Spells & Steam, declared once: its numbers, terrains and goods,
what set-up deals by player count, the cost ladders and the transfer costs. Content (spellcars,
specialists, maps, folios) is the catalog's (``catalog.py``); this module holds only numbers and names
printed in the manual."""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 2, 6
START_MANA = 5
MANA_LIMIT = 10  # crystals a company owns at most, spent or not
TRAINS_EACH = 35  # train car minis per company
WASTELANDS = 20  # wasteland tiles in the box
GOODS_EACH = 35  # goods tokens of each colour
CARS_PER_HEX = 3
MARKET_SIZE = 6
MARKET_REDEAL_AT = 2  # a market down to this many is discarded and dealt again
MOVE_LADDER = (0, 1, 3, 6)  # mana to move the conductor 1, 2, 3, 4 spaces
ACTIVATION_LADDER = (0, 1, 3)  # mana for the first, second (total), third (total) activation
MAX_MOVE = 4
TRANSFER_COST = {"city": 3, "competitor": 2, "wasteland": 4, "teammate": 1}
AWARD_POINTS = (6, 4, 2)  # first, second, third (third only with four or more players)
AWARD_POINTS_TWO_PLAYERS = (4,)  # a 2-player game: the best player only
AWARDS_DEALT = 2
TEAM_COLOUR_BONUS = 5

# the six producing terrains, each with the good of its colour; a city wants one of the six colours
TERRAINS = ("desert", "forest", "glacier", "lake", "lava", "mountain")
WASTELAND, CITY = "wasteland", "city"
GOODS = {"desert": "hylatine", "forest": "heartwood", "glacier": "ritherwhyte", "lake": "ehrlite",
         "lava": "crizma", "mountain": "silver"}
COLOURS = tuple(GOODS.values())

SPECIALIST_KINDS = ("engineer", "surveyor", "station")  # the three stacks of the specialist market
SLOTS = ("captain", "engineer", "surveyor", "station")  # a folio's specialist slots, left to right
UPGRADES = ("mana", "specialist", "spellcars")  # the End of the Line's three upgrades

# demand tiles in each city's stand by player count: (double, triple, quadruple)
DEMAND_TILES = {2: (1, 1, 1), 3: (1, 2, 1), 4: (1, 2, 1), 5: (1, 2, 1), 6: (2, 2, 1)}
DEMAND_POINTS = {2: 1, 3: 2, 4: 3}  # a tile's size (goods it needs) -> its victory points
END_DEMAND_TILES = {2: 6, 3: 6, 4: 5, 5: 4, 6: 4}  # demand tiles that trigger the end, by players
TEAM_SHAPES = {4: ((1, 3), (2, 4)), 6: ((1, 4), (2, 5), (3, 6))}  # 2v2; 2v2v2 (3 teams) — and 3v3 below
TEAM_SHAPES_3V3 = ((1, 3, 5), (2, 4, 6))
