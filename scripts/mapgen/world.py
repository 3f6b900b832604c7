"""Describing a map as play space ("air") plus detail, and carving the shell.

A map is written as a list of axis-aligned air boxes (rooms, corridors,
pits) that together are the space players can be in, plus detail brushes
placed inside that space (stairs, ramps, pillars, catwalks) and entities.

The enclosing walls, floors, ceilings and sky are not drawn by hand: the
carver takes every coordinate the air boxes use, splits space into the
resulting grid of cells, and makes every cell that is within `thickness`
units of air (but not air) solid.  Cells are merged greedily into boxes.
Any path from air to the outside must cross that shell, so a map built
this way is sealed by construction; `carve` also proves it with a flood
fill and fails loudly if air ever touches the outside.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from .geometry import GeometryError, Prism, box


@dataclass(frozen=True)
class Air:
    lo: tuple[int, int, int]
    hi: tuple[int, int, int]
    kind: str = "room"  # room | corridor | pit | window
    sky: bool = False
    name: str = ""

    def mirrored_x(self) -> "Air":
        return Air(
            (-self.hi[0], self.lo[1], self.lo[2]),
            (-self.lo[0], self.hi[1], self.hi[2]),
            self.kind,
            self.sky,
            self.name,
        )

    def contains(self, p, inset=0) -> bool:
        return all(self.lo[i] + inset <= p[i] <= self.hi[i] - inset for i in range(3))


@dataclass
class Entity:
    classname: str
    keys: dict = field(default_factory=dict)
    brushes: list = field(default_factory=list)  # Prisms, for brush entities
    origin: tuple | None = None
    note: str = ""

    def mirrored_x(self, class_map, material_map) -> "Entity":
        keys = dict(self.keys)
        if "angle" in keys and int(keys["angle"]) >= 0:
            keys["angle"] = str((180 - int(keys["angle"])) % 360)
        for k, v in list(keys.items()):
            if k in ("target", "targetname"):
                keys[k] = mirror_name(v)
        origin = None
        if self.origin is not None:
            origin = (-self.origin[0], self.origin[1], self.origin[2])
        return Entity(
            class_map.get(self.classname, self.classname),
            keys,
            [b.mirrored_x(material_map) for b in self.brushes],
            origin,
            self.note,
        )


def mirror_name(name: str) -> str:
    for a, b in (("red", "blue"), ("blue", "red")):
        if name.startswith(a):
            return b + name[len(a):]
    return name + "_m"


class MapBuilder:
    """Collects air, detail and entities for one map."""

    def __init__(self, name: str, message: str, thickness: int = 16):
        self.name = name
        self.message = message
        self.thickness = thickness
        self.airs: list[Air] = []
        self.details: list[Prism] = []
        self.entities: list[Entity] = []
        # jump pads to simulate: (trigger entity, target entity, landing rect)
        self.jumppads: list[tuple] = []
        self.teleports: list[tuple] = []
        self.mirror_x = False
        # (label, (x, y), [(floor z, min headroom), ...]) claims to verify
        self.expect: list[tuple] = []
        self.features: list[str] = []

    # -- play space and detail ----------------------------------------
    def air(self, x0, y0, z0, x1, y1, z1, kind="room", sky=False, name=""):
        if not (x1 > x0 and y1 > y0 and z1 > z0):
            raise GeometryError(f"empty air box {name}")
        a = Air((x0, y0, z0), (x1, y1, z1), kind, sky, name)
        self.airs.append(a)
        return a

    def add(self, prism: Prism) -> Prism:
        self.details.append(prism)
        return prism

    def box(self, x0, y0, z0, x1, y1, z1, material="world"):
        return self.add(box(x0, y0, z0, x1, y1, z1, material))

    def stairs(self, axis, start, sign, c0, c1, base, top0, n, rise=16, run=32, material="stairs"):
        """n steps climbing along `axis` (0 = x, 1 = y) in direction `sign`
        from coordinate `start`; step i is `run` long, spans c0..c1 across,
        stands on `base` and has its top at top0 + rise * (i + 1)."""
        steps = []
        for i in range(n):
            a = start + sign * run * i
            b = start + sign * run * (i + 1)
            lo, hi = min(a, b), max(a, b)
            top = top0 + rise * (i + 1)
            if axis == 0:
                steps.append(self.box(lo, c0, base, hi, c1, top, material))
            else:
                steps.append(self.box(c0, lo, base, c1, hi, top, material))
        return steps

    def ramp(self, axis, start, sign, c0, c1, base, z_start, z_end, length, material="ramp"):
        """A solid ramp climbing along `axis` (0 = x, 1 = y) in direction
        `sign` from `start` (top at z_start) for `length` units (top at
        z_end), standing on `base` and spanning c0..c1 across."""
        end = start + sign * length
        poly = [(start, base), (end, base), (end, z_end)]
        if z_start > base:
            poly.append((start, z_start))
        # extrude across the climbing axis: climbing along x -> extrude y (1)
        ext = 1 if axis == 0 else 0
        return self.add(Prism(ext, tuple(poly), c0, c1, material))

    # -- entities -------------------------------------------------------
    def point(self, classname, x, y, z, note="", **keys) -> Entity:
        e = Entity(classname, {k: str(v) for k, v in keys.items()}, [], (x, y, z), note)
        self.entities.append(e)
        return e

    def brush_entity(self, classname, prisms, note="", **keys) -> Entity:
        e = Entity(classname, {k: str(v) for k, v in keys.items()}, list(prisms), None, note)
        self.entities.append(e)
        return e


# -- the shell carver ---------------------------------------------------------

class Grid:
    def __init__(self, airs, thickness, extra_x=()):
        t = thickness
        xs, ys, zs = set(extra_x), set(), set()
        for a in airs:
            for s, i in ((xs, 0), (ys, 1), (zs, 2)):
                s.update((a.lo[i] - t, a.lo[i], a.hi[i], a.hi[i] + t))
        self.c = [sorted(xs), sorted(ys), sorted(zs)]
        self.n = [len(c) - 1 for c in self.c]
        nx, ny, nz = self.n
        self.air = bytearray(nx * ny * nz)
        self.solid = bytearray(nx * ny * nz)  # 0 none, 1 wall, 2 sky
        self.airs = airs
        dil = bytearray(nx * ny * nz)
        for a in airs:
            self._mark(self.air, a.lo, a.hi, 1)
            self._mark(dil, tuple(v - t for v in a.lo), tuple(v + t for v in a.hi), 1)
        for i in range(len(dil)):
            if dil[i] and not self.air[i]:
                self.solid[i] = 1
        for a in airs:
            if a.sky:
                lo = (a.lo[0] - t, a.lo[1] - t, a.hi[2])
                hi = (a.hi[0] + t, a.hi[1] + t, a.hi[2] + t)
                ri = self._ranges(lo, hi)
                for idx in self._cells(ri):
                    if self.solid[idx]:
                        self.solid[idx] = 2

    def idx(self, i, j, k):
        return (k * self.n[1] + j) * self.n[0] + i

    def _ranges(self, lo, hi):
        return [(bisect_left(self.c[d], lo[d]), bisect_left(self.c[d], hi[d])) for d in range(3)]

    def _cells(self, ri):
        (i0, i1), (j0, j1), (k0, k1) = ri
        for k in range(k0, k1):
            for j in range(j0, j1):
                base = (k * self.n[1] + j) * self.n[0]
                for i in range(i0, i1):
                    yield base + i

    def _mark(self, arr, lo, hi, v):
        for idx in self._cells(self._ranges(lo, hi)):
            arr[idx] = v

    def check_sealed(self, name):
        """Flood through air; every neighbour must be air or solid."""
        nx, ny, nz = self.n
        seen = bytearray(len(self.air))
        for start in range(len(self.air)):
            if not self.air[start] or seen[start]:
                continue
            stack = [start]
            seen[start] = 1
            while stack:
                idx = stack.pop()
                k, rem = divmod(idx, nx * ny)
                j, i = divmod(rem, nx)
                for di, dj, dk in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                    a, b, c = i + di, j + dj, k + dk
                    if not (0 <= a < nx and 0 <= b < ny and 0 <= c < nz):
                        raise GeometryError(f"{name}: leak, air reaches the edge of the grid")
                    nid = self.idx(a, b, c)
                    if self.air[nid]:
                        if not seen[nid]:
                            seen[nid] = 1
                            stack.append(nid)
                    elif not self.solid[nid]:
                        x = self.c[0][a]
                        y = self.c[1][b]
                        z = self.c[2][c]
                        raise GeometryError(f"{name}: leak, air touches the void near ({x}, {y}, {z})")

    def merge(self, x_max=None):
        """Greedy merge of solid cells into boxes; optionally only cells with
        x <= x_max (for mirrored maps)."""
        nx, ny, nz = self.n
        used = bytearray(len(self.solid))
        limit = nx
        if x_max is not None:
            limit = bisect_left(self.c[0], x_max)
        out = []
        for k in range(nz):
            for j in range(ny):
                for i in range(limit):
                    idx = self.idx(i, j, k)
                    m = self.solid[idx]
                    if not m or used[idx]:
                        continue

                    def ok(a, b, c):
                        q = self.idx(a, b, c)
                        return self.solid[q] == m and not used[q]

                    i1 = i + 1
                    while i1 < limit and ok(i1, j, k):
                        i1 += 1
                    j1 = j + 1
                    while j1 < ny and all(ok(a, j1, k) for a in range(i, i1)):
                        j1 += 1
                    k1 = k + 1
                    while k1 < nz and all(ok(a, b, k1) for a in range(i, i1) for b in range(j, j1)):
                        k1 += 1
                    for c in range(k, k1):
                        for b in range(j, j1):
                            for a in range(i, i1):
                                used[self.idx(a, b, c)] = 1
                    out.append(((i, j, k), (i1, j1, k1), m))
        return out

    def face_hidden(self, lo, hi):
        """Outward normals of the merged cell box lo..hi whose neighbouring
        cells contain no air."""
        hidden = set()
        nx, ny, nz = self.n
        (i0, j0, k0), (i1, j1, k1) = lo, hi
        for axis in range(3):
            for sign in (-1, 1):
                layer = (lo[axis] - 1) if sign < 0 else hi[axis]
                rng = [range(i0, i1), range(j0, j1), range(k0, k1)]
                if not 0 <= layer < self.n[axis]:
                    touches = False
                else:
                    rng[axis] = range(layer, layer + 1)
                    touches = any(
                        self.air[self.idx(a, b, c)] for c in rng[2] for b in rng[1] for a in rng[0]
                    )
                if not touches:
                    n = [0, 0, 0]
                    n[axis] = sign
                    hidden.add(tuple(n))
        return frozenset(hidden)


def carve(airs, thickness, name, mirror_x=False):
    """Shell brushes enclosing the union of `airs`."""
    grid = Grid(airs, thickness, extra_x=(0,) if mirror_x else ())
    grid.check_sealed(name)
    if mirror_x:
        xs = grid.c[0]
        if xs != sorted(-x for x in xs):
            raise GeometryError(f"{name}: air boxes are not mirror-symmetric in x")
    cells = grid.merge(x_max=0 if mirror_x else None)
    out = []
    for lo, hi, m in cells:
        p0 = tuple(grid.c[d][lo[d]] for d in range(3))
        p1 = tuple(grid.c[d][hi[d]] for d in range(3))
        hidden = grid.face_hidden(lo, hi)
        out.append(box(*p0, *p1, material="sky" if m == 2 else "shell", hidden=hidden))
    if mirror_x:
        out = out + [p.mirrored_x() for p in out]
    return out, grid
