"""q_duel1 "Quarry Steps": a small duel map, three halls and a middle court.

Plan (x east, y north; floors in brackets):

    +------------------+         +-------------------+
    | W  west hall     |  B      | E  east hall      |
    |   (128)     [YA] |=bridge==|   (192)   [RA on  |
    |         pillar   | (128->  |            256)   |
    |                  |   192)  |  pillar           |
    +--S--+---LD--+-+--+  +----------------+--R--+
      stairs  ledge [RG]  M  middle court (64)  |ramp |
      0->128  (128, drop) |  [MH]  E drops in  |0->  |
             steps down from W, steps up from H |192  |
    +--------------------------------------------+---+
    | H  lower hall (0)   pillars, dais [RL], crates |
    +------------------------------------------------+

A ring H -> stairs -> W -> bridge -> E -> ramp -> H, cut across by the
middle court M (steps up from H, steps down from W), plus one-way drops
from the railgun ledge LD into H and from E into M.
"""

from .world import MapBuilder


def f(z):
    """Origin height for a player or item standing on a floor at z."""
    return z + 28


def build() -> MapBuilder:
    m = MapBuilder("q_duel1", "Quarry Steps")
    m.features = []

    # H: lower hall, floor 0
    m.air(-704, -704, 0, 704, -320, 288, name="lower hall H")
    m.box(-352, -560, 0, -288, -496, 288, "trim")  # pillars
    m.box(288, -560, 0, 352, -496, 288, "trim")
    m.box(-128, -576, 0, 128, -448, 16, "trim")  # dais, one 16-unit step
    m.box(-160, -672, 0, -96, -608, 48, "trim")  # waist-high cover
    m.box(96, -672, 0, 160, -608, 48, "trim")
    m.features.append("lower hall H (-704..704, -704..-320, floor 0): two pillars, a 16-unit dais with the rocket launcher, two 48-unit cover crates")

    # S: stairwell from H up to W, 8 steps of 16 rise, 32 run
    m.air(-704, -320, 0, -512, -64, 288, kind="corridor", name="stairwell S")
    m.stairs(1, -320, +1, -704, -512, 0, 0, 8)
    m.features.append("stairs S (x -704..-512, y -320..-64): 8 steps of 16 up / 32 run, floor 0 -> 128")

    # W: west hall, floor 128, open to the sky
    m.air(-704, -64, 128, -128, 704, 448, sky=True, name="west hall W")
    m.box(-480, 256, 128, -352, 384, 448, "world")  # column
    m.box(-704, 544, 128, -544, 704, 160, "trim")  # armour platform (32)
    m.box(-704, 512, 128, -512, 704, 144, "stairs")  # its step (16)
    m.features.append("west hall W (-704..-128, -64..704, floor 128, sky): a column, a 32-unit platform with the combat armour")

    # LD: railgun ledge off W overlooking H: a one-way drop of 128
    m.air(-384, -320, 128, -192, -64, 288, kind="corridor", name="ledge LD")
    m.expect.append(("one-way drop, ledge LD", (-280, -312), [(128, 96)]))
    m.expect.append(("one-way drop, H below LD", (-280, -328), [(0, 96)]))
    m.features.append("railgun ledge LD (x -384..-192) opens into H 128 units up: a one-way drop")

    # B: bridge corridor W -> E, 4 steps up from 128 to 192
    m.air(-128, 448, 128, 128, 640, 288, kind="corridor", name="bridge B")
    m.stairs(0, 0, +1, 448, 640, 128, 128, 4)
    m.features.append("bridge B (x -128..128, y 448..640): floor 128 then 4 steps up to 192")

    # E: east hall, floor 192, open to the sky
    m.air(128, 64, 192, 704, 704, 480, sky=True, name="east hall E")
    m.box(448, 448, 192, 704, 704, 256, "world")  # body armour platform (64)
    m.stairs(0, 320, +1, 512, 640, 192, 192, 4)  # 4 steps up to it
    m.box(256, 224, 192, 320, 288, 480, "world")  # column
    m.features.append("east hall E (128..704, 64..704, floor 192, sky): a 64-unit platform reached by 4 steps, with the body armour")

    # R: ramp corridor E -> H, 192 up over 384 (26.6 degrees)
    m.air(512, -320, 0, 704, 64, 352, kind="corridor", name="ramp R")
    m.ramp(1, -320, +1, 512, 704, 0, 0, 192, 384)
    m.features.append("ramp R (x 512..704, y -320..64): 192 up over 384 run, 26.6 degrees")

    # M: middle court, floor 64, between all the others
    m.air(-64, -256, 64, 448, 64, 288, name="middle court M")
    m.box(160, -96, 64, 224, -32, 288, "world")  # column
    m.box(-64, -224, 64, 0, -96, 112, "trim")  # cover block
    # up from H: 4 steps through a doorway in M's south wall
    m.air(128, -320, 0, 320, -192, 224, kind="doorway", name="H-M steps")
    m.stairs(1, -320, +1, 128, 320, 0, 0, 4)
    # down from W: a doorway at 128 and 4 steps down to 64
    m.air(-128, -64, 128, -64, 64, 256, kind="doorway", name="W-M door")
    m.stairs(0, 64, -1, -64, 64, 64, 64, 4)
    m.features.append("middle court M (-64..448, -256..64, floor 64): 4 steps up from H, 4 steps down from W, and E's south edge overlooks it 128 up (a one-way drop)")

    # spawns
    for x, y, z, a in (
        (-608, -608, 0, 0),
        (608, -608, 0, 180),
        (-448, 576, 128, 315),
        (576, 256, 192, 180),
        (-224, 64, 128, 90),
        (192, 384, 192, 0),
    ):
        m.point("info_player_deathmatch", x, y, f(z), angle=a)

    # weapons, armour, health, ammo
    pts = [
        ("weapon_rocketlauncher", 0, -512, 16),
        ("weapon_railgun", -288, -224, 128),
        ("weapon_shotgun", -608, 256, 128),
        ("item_armor_combat", -624, 624, 160),
        ("item_armor_body", 576, 576, 256),
        ("item_armor_shard", -96, 512, 128),
        ("item_armor_shard", -96, 576, 128),
        ("item_armor_shard", -48, 544, 128),
        ("item_health", -640, -384, 0),
        ("item_health", 640, -384, 0),
        ("item_health", -256, 384, 128),
        ("item_health", 384, 128, 192),
        ("item_health_large", 0, -384, 0),
        ("item_health_mega", 352, -160, 64),
        ("ammo_bullets", 96, -160, 64),
        ("item_health_small", 608, 128, 192),
        ("item_health_small", -288, -128, 128),
        ("ammo_rockets", -224, -640, 0),
        ("ammo_rockets", 640, 320, 192),
        ("ammo_slugs", -352, -160, 128),
        ("ammo_slugs", -192, 640, 128),
        ("ammo_shells", -544, 256, 128),
        ("ammo_bullets", 224, -640, 0),
    ]
    for cls, x, y, z in pts:
        m.point(cls, x, y, f(z))
    return m
