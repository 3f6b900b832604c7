"""Play checks on a built map: the player box fits where it should, jump
pads land where they should, teleporters face open space, every walkable
surface has headroom, links resolve, a CTF map is a mirror image."""

from __future__ import annotations

import math
from fractions import Fraction

from .geometry import GeometryError, Solid
from .writer import NONSOLID_MATERIALS, PLAYER_SOLID

PLAYER_MINS = (-15, -15, -24)
PLAYER_MAXS = (15, 15, 32)
GRAVITY = 800
STEP = 18
MOVERS = ("func_door", "func_plat", "func_bobbing")

SPAWN_CLASSES = ("info_player_deathmatch", "team_CTF_redspawn", "team_CTF_bluespawn")
ITEM_PREFIXES = ("item_", "weapon_", "ammo_", "team_CTF_redflag", "team_CTF_blueflag", "team_CTF_neutralflag")


class CheckError(Exception):
    pass


class World:
    """Solids and volumes of a built map, bucketed for quick box queries."""

    CELL = 128

    def __init__(self, builder, shell):
        self.b = builder
        self.solids = []  # static player-solid brushes
        self.movers = []  # (entity, Solid)
        self.triggers = []  # (entity, Solid)
        self.liquids = []
        for p in shell:
            self.solids.append(Solid(p, "shell"))
        for p in builder.details:
            if p.material in PLAYER_SOLID:
                self.solids.append(Solid(p, p.material))
            elif p.material in ("lava", "slime", "water"):
                self.liquids.append(Solid(p, p.material))
            elif p.material in NONSOLID_MATERIALS:
                pass
            else:
                raise CheckError(f"{builder.name}: unknown material {p.material}")
        for e in builder.entities:
            for p in e.brushes:
                if e.classname in MOVERS:
                    self.movers.append((e, Solid(p, e.classname)))
                elif e.classname.startswith("trigger_"):
                    self.triggers.append((e, Solid(p, e.classname)))
        self.landings = []
        self.buckets = {}
        for s in self.solids + [m for _, m in self.movers]:
            for key in self._keys(s.lo, s.hi):
                self.buckets.setdefault(key, []).append(s)

    def _keys(self, lo, hi):
        c = self.CELL
        for bx in range(math.floor(lo[0] / c), math.floor(hi[0] / c) + 1):
            for by in range(math.floor(lo[1] / c), math.floor(hi[1] / c) + 1):
                yield (bx, by)

    def near(self, lo, hi):
        seen = set()
        for key in self._keys(lo, hi):
            for s in self.buckets.get(key, ()):
                if id(s) not in seen:
                    seen.add(id(s))
                    yield s

    def hits(self, bmin, bmax):
        return [s for s in self.near(bmin, bmax) if s.overlaps_box(bmin, bmax)]

    def player_box(self, o, dz=0):
        return (
            (o[0] + PLAYER_MINS[0], o[1] + PLAYER_MINS[1], o[2] + PLAYER_MINS[2] + dz),
            (o[0] + PLAYER_MAXS[0], o[1] + PLAYER_MAXS[1], o[2] + PLAYER_MAXS[2] + dz),
        )

    def in_air(self, p):
        return any(a.contains(p) for a in self.b.airs)


def _describe(s):
    return f"{s.tag} brush {s.lo}..{s.hi}"


def check_fit(world: World, report):
    """Every spawn and item: the player box fits at its origin and stands
    1..8 units above the floor; spawns overlap nothing at all."""
    name = world.b.name
    spawn_boxes = []
    for e in world.b.entities:
        if e.origin is None:
            continue
        cls = e.classname
        is_spawn = cls in SPAWN_CLASSES
        is_item = cls.startswith(ITEM_PREFIXES)
        if not (is_spawn or is_item or cls == "misc_teleporter_dest"):
            continue
        o = e.origin
        if not world.in_air(o):
            raise CheckError(f"{name}: {cls} at {o} is outside the play space")
        bmin, bmax = world.player_box(o)
        # 1 unit of slack all round, so a loader with a contact margin agrees
        hit = world.hits(tuple(v - 1 for v in bmin), tuple(v + 1 for v in bmax))
        if hit:
            raise CheckError(f"{name}: {cls} at {o}: player box is within 1 unit of {_describe(hit[0])}")
        gap = None
        for k in range(1, 10):
            if world.hits(*world.player_box(o, -k)):
                gap = k - 1
                break
        if gap is None or not 1 <= gap <= 8:
            raise CheckError(f"{name}: {cls} at {o}: box is {gap if gap is not None else '>8'} units above the floor (want 1..8)")
        if is_spawn or cls == "misc_teleporter_dest":
            for te, t in world.triggers:
                if t.overlaps_box(bmin, bmax):
                    raise CheckError(f"{name}: {cls} at {o} overlaps {te.classname}")
            for lq in world.liquids:
                if lq.overlaps_box(bmin, bmax):
                    raise CheckError(f"{name}: {cls} at {o} is in {lq.tag}")
            for me, m in world.movers:
                if _mover_sweep_hits(me, m, bmin, bmax):
                    raise CheckError(f"{name}: {cls} at {o} is in the path of {me.classname}")
            for other_o, (omin, omax) in spawn_boxes:
                if all(bmax[i] > omin[i] and omax[i] > bmin[i] for i in range(3)):
                    raise CheckError(f"{name}: spawns at {o} and {other_o} overlap")
            if is_spawn:
                spawn_boxes.append((o, (bmin, bmax)))
    report.append(f"{len(spawn_boxes)} spawns and every item fit the 30x30x56 player box (with 1 unit to spare), 1..8 units above the floor")


def check_spawn_facing(world: World, report, clear=192):
    """Every spawn faces at least `clear` units of open space (the box
    raised by a step height, so facing up a staircase counts as open)."""
    bad = []
    for e in world.b.entities:
        if e.classname not in SPAWN_CLASSES:
            continue
        a = math.radians(int(e.keys["angle"]))
        d = (math.cos(a), math.sin(a))
        o = e.origin
        for step in range(0, clear + 1, 8):
            p = (o[0] + d[0] * step, o[1] + d[1] * step, o[2] + STEP)
            if world.hits(*world.player_box(p)):
                bad.append(f"spawn at {o} angle {e.keys['angle']} faces a wall {step} units ahead")
                break
    if bad:
        raise CheckError(f"{world.b.name}: " + "; ".join(bad))
    report.append(f"every spawn faces {clear}+ units of open space")


def _mover_sweep_hits(ent, solid, bmin, bmax):
    """Does the box overlap the mover anywhere along its travel?"""
    lo, hi = solid.lo, solid.hi
    angle = int(ent.keys.get("angle", "0"))
    lip = int(ent.keys.get("lip", "8"))
    if angle == -1:
        d = (0, 0, hi[2] - lo[2] - lip)
    elif angle == -2:
        d = (0, 0, -(hi[2] - lo[2] - lip))
    else:
        a = math.radians(angle)
        dx, dy = round(math.cos(a)), round(math.sin(a))
        d = (dx * (hi[0] - lo[0] - lip), dy * (hi[1] - lo[1] - lip), 0)
    slo = tuple(min(lo[i], lo[i] + d[i]) for i in range(3))
    shi = tuple(max(hi[i], hi[i] + d[i]) for i in range(3))
    return all(bmax[i] > slo[i] and shi[i] > bmin[i] for i in range(3))


def check_links(builder, report):
    names = {}
    for e in builder.entities:
        if "targetname" in e.keys:
            names.setdefault(e.keys["targetname"], []).append(e)
    n = 0
    for e in builder.entities:
        t = e.keys.get("target")
        if t is None:
            continue
        if t not in names:
            raise CheckError(f"{builder.name}: {e.classname} targets missing {t!r}")
        want = {"trigger_push": "target_position", "trigger_teleport": "misc_teleporter_dest"}.get(e.classname)
        if want and any(x.classname != want for x in names[t]):
            raise CheckError(f"{builder.name}: {e.classname} target {t!r} is not a {want}")
        n += 1
    if n:
        report.append(f"{n} target links resolve")


def q3_launch(trigger: Solid, target_origin):
    """Quake 3's AimAtTarget: the velocity a trigger_push gives."""
    c = [Fraction(trigger.lo[i] + trigger.hi[i], 2) for i in range(3)]
    height = target_origin[2] - c[2]
    if height <= 0:
        raise CheckError("jump pad target is below the trigger")
    t = math.sqrt(float(height) / (0.5 * GRAVITY))
    dx, dy = float(target_origin[0] - c[0]), float(target_origin[1] - c[1])
    dist = math.hypot(dx, dy)
    fwd = dist / t
    return (dx / dist * fwd, dy / dist * fwd, t * GRAVITY), t


def simulate_jump(world: World, start, vel, land_z, land_rect, dt=1 / 500, tmax=4.0):
    """Fly the player box ballistically from `start`; return where it lands.
    Fails if it touches anything before coming down on the intended floor."""
    px, py, pz = start
    vx, vy, vz = vel
    t = 0.0
    prev = start
    while t < tmax:
        t += dt
        x = px + vx * t
        y = py + vy * t
        z = pz + vz * t - 0.5 * GRAVITY * t * t
        bmin, bmax = world.player_box((x, y, z))
        if world.hits(bmin, bmax):
            vzt = vz - GRAVITY * t
            bottom = prev[2] + PLAYER_MINS[2]
            x0, y0, x1, y1 = land_rect
            if vzt >= 0:
                raise CheckError(f"jump from {start} hits something while rising at {(round(x), round(y), round(z))}")
            if not (land_z - 0.5 <= bottom <= land_z + 6):
                raise CheckError(
                    f"jump from {start} comes down at {(round(x), round(y), round(z))}, box bottom {bottom:.1f}, not on the floor at {land_z}"
                )
            if not (x0 <= prev[0] <= x1 and y0 <= prev[1] <= y1):
                raise CheckError(f"jump from {start} lands at {(round(prev[0]), round(prev[1]))}, outside {land_rect}")
            return prev, t
        prev = (x, y, z)
    raise CheckError(f"jump from {start} never lands")


def check_jumppads(world: World, report):
    b = world.b
    for trig_ent, target_ent, land_z, land_rect in b.jumppads:
        trig = Solid(trig_ent.brushes[0])
        vel, t_apex = q3_launch(trig, target_ent.origin)
        floor = trig.lo[2]
        lands = []
        for fx in (0.0, 0.5, 1.0):
            for fy in (0.0, 0.5, 1.0):
                sx = trig.lo[0] - 14 + fx * (trig.hi[0] - trig.lo[0] + 28)
                sy = trig.lo[1] - 14 + fy * (trig.hi[1] - trig.lo[1] + 28)
                start = (sx, sy, floor + 24 + 0.01)
                pos, t = simulate_jump(world, start, vel, land_z, land_rect)
                lands.append((pos, t))
        centre = lands[4][0]
        world.landings.append((trig_ent, (centre[0], centre[1], land_z + 24.5)))
        ys = [p[0][1] for p in lands]
        xs = [p[0][0] for p in lands]
        apex = target_ent.origin[2] + (floor + 24 - (trig.lo[2] + trig.hi[2]) / 2)
        report.append(
            f"jump pad {trig_ent.keys['target']}: launch ({vel[0]:.0f}, {vel[1]:.0f}, {vel[2]:.0f}) u/s, apex z~{apex:.0f}, "
            f"9 entry points all land on z={land_z} within x {min(xs):.0f}..{max(xs):.0f}, y {min(ys):.0f}..{max(ys):.0f} "
            f"after {min(p[1] for p in lands):.2f}..{max(p[1] for p in lands):.2f} s"
        )


def check_teleports(world: World, report):
    b = world.b
    for trig_ent, dest in b.teleports:
        o = dest.origin
        a = math.radians(int(dest.keys["angle"]))
        d = (math.cos(a), math.sin(a))
        for step in range(0, 257, 8):
            p = (o[0] + d[0] * step, o[1] + d[1] * step, o[2])
            if world.hits(*world.player_box(p)):
                raise CheckError(f"{b.name}: teleporter destination {o} faces a wall {step} units ahead")
        report.append(f"teleporter {trig_ent.keys['target']}: destination {o} faces 256+ units of open floor")


class Columns:
    """The map sampled as vertical columns every `step` units: solid spans
    and the floors (tops of solid with play space above) in each."""

    def __init__(self, world: World, step=16):
        b = world.b
        self.world = world
        self.step = step
        self.x0 = min(a.lo[0] for a in b.airs)
        self.y0 = min(a.lo[1] for a in b.airs)
        self.nx = (max(a.hi[0] for a in b.airs) - self.x0) // step
        self.ny = (max(a.hi[1] for a in b.airs) - self.y0) // step
        self.spans = {}
        self.floors = {}
        for ix in range(self.nx):
            for iy in range(self.ny):
                x, y = self.xy(ix, iy)
                spans = []
                for s in world.near((x, y, 0), (x, y, 0)):
                    if s.tag in MOVERS:
                        continue
                    iv = s.column(x, y)
                    if iv:
                        spans.append((float(iv[0]), float(iv[1])))
                spans.sort()
                merged = []
                for lo, hi in spans:
                    if merged and lo <= merged[-1][1]:
                        merged[-1][1] = max(merged[-1][1], hi)
                    else:
                        merged.append([lo, hi])
                floors = []
                for (_, top), (bot, _) in zip(merged, merged[1:]):
                    if world.in_air((x, y, (top + bot) / 2)):
                        floors.append((top, bot - top))
                self.spans[(ix, iy)] = merged
                self.floors[(ix, iy)] = floors

    def xy(self, ix, iy):
        return self.x0 + ix * self.step + self.step // 2, self.y0 + iy * self.step + self.step // 2

    def cell(self, x, y):
        return int((x - self.x0) // self.step), int((y - self.y0) // self.step)


def check_headroom(cols: Columns, report, min_clear=64):
    """Every air gap that starts on a floor must be tall enough to walk in."""
    worst = None
    n = 0
    for (ix, iy), floors in cols.floors.items():
        for top, clear in floors:
            n += 1
            if worst is None or clear < worst[0]:
                worst = (clear, cols.xy(ix, iy), top)
            if clear < min_clear:
                x, y = cols.xy(ix, iy)
                raise CheckError(f"{cols.world.b.name}: only {clear:.0f} units of headroom above the floor at {(x, y, top)}")
    report.append(f"headroom: {n} floor samples, every one has {worst[0]:.0f}+ units above it (need {min_clear})")


def check_expectations(cols: Columns, report):
    """Feature claims a map makes about its columns: at (x, y) there are
    walkable floors at exactly these heights with at least this headroom."""
    for label, (x, y), want in cols.world.b.expect:
        got = cols.floors.get(cols.cell(x, y), [])
        if [g[0] for g in got] != [float(z) for z, _ in want]:
            raise CheckError(f"{cols.world.b.name}: {label}: floors at {(x, y)} are {got}, expected {want}")
        for (z, need), (_, clear) in zip(want, got):
            if clear < need:
                raise CheckError(f"{cols.world.b.name}: {label}: only {clear} above the floor at {z}")
        desc = ", ".join(f"floor {z:g} with {c:g} clear" for z, c in got)
        report.append(f"{label} at {(x, y)}: {desc}")


def check_reachable(cols: Columns, report, jumps):
    """A walk graph over the column floors (step up <= 18, fall any height,
    jump pads, teleporters): every spawn must reach every spawn and item."""
    world = cols.world
    b = world.b
    nodes = {}
    for (ix, iy), floors in cols.floors.items():
        x, y = cols.xy(ix, iy)
        for k, (top, clear) in enumerate(floors):
            if clear < 56:
                continue
            # the player may stand anywhere within half a cell of the
            # sample, so test the box shrunk by that much
            # (on a slope the box rests on its uphill edge: lift it a little)
            h = cols.step / 2
            for lift in (0.25, 4, 8, 12):
                bmin = (x - 15 + h, y - 15 + h, top + lift)
                bmax = (x + 15 - h, y + 15 - h, top + 56 + lift)
                if not world.hits(bmin, bmax):
                    nodes[(ix, iy, k)] = top
                    break
    edges = {n: [] for n in nodes}
    for (ix, iy, k), z in nodes.items():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c = (ix + dx, iy + dy)
            if c not in cols.floors:
                continue
            if any(lo < z + STEP + 0.01 < hi or lo < z + 56 < hi or (lo > z + STEP and hi < z + 56) for lo, hi in cols.spans[c]):
                continue  # a wall at body height
            best = None
            for kk, (top, _) in enumerate(cols.floors[c]):
                if top <= z + STEP + 0.01 and (c + (kk,)) in nodes:
                    if best is None or top > cols.floors[c][best][0]:
                        best = kk
            if best is not None:
                # nothing solid between our height and the floor we fall to
                edges[(ix, iy, k)].append(c + (best,))
    # jump pads and teleporters
    def node_at(x, y, z):
        c = cols.cell(x, y)
        best = None
        for kk, (top, _) in enumerate(cols.floors.get(c, [])):
            if top <= z - 23 and (c + (kk,)) in nodes:
                best = c + (kk,)
        return best

    for trig_ent, land in jumps:
        dst = node_at(*land)
        for n in nodes:
            x, y = cols.xy(n[0], n[1])
            bmin, bmax = world.player_box((x, y, nodes[n] + 24.25))
            for te, t in world.triggers:
                if te is trig_ent and t.overlaps_box(bmin, bmax):
                    edges[n].append(dst)
    for trig_ent, dest in b.teleports:
        dst = node_at(*dest.origin)
        for n in nodes:
            x, y = cols.xy(n[0], n[1])
            bmin, bmax = world.player_box((x, y, nodes[n] + 24.25))
            for te, t in world.triggers:
                if te is trig_ent and t.overlaps_box(bmin, bmax):
                    edges[n].append(dst)

    def reach(start):
        seen = {start}
        stack = [start]
        while stack:
            n = stack.pop()
            for m in edges[n]:
                if m is not None and m not in seen:
                    seen.add(m)
                    stack.append(m)
        return seen

    targets = []
    spawns = []
    for e in b.entities:
        if e.origin is None or e.classname in ("target_position",):
            continue
        n = node_at(*e.origin)
        if n is None:
            raise CheckError(f"{b.name}: no walkable floor under {e.classname} at {e.origin}")
        targets.append((e, n))
        if e.classname in SPAWN_CLASSES:
            spawns.append((e, n))
    for e, n in spawns:
        r = reach(n)
        for t, tn in targets:
            if tn not in r:
                raise CheckError(f"{b.name}: {t.classname} at {t.origin} cannot be reached from the spawn at {e.origin}")
    one_way = sum(1 for n, es in edges.items() for m in es if m is not None and n not in edges.get(m, ()))
    report.append(
        f"walk graph: {len(nodes)} standing spots; from each of the {len(spawns)} spawns every spawn and item is reachable "
        f"(steps <= {STEP}, drops, jump pads, teleporters)"
    )


def check_mirror(builder, world_brushes, report):
    from .writer import MIRROR_MATERIALS

    keys = sorted(p.key() for p in world_brushes)
    mirrored = sorted(p.mirrored_x(MIRROR_MATERIALS).key() for p in world_brushes)
    if keys != mirrored:
        raise CheckError(f"{builder.name}: brushes are not a mirror image in x")
    cmap = {
        "team_CTF_redspawn": "team_CTF_bluespawn",
        "team_CTF_bluespawn": "team_CTF_redspawn",
        "team_CTF_redflag": "team_CTF_blueflag",
        "team_CTF_blueflag": "team_CTF_redflag",
    }

    def ekey(e):
        return (
            e.classname,
            e.origin,
            tuple(sorted((k, v) for k, v in e.keys.items() if k not in ("target", "targetname"))),
            tuple(sorted(p.key() for p in e.brushes)),
        )

    a = sorted(ekey(e) for e in builder.entities)
    m = sorted(ekey(e.mirrored_x(cmap, MIRROR_MATERIALS)) for e in builder.entities)
    if a != m:
        raise CheckError(f"{builder.name}: entities are not a mirror image in x")
    report.append(f"mirror symmetry in x: {len(world_brushes)} world brushes and {len(builder.entities)} entities map onto each other")


def check_rooms(builder, report):
    for a in builder.airs:
        h = a.hi[2] - a.lo[2]
        need = {"room": 96, "corridor": 64}.get(a.kind)
        if need and h < need:
            raise CheckError(f"{builder.name}: {a.kind} {a.name} is only {h} tall")
        w = sorted((a.hi[0] - a.lo[0], a.hi[1] - a.lo[1]))
        if a.kind == "corridor" and w[0] < 96:
            raise CheckError(f"{builder.name}: corridor {a.name} is only {w[0]} wide")
        if a.kind == "doorway" and (w[1] < 96 or h < 64):
            raise CheckError(f"{builder.name}: doorway {a.name} is only {w[1]} wide, {h} tall")
    report.append(f"{len(builder.airs)} rooms/corridors: rooms 96+ tall, corridors 64+ tall and 96+ wide")
