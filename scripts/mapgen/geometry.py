"""Exact integer brush geometry: convex prisms, their planes and vertices.

Every brush Quarry's generator writes is a *prism*: a convex polygon with
integer corners, extruded along one coordinate axis between two integer
heights.  An axis-aligned box is a rectangle extruded along Z; a ramp or
wedge is a triangle or trapezoid extruded sideways.  Because all corners are
integers, every plane can be written with three integer points that are real
corners of the face, and every check below is exact (integers and
fractions, never floats).

Plane orientation follows the Quake .map convention: for a face written as
points p0 p1 p2 the outward normal is cross(p2 - p0, p1 - p0).  The brush is
the intersection of the half-spaces n . x <= n . p0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

Vec = tuple[int, int, int]

# The two in-plane axes for each extrusion axis, in increasing order:
# axis 0 (x) -> polygon in (y, z); axis 1 (y) -> (x, z); axis 2 (z) -> (x, y).
OTHER = {0: (1, 2), 1: (0, 2), 2: (0, 1)}


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    )


def quake_normal(p0, p1, p2):
    """Unnormalised outward normal of a face written as p0 p1 p2 (Quake order)."""
    return cross(sub(p2, p0), sub(p1, p0))


def to3(axis: int, a: int, b: int, w: int) -> Vec:
    p = [0, 0, 0]
    p[axis] = w
    p[OTHER[axis][0]] = a
    p[OTHER[axis][1]] = b
    return (p[0], p[1], p[2])


class GeometryError(Exception):
    pass


def _area2(poly) -> int:
    s = 0
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % len(poly)]
        s += x0 * y1 - x1 * y0
    return s


def normalise_polygon(poly) -> tuple[tuple[int, int], ...]:
    """Check a polygon is strictly convex with no repeated or collinear corners;
    return it counter-clockwise, starting at its smallest corner."""
    poly = [tuple(int(c) for c in p) for p in poly]
    if len(poly) < 3:
        raise GeometryError(f"polygon needs 3+ corners: {poly}")
    if _area2(poly) == 0:
        raise GeometryError(f"polygon has no area: {poly}")
    if _area2(poly) < 0:
        poly.reverse()
    n = len(poly)
    for i in range(n):
        a, b, c = poly[i], poly[(i + 1) % n], poly[(i + 2) % n]
        turn = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        if turn <= 0:
            raise GeometryError(f"polygon not strictly convex at {b}: {poly}")
    start = poly.index(min(poly))
    return tuple(poly[start:] + poly[:start])


@dataclass(frozen=True)
class Prism:
    """A convex polygon `poly` (in the two axes other than `axis`) extruded
    along `axis` from `lo` to `hi`.  `material` picks face textures."""

    axis: int
    poly: tuple[tuple[int, int], ...]
    lo: int
    hi: int
    material: str = "world"
    # Outward axis-aligned normals, e.g. (0, 0, -1), whose faces touch no
    # play space and get common/caulk (set by the shell carver).
    hidden: frozenset = frozenset()

    def __post_init__(self):
        if self.axis not in (0, 1, 2):
            raise GeometryError(f"bad axis {self.axis}")
        object.__setattr__(self, "poly", normalise_polygon(self.poly))
        if not self.hi > self.lo:
            raise GeometryError(f"prism has no thickness: {self.lo}..{self.hi}")

    # -- derived geometry -------------------------------------------------
    def vertices(self) -> list[Vec]:
        out = []
        for w in (self.lo, self.hi):
            for a, b in self.poly:
                out.append(to3(self.axis, a, b, w))
        return out

    def centroid(self):
        vs = self.vertices()
        return tuple(Fraction(sum(v[i] for v in vs), len(vs)) for i in range(3))

    def faces(self) -> list[tuple[Vec, Vec, Vec]]:
        """Three corners of each face, ordered so the Quake normal points out."""
        c = self.centroid()
        ax = self.axis
        raw = []
        p = self.poly
        raw.append((to3(ax, *p[0], self.lo), to3(ax, *p[1], self.lo), to3(ax, *p[2], self.lo)))
        raw.append((to3(ax, *p[0], self.hi), to3(ax, *p[1], self.hi), to3(ax, *p[2], self.hi)))
        for i in range(len(p)):
            a, b = p[i], p[(i + 1) % len(p)]
            raw.append((to3(ax, *a, self.lo), to3(ax, *b, self.lo), to3(ax, *a, self.hi)))
        out = []
        for p0, p1, p2 in raw:
            n = quake_normal(p0, p1, p2)
            side = dot(n, tuple(c[i] - p0[i] for i in range(3)))
            if side == 0:
                raise GeometryError(f"degenerate face {p0} {p1} {p2}")
            if side > 0:  # centroid in front: flip so the normal points out
                p1, p2 = p2, p1
            out.append((p0, p1, p2))
        return out

    def edge_dirs(self) -> list[Vec]:
        dirs = [to3(self.axis, 0, 0, 1)]
        p = self.poly
        for i in range(len(p)):
            a, b = p[i], p[(i + 1) % len(p)]
            dirs.append(to3(self.axis, b[0] - a[0], b[1] - a[1], 0))
        return dirs

    def bounds(self) -> tuple[Vec, Vec]:
        vs = self.vertices()
        lo = tuple(min(v[i] for v in vs) for i in range(3))
        hi = tuple(max(v[i] for v in vs) for i in range(3))
        return lo, hi

    def mirrored_x(self, material_map=None) -> "Prism":
        mat = self.material
        if material_map:
            mat = material_map.get(mat, mat)
        hidden = frozenset((-n[0], n[1], n[2]) for n in self.hidden)
        if self.axis == 0:
            return Prism(0, self.poly, -self.hi, -self.lo, mat, hidden)
        # axes 1 and 2 keep x as the first polygon coordinate
        return Prism(self.axis, tuple((-a, b) for a, b in self.poly), self.lo, self.hi, mat, hidden)

    def key(self):
        """Order-independent identity: sorted vertex set and material."""
        return (tuple(sorted(self.vertices())), self.material)


def box(x0, y0, z0, x1, y1, z1, material="world", hidden=frozenset()) -> Prism:
    if not (x1 > x0 and y1 > y0 and z1 > z0):
        raise GeometryError(f"empty box {(x0, y0, z0)}..{(x1, y1, z1)}")
    return Prism(2, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), z0, z1, material, hidden)


# -- exact reconstruction from planes ---------------------------------------

def plane_of(face):
    p0, p1, p2 = face
    n = quake_normal(p0, p1, p2)
    if n == (0, 0, 0):
        raise GeometryError(f"collinear plane points {face}")
    return n, dot(n, p0)


def planes_vertices(planes) -> set:
    """All corners of the convex solid {x : n . x <= d for every plane},
    exactly, by intersecting every plane triple.  Empty if unbounded/empty."""
    pts = set()
    for (n1, d1), (n2, d2), (n3, d3) in combinations(planes, 3):
        c23, c31, c12 = cross(n2, n3), cross(n3, n1), cross(n1, n2)
        det = dot(n1, c23)
        if det == 0:
            continue
        x = tuple(Fraction(d1 * c23[i] + d2 * c31[i] + d3 * c12[i], det) for i in range(3))
        if all(dot(n, x) <= d for n, d in planes):
            pts.add(x)
    return pts


def check_brush_planes(faces, intended_vertices, label="brush"):
    """Fail loudly unless the written planes enclose exactly the intended
    solid with every normal pointing out of it."""
    planes = [plane_of(f) for f in faces]
    want = {tuple(Fraction(c) for c in v) for v in intended_vertices}
    if len(want) < 4:
        raise GeometryError(f"{label}: fewer than 4 corners")
    cen = tuple(sum(v[i] for v in want) / len(want) for i in range(3))
    for (n, d), f in zip(planes, faces):
        if not dot(n, cen) < d:
            raise GeometryError(f"{label}: plane {f} has its normal {n} pointing into the brush")
        on = [v for v in want if dot(n, v) == d]
        if len(on) < 3:
            raise GeometryError(f"{label}: plane {f} touches the solid in {len(on)} corners")
        for v in want:
            if dot(n, v) > d:
                raise GeometryError(f"{label}: corner {v} is outside plane {f}")
    got = planes_vertices(planes)
    if got != want:
        raise GeometryError(
            f"{label}: planes enclose corners {sorted(got)} but {sorted(want)} were intended"
        )
    seen = set()
    for n, d in planes:
        g = _gcd3(n)
        k = (n[0] // g, n[1] // g, n[2] // g, Fraction(d, g))
        if k in seen:
            raise GeometryError(f"{label}: duplicate plane {n} {d}")
        seen.add(k)


def _gcd3(n):
    from math import gcd

    return gcd(gcd(abs(n[0]), abs(n[1])), abs(n[2])) or 1


# -- box versus convex brush (separating axis test) --------------------------

class Solid:
    """A prism prepared for overlap tests against axis-aligned boxes."""

    __slots__ = ("prism", "verts", "lo", "hi", "axes", "tag", "planes")

    def __init__(self, prism: Prism, tag: str = ""):
        self.prism = prism
        self.planes = [plane_of(f) for f in prism.faces()]
        self.verts = prism.vertices()
        self.lo, self.hi = prism.bounds()
        self.tag = tag
        axes = set()
        for f in prism.faces():
            axes.add(_canon(quake_normal(*f)))
        units = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for e in prism.edge_dirs():
            for u in units:
                c = cross(u, e)
                if c != (0, 0, 0):
                    axes.add(_canon(c))
        for u in units:
            axes.discard(u)
        self.axes = tuple(sorted(axes))

    def overlaps_box(self, bmin, bmax) -> bool:
        """True if the open box (bmin, bmax) and the brush share volume;
        touching faces do not count."""
        for i in range(3):
            if not (bmax[i] > self.lo[i] and self.hi[i] > bmin[i]):
                return False
        corners = [
            (x, y, z)
            for x in (bmin[0], bmax[0])
            for y in (bmin[1], bmax[1])
            for z in (bmin[2], bmax[2])
        ]
        for a in self.axes:
            bp = [dot(a, c) for c in corners]
            sp = [dot(a, v) for v in self.verts]
            if not (max(bp) > min(sp) and max(sp) > min(bp)):
                return False
        return True

    def column(self, x, y):
        """The z interval where the vertical line through (x, y) is inside
        the brush (None when it misses)."""
        if not (self.lo[0] < x < self.hi[0] and self.lo[1] < y < self.hi[1]):
            return None
        zlo, zhi = Fraction(self.lo[2]), Fraction(self.hi[2])
        for n, d in self.planes:
            rest = d - n[0] * x - n[1] * y
            if n[2] > 0:
                zhi = min(zhi, Fraction(rest) / n[2])
            elif n[2] < 0:
                zlo = max(zlo, Fraction(rest) / n[2])
            elif rest <= 0:
                return None
        if zhi <= zlo:
            return None
        return zlo, zhi


def _canon(v):
    g = _gcd3(v)
    v = (v[0] // g, v[1] // g, v[2] // g)
    for c in v:
        if c != 0:
            return v if c > 0 else (-v[0], -v[1], -v[2])
    return v
