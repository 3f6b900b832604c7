"""Valve 220 .map text: materials to textures, writing, and reading back."""

from __future__ import annotations

import re

from .geometry import Prism, quake_normal

# Every texture name the generated maps use, with its contents for the
# loader's table.  (Also the list of PNG stand-ins written for TrenchBroom.)
TEXTURES = {
    "quarry/floor": ("solid", "walkable floors"),
    "quarry/wall": ("solid", "walls"),
    "quarry/ceiling": ("solid", "ceilings and undersides"),
    "quarry/trim": ("solid", "stair risers, ramp sides, cover blocks"),
    "quarry/metal": ("solid", "catwalks, bridges, pad housings"),
    "quarry/door": ("solid", "func_door panels"),
    "quarry/jumppad": ("solid", "top of a jump pad"),
    "quarry/teleporter": ("solid", "top of a teleporter pad"),
    "quarry/red": ("solid", "red team base trim (CTF)"),
    "quarry/blue": ("solid", "blue team base trim (CTF)"),
    "common/caulk": ("solid", "solid, never drawn: faces nobody can see"),
    "common/nodraw": ("solid", "solid, never drawn"),
    "common/clip": ("playerclip", "blocks players, not shots"),
    "common/weapclip": ("weaponclip", "blocks shots and, as in Quake 3, players too"),
    "common/trigger": ("trigger", "trigger volumes; not solid"),
    "skies/quarry_dusk": ("sky", "sky: solid, drawn as sky"),
    "liquids/lava": ("lava", "lava: not solid, hurts"),
    "liquids/slime": ("slime", "slime: not solid, hurts"),
    "liquids/water": ("water", "water: not solid, swimmable"),
}

SOLID_MATERIALS = {
    "shell", "sky", "world", "stairs", "ramp", "trim", "metal", "pad", "telepad",
    "door", "red", "blue", "caulk", "nodraw", "clip", "weapclip",
}
PLAYER_SOLID = SOLID_MATERIALS  # clip blocks players too
NONSOLID_MATERIALS = {"trigger", "lava", "slime", "water"}

MIRROR_MATERIALS = {"red": "blue", "blue": "red"}


def _slope_class(n):
    """'up' for a walkable (<= 45 degree) top face, 'down' for an underside,
    'side' otherwise."""
    nz2 = n[2] * n[2]
    tot = n[0] * n[0] + n[1] * n[1] + nz2
    if n[2] > 0 and 2 * nz2 >= tot:
        return "up"
    if n[2] < 0 and 2 * nz2 >= tot:
        return "down"
    return "side"


def face_texture(prism: Prism, n) -> str:
    m = prism.material
    if n in prism.hidden:
        return "common/caulk"
    cls = _slope_class(n)
    if m in ("shell", "world"):
        return {"up": "quarry/floor", "down": "quarry/ceiling", "side": "quarry/wall"}[cls]
    if m in ("stairs", "ramp"):
        return {"up": "quarry/floor", "down": "common/caulk", "side": "quarry/trim"}[cls]
    if m == "sky":
        return "skies/quarry_dusk"
    if m == "trim":
        return "quarry/trim"
    if m == "metal":
        return {"up": "quarry/metal", "down": "quarry/metal", "side": "quarry/trim"}[cls]
    if m == "pad":
        return {"up": "quarry/jumppad", "down": "common/caulk", "side": "quarry/metal"}[cls]
    if m == "telepad":
        return {"up": "quarry/teleporter", "down": "common/caulk", "side": "quarry/metal"}[cls]
    if m in ("red", "blue"):
        return {"up": "quarry/floor", "down": "common/caulk", "side": f"quarry/{m}"}[cls]
    fixed = {
        "door": "quarry/door",
        "caulk": "common/caulk",
        "nodraw": "common/nodraw",
        "clip": "common/clip",
        "weapclip": "common/weapclip",
        "trigger": "common/trigger",
        "lava": "liquids/lava",
        "slime": "liquids/slime",
        "water": "liquids/water",
    }
    if m in fixed:
        return fixed[m]
    raise ValueError(f"unknown material {m!r}")


def uv_axes(n):
    """TrenchBroom's paraxial default UV axes for a face normal."""
    ax, ay, az = abs(n[0]), abs(n[1]), abs(n[2])
    if az >= ax and az >= ay:
        return (1, 0, 0), (0, -1, 0)
    if ax >= ay:
        return (0, 1, 0), (0, 0, -1)
    return (1, 0, 0), (0, 0, -1)


def _fmt_pt(p):
    return f"( {p[0]} {p[1]} {p[2]} )"


def brush_lines(prism: Prism):
    lines = []
    for f in prism.faces():
        n = quake_normal(*f)
        g = _unit_dir(n)
        tex = face_texture(prism, g)
        u, v = uv_axes(n)
        lines.append(
            f"{_fmt_pt(f[0])} {_fmt_pt(f[1])} {_fmt_pt(f[2])} {tex} "
            f"[ {u[0]} {u[1]} {u[2]} 0 ] [ {v[0]} {v[1]} {v[2]} 0 ] 0 1 1"
        )
    return lines


def _unit_dir(n):
    """An axis-aligned normal as a unit tuple (for `hidden`), else as is."""
    nz = [c for c in n if c != 0]
    if len(nz) == 1:
        return tuple((c > 0) - (c < 0) for c in n)
    return n


def _q(s: str) -> str:
    if '"' in s or "\n" in s:
        raise ValueError(f"entity value may not contain quotes or newlines: {s!r}")
    return f'"{s}"'


def write_map(title_comment, worldspawn_keys, world_brushes, entities) -> str:
    out = ["// Game: Quarry", "// Format: Valve"]
    out += [f"// {line}" for line in title_comment]
    out.append("// entity 0")
    out.append("{")
    for k, v in worldspawn_keys.items():
        out.append(f"{_q(k)} {_q(v)}")
    for i, p in enumerate(world_brushes):
        out.append(f"// brush {i}")
        out.append("{")
        out += brush_lines(p)
        out.append("}")
    out.append("}")
    for ei, e in enumerate(entities, start=1):
        out.append(f"// entity {ei}")
        out.append("{")
        out.append(f"{_q('classname')} {_q(e.classname)}")
        if e.origin is not None:
            out.append(f'"origin" "{e.origin[0]} {e.origin[1]} {e.origin[2]}"')
        for k, v in e.keys.items():
            out.append(f"{_q(k)} {_q(v)}")
        for i, p in enumerate(e.brushes):
            out.append(f"// brush {i}")
            out.append("{")
            out += brush_lines(p)
            out.append("}")
        out.append("}")
    return "\n".join(out) + "\n"


_FACE = re.compile(
    r"^\( (-?\d+) (-?\d+) (-?\d+) \) \( (-?\d+) (-?\d+) (-?\d+) \) \( (-?\d+) (-?\d+) (-?\d+) \) "
    r"(\S+) \[ (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) \] \[ (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) \] "
    r"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+)$"
)
_KV = re.compile(r'^"([^"]*)" "([^"]*)"$')


def parse_map(text: str):
    """Read back a map this module wrote (strictly: Valve 220 faces with
    integer points).  Returns [(keys, [[(p0, p1, p2, texture), ...], ...])]."""
    ents = []
    depth = 0
    cur = None
    brush = None
    for ln, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if line == "{":
            depth += 1
            if depth == 1:
                cur = ({}, [])
            elif depth == 2:
                brush = []
            else:
                raise ValueError(f"line {ln}: nesting too deep")
            continue
        if line == "}":
            if depth == 2:
                cur[1].append(brush)
                brush = None
            elif depth == 1:
                ents.append(cur)
                cur = None
            else:
                raise ValueError(f"line {ln}: unbalanced brace")
            depth -= 1
            continue
        if depth == 1:
            m = _KV.match(line)
            if not m:
                raise ValueError(f"line {ln}: bad key/value {line!r}")
            if m.group(1) in cur[0]:
                raise ValueError(f"line {ln}: duplicate key {m.group(1)}")
            cur[0][m.group(1)] = m.group(2)
        elif depth == 2:
            m = _FACE.match(line)
            if not m:
                raise ValueError(f"line {ln}: bad face {line!r}")
            g = [int(x) for x in m.groups()[:9]]
            brush.append(((g[0], g[1], g[2]), (g[3], g[4], g[5]), (g[6], g[7], g[8]), m.group(10)))
        else:
            raise ValueError(f"line {ln}: text outside an entity")
    if depth != 0:
        raise ValueError("unbalanced braces at end of file")
    return ents
