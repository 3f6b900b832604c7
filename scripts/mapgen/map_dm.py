"""q_dm1 "Quarry Works": a multi-level deathmatch map.

Plan (x east, y north; floor heights in brackets):

                +----------- N quad ledge (320) -----------+
                |   [Quad]  one-way drop into G            |== NE (320) ==+
                +------------------------------------------+              |
    +---- W ----+ landing |      G great hall (0, sky)      | landing+-- E -+- STE stairs
    |  (160)    |==door===| stairs           jump pad->N    | ramp ==|(160) |   320 -> 160
    | tele dest |  clip   |   down              [RL]        |  down  |      |
    |   [GL]    | window  |                                 |        | [LG] |
    |           +---------+----------+  C  +----------------+--------+      |
    |== Pw (160) ==========  catwalk [RA] over C (144..160)  ===== Pe (160) [RG]
    +-----------+                    |(0) |                          +--+---+
                          +----------+----+--------+                    | stairs
                          |  S south hall (0)      |=D door=| SE annex (0) 0 -> 160
                          | [tele]  [SG]  [YA]     |  func  | [PG] [MH] lava pit
                          +------------------------+        +------------+

Required features and where they are:
  stairs      G's west wall (160 -> 0, 10 risers), STE (320 -> 160), SE -> E (0 -> 160)
  catwalk     over corridor C at y -704..-576: corridor floor 0, catwalk 144..160,
              ceiling 352 (144 clearance below, 192 above)
  jump pad    G centre, launching north onto the N ledge (320)
  one-way     N's edge into G is a 320-unit drop that cannot be climbed
  teleporter  S south-west corner -> W, facing east into the room
  door        func_door (moves up) in corridor D between S and the SE annex
  lava pit    SE annex's far corner, off every route
"""

from .world import MapBuilder


def f(z):
    return z + 28


def build() -> MapBuilder:
    m = MapBuilder("q_dm1", "Quarry Works")
    m.features = []

    # G: great hall, floor 0, sky
    m.air(-512, -384, 0, 512, 384, 576, sky=True, name="great hall G")
    for x0 in (-288, 224):
        for y0 in (-256, 192):
            m.box(x0, y0, 0, x0 + 64, y0 + 64, 256, "trim")  # pillars
    # west: landing at 160 and 9 steps down to the floor (10 risers of 16)
    m.box(-512, 192, 0, -384, 320, 160, "world")
    m.stairs(1, -96, +1, -512, -384, 0, 0, 9)
    m.air(-576, 192, 160, -512, 320, 320, kind="doorway", name="W-G doorway")
    # east: landing at 160 and a ramp down (160 over 320, 26.6 degrees)
    m.box(384, 192, 0, 512, 320, 160, "world")
    m.ramp(1, -128, +1, 384, 512, 0, 0, 160, 320)
    m.air(512, 192, 160, 576, 320, 320, kind="doorway", name="E-G doorway")
    # a window from W into G: shots pass, players do not (player clip)
    m.air(-576, -128, 224, -512, 64, 320, kind="window", name="clip window")
    m.box(-576, -128, 224, -512, 64, 320, "clip")
    m.features.append("great hall G (-512..512, -384..384, floor 0, sky): four pillars, stairs up the west wall and a ramp up the east wall to 160-high landings, a clip-filled window from W")

    # jump pad in G's centre -> N ledge
    m.box(-64, -32, 0, 64, 96, 8, "pad")
    trig = m.brush_entity("trigger_push", [_box(-48, -16, 8, 48, 80, 40, "trigger")], target="pad_n")
    tgt = m.point("target_position", 0, 432, 408, targetname="pad_n")
    m.jumppads.append((trig, tgt, 320, (-305, 399, 305, 753)))
    m.features.append("jump pad: pad (-64..64, -32..96) in G, trigger_push -> target_position (0, 432, 408); lands on N at 320")

    # N: quad ledge at 320, open to G (one-way drop of 320)
    m.air(-320, 384, 320, 320, 768, 576, name="quad ledge N")
    m.expect.append(("one-way drop, N's edge", (8, 392), [(320, 96)]))
    m.expect.append(("one-way drop, G below it", (8, 376), [(0, 96)]))
    m.features.append("quad ledge N (-320..320, 384..768, floor 320): overlooks G, a 320-unit one-way drop")
    # NE corridor and the STE stairwell down to E
    m.air(320, 640, 320, 640, 736, 448, kind="corridor", name="NE corridor")
    m.air(640, 320, 160, 832, 736, 480, kind="corridor", name="STE stairwell")
    m.box(640, 672, 160, 832, 736, 320, "world")
    m.stairs(1, 352, +1, 640, 832, 160, 160, 10)
    m.features.append("stairwell STE (640..832, 320..736): 10 steps 160 -> 320 from E up to the NE corridor and N")

    # E and W side rooms at 160
    m.air(576, -768, 160, 1088, 320, 448, name="east room E")
    m.box(800, -448, 160, 864, -384, 448, "world")
    m.box(736, -64, 160, 800, 0, 224, "trim")
    m.air(-1088, -768, 160, -576, 320, 448, name="west room W")
    m.box(-864, -448, 160, -800, -384, 448, "world")
    m.box(-800, 64, 160, -736, 128, 224, "trim")

    # C: corridor from G south to S, with the catwalk crossing it
    m.air(-96, -896, 0, 96, -384, 352, kind="corridor", name="corridor C")
    m.box(-96, -704, 144, 96, -576, 160, "metal")
    m.air(-576, -704, 160, -96, -576, 320, kind="corridor", name="Pw passage")
    m.air(96, -704, 160, 576, -576, 320, kind="corridor", name="Pe passage")
    m.expect.append(("catwalk over corridor C", (8, -632), [(0, 80), (160, 96)]))
    m.features.append("catwalk (x -96..96, y -704..-576, 144..160) crosses corridor C (floor 0, ceiling 352) between passages Pw and Pe at 160")

    # S: south hall
    m.air(-576, -1408, 0, 576, -896, 320, name="south hall S")
    m.box(-192, -1216, 0, -128, -1088, 64, "trim")
    m.box(128, -1216, 0, 192, -1088, 64, "trim")
    # teleporter in S's south-west corner -> W
    m.box(-560, -1392, 0, -432, -1264, 8, "telepad")
    tele = m.brush_entity("trigger_teleport", [_box(-544, -1376, 8, -448, -1280, 72, "trigger")], target="tele_w")
    dest = m.point("misc_teleporter_dest", -960, -256, f(160), targetname="tele_w", angle=0)
    m.teleports.append((tele, dest))
    m.features.append("teleporter: pad (-560..-432, -1392..-1264) in S -> misc_teleporter_dest (-960, -256) in W facing east")

    # D: door corridor S -> SE annex
    m.air(576, -1216, 0, 704, -1088, 128, kind="doorway", name="door corridor D")
    m.brush_entity("func_door", [_box(624, -1216, 0, 656, -1088, 128, "door")], angle=-1, speed=200, lip=8, wait=2)
    m.features.append("func_door (x 624..656, y -1216..-1088, 128 tall, opens upward) in corridor D between S and the SE annex")

    # SE annex with the lava pit, and stairs up to E
    m.air(704, -1408, 0, 1152, -960, 256, name="SE annex")
    m.air(960, -1376, -48, 1120, -1184, 0, kind="pit", name="lava pit")
    m.box(960, -1376, -48, 1120, -1184, -16, "lava")
    m.air(896, -1088, 0, 1088, -768, 352, kind="corridor", name="SE-E stairs")
    m.stairs(1, -1088, +1, 896, 1088, 0, 0, 10)
    m.features.append("SE annex (704..1152, -1408..-960, floor 0): lava pit (960..1120, -1376..-1184, 48 deep, lava to -16) in the far corner; 10 steps up to E")

    for x, y, z, a in (
        (-384, -288, 0, 0),
        (384, -288, 0, 180),
        (-224, 704, 320, 270),
        (-960, 64, 160, 270),
        (-704, -640, 160, 90),
        (960, -384, 160, 90),
        (704, 192, 160, 270),
        (-384, -1024, 0, 0),
        (384, -1344, 0, 90),
        (800, -1312, 0, 90),
        (0, -480, 0, 270),
    ):
        m.point("info_player_deathmatch", x, y, f(z), angle=a)

    pts = [
        ("weapon_machinegun", 0, -832, 0),
        ("weapon_shotgun", 0, -1152, 0),
        ("weapon_grenadelauncher", -832, -256, 160),
        ("weapon_rocketlauncher", 0, -256, 0),
        ("weapon_lightning", 832, -128, 160),
        ("weapon_railgun", 448, -640, 160),
        ("weapon_plasmagun", 800, -1056, 0),
        ("ammo_bullets", -48, -800, 0),
        ("ammo_shells", -96, -1280, 0),
        ("ammo_grenades", -960, -640, 160),
        ("ammo_rockets", -128, 256, 0),
        ("ammo_rockets", 160, 704, 320),
        ("ammo_lightning", 960, 128, 160),
        ("ammo_slugs", -448, -640, 160),
        ("ammo_slugs", 256, -640, 160),
        ("ammo_cells", 768, -1152, 0),
        ("item_armor_body", 0, -640, 160),
        ("item_armor_combat", -256, -1312, 0),
        ("item_armor_shard", 928, -1280, 0),
        ("item_armor_shard", 928, -1216, 0),
        ("item_armor_shard", 1040, -1152, 0),
        ("item_armor_shard", -448, 256, 160),
        ("item_armor_shard", 448, 256, 160),
        ("item_health_small", -48, -448, 0),
        ("item_health_small", 48, -448, 0),
        ("item_health_small", -320, -640, 160),
        ("item_health", 256, -960, 0),
        ("item_health", -1024, 256, 160),
        ("item_health", 1024, -704, 160),
        ("item_health", 224, 448, 320),
        ("item_health_large", -1024, -704, 160),
        ("item_health_large", 1024, 256, 160),
        ("item_health_mega", 1120, -1120, 0),
        ("item_quad", 0, 640, 320),
    ]
    for cls, x, y, z in pts:
        m.point(cls, x, y, f(z))
    return m


def _box(*a):
    from .geometry import box

    return box(*a)
