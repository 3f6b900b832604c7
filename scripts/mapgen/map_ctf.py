"""q_ctf1 "Quarry Divide": a two-base CTF map, an exact mirror image in x.

Red half (x < 0) is built here; blue is its mirror (x -> -x, red <-> blue).
Plan of the red half (x east, y north; floors in brackets):

    +---- RB red base (0, sky) ----+=========== UC upper corridor (192) ===========+ deck (192)
    |  stairs up the north wall    |                                               |   ==bridge (192)==> blue
    |  0 -> 192 (12 risers)        +-----------------------------------------------+  [RG]
    |                              |                                        M mid  | jump pad lands here
    |   [flag on a 32 dais]        |                                        (-128, |
    |                              |                                         sky)  |  plinth [MH]
    |                              |J|  junction (-128): UC above drops in  |  plinth [MH]
    |   steps down 0 -> -128       +========== LT lower tunnel (-128) ============+  [RL]
    +------------------------------+          alcove [YA]                   pad -> deck

Two routes between the bases: upper (RB stairs -> UC -> deck -> bridge ->
deck -> UC -> blue stairs) and lower (RB steps down -> LT -> mid floor ->
LT -> blue steps up), joined in the mid by a jump pad on each side that
throws a player from the mid floor up onto that side's deck.
"""

from .geometry import box
from .world import MapBuilder


def f(z):
    return z + 28


def build_red(m: MapBuilder):
    # RB: red base
    m.air(-2048, -448, 0, -1472, 448, 384, sky=True, name="red base")
    m.box(-1984, -96, 0, -1792, 96, 16, "red")  # flag dais: a 16 step ring
    m.box(-1952, -64, 0, -1824, 64, 32, "red")  # and the 32 top
    m.stairs(0, -1856, +1, 256, 448, 0, 0, 12)  # up the north wall to 192
    m.box(-1664, -256, 0, -1600, -192, 64, "trim")  # cover
    # UC: upper corridor to the mid deck
    m.air(-1472, 256, 192, -512, 448, 352, kind="corridor", name="red upper corridor")
    # LT: lower tunnel, 7 steps down from the base
    m.air(-1472, -448, -128, -512, -256, 96, kind="corridor", name="red lower tunnel")
    m.stairs(0, -1248, -1, -448, -256, -128, -128, 7)
    m.air(-1088, -576, -128, -896, -448, 32, name="red tunnel alcove")
    # J: a tall junction room between the routes; the upper corridor opens
    # onto it 320 up (a one-way drop from the upper route to the lower)
    m.air(-1344, -256, -128, -1152, 256, 352, name="red junction")
    m.box(-1280, -64, -128, -1216, 64, -64, "trim")  # cover
    # mid, red side: deck, plinth ramp, pillar, jump pad
    m.box(-512, -128, -128, -256, 448, 192, "world")  # deck
    m.ramp(0, -192, +1, -160, 160, -128, -128, -80, 96)  # up to the plinth
    m.box(-224, -480, -128, -160, -416, 96, "trim")  # pillar
    m.box(-448, -576, -128, -320, -448, -120, "pad")
    trig = m.brush_entity("trigger_push", [box(-432, -560, -120, -336, -464, -88, "trigger")], target="red_pad")
    tgt = m.point("target_position", -384, -48, 280, targetname="red_pad")
    m.jumppads.append((trig, tgt, 192, (-497, -113, -271, 433)))

    for x, y, a in ((-1984, -352, 0), (-1664, -352, 0), (-1600, 128, 180), (-1984, 320, 315), (-1760, -192, 90)):
        m.point("team_CTF_redspawn", x, y, f(0), angle=a)
    m.point("team_CTF_redflag", -1888, 0, f(32))
    for cls, x, y, z in (
        ("weapon_shotgun", -1600, -384, 0),
        ("weapon_grenadelauncher", -1536, 64, 0),
        ("ammo_shells", -1536, -320, 0),
        ("ammo_grenades", -1536, 0, 0),
        ("item_health", -2000, 192, 0),
        ("item_health", -2000, -192, 0),
        ("weapon_lightning", -992, 352, 192),
        ("ammo_lightning", -1184, 352, 192),
        ("item_health", -704, 352, 192),
        ("weapon_plasmagun", -992, -352, -128),
        ("ammo_cells", -1184, -352, -128),
        ("item_armor_combat", -992, -512, -128),
        ("item_health", -704, -352, -128),
        ("weapon_railgun", -384, 352, 192),
        ("ammo_slugs", -448, 192, 192),
        ("item_health_small", -320, 64, 192),
        ("item_health_small", -320, 0, 192),
        ("ammo_rockets", -320, -256, -128),
        ("item_health", -352, 560, -128),
        ("item_armor_shard", -64, 352, 192),
        ("item_health_large", -1248, 160, -128),
        ("ammo_rockets", -1248, -160, -128),
    ):
        m.point(cls, x, y, f(z))


def build_centre(m: MapBuilder):
    m.air(-512, -640, -128, 512, 640, 512, sky=True, name="mid")
    m.box(-256, 256, 176, 256, 448, 192, "metal")  # bridge
    m.box(-96, -160, -128, 96, 160, -80, "world")  # plinth
    m.point("item_health_mega", 0, 0, f(-80))
    m.point("weapon_rocketlauncher", 0, -448, f(-128))
    m.point("item_armor_shard", 0, 352, f(192))
    # One Flag's neutral flag: on the mid floor between the plinth and the
    # rocket launcher, on the mirror plane (the same run from either base).
    m.point("team_CTF_neutralflag", 0, -288, f(-128))


CLASS_MIRROR = {
    "team_CTF_redspawn": "team_CTF_bluespawn",
    "team_CTF_redflag": "team_CTF_blueflag",
}


def build() -> MapBuilder:
    red = MapBuilder("q_ctf1", "Quarry Divide")
    build_red(red)
    centre = MapBuilder("q_ctf1", "Quarry Divide")
    build_centre(centre)
    mat = {"red": "blue"}

    m = MapBuilder("q_ctf1", "Quarry Divide")
    m.mirror_x = True
    m.airs = red.airs + [a.mirrored_x() for a in red.airs] + centre.airs
    m.details = red.details + [p.mirrored_x(mat) for p in red.details] + centre.details
    blue_ents = [e.mirrored_x(CLASS_MIRROR, mat) for e in red.entities]
    m.entities = red.entities + blue_ents + centre.entities
    index = {id(e): i for i, e in enumerate(red.entities)}
    m.jumppads = list(red.jumppads)
    for trig, tgt, z, (x0, y0, x1, y1) in red.jumppads:
        m.jumppads.append((blue_ents[index[id(trig)]], blue_ents[index[id(tgt)]], z, (-x1, y0, -x0, y1)))
    m.features = [
        "red base (-2048..-1472, -448..448, floor 0, sky): flag on a 32-unit dais at (-1888, 0), 5 red spawns, stairs up the north wall to 192, 7 steps down to the lower tunnel; blue base is its mirror",
        "upper route: corridor UC (-1472..-512, 256..448, floor 192) -> deck (-512..-256, -128..448, top 192) -> bridge (-256..256, 256..448, top 192) -> blue deck and corridor",
        "junction J (-1344..-1152, -256..256, floor -128, ceiling 352) joins the routes: LT opens into it at floor level, UC 320 above it (a one-way drop)",
        "lower route: tunnel LT (-1472..-512, -448..-256, floor -128) with an alcove (combat armour) -> mid floor (-128) -> blue tunnel",
        "mid (-512..512, -640..640, floor -128, sky): a 48-unit plinth with ramps and the mega health, the rocket launcher, two pillars, the One Flag neutral flag at (0, -288) on the floor",
        "jump pads: red pad (-448..-320, -576..-448) on the mid floor -> target_position (-384, -48, 280), lands on the red deck at 192; blue mirrored",
    ]
    return m
