"""Top-down plan pictures of built maps (for reviewing layouts; not shipped)."""

from __future__ import annotations

import math

from .png import rgb_png

ENTITY_COLOURS = {
    "info_player_deathmatch": (40, 220, 40),
    "team_CTF_redspawn": (255, 90, 90),
    "team_CTF_bluespawn": (90, 140, 255),
    "team_CTF_redflag": (255, 0, 0),
    "team_CTF_blueflag": (0, 60, 255),
    "team_CTF_neutralflag": (255, 255, 255),
    "item_quad": (255, 0, 255),
    "target_position": (255, 255, 0),
    "misc_teleporter_dest": (200, 80, 255),
}


def _entity_colour(cls):
    if cls in ENTITY_COLOURS:
        return ENTITY_COLOURS[cls]
    if cls.startswith("weapon_"):
        return (0, 200, 255)
    if cls.startswith("item_armor"):
        return (255, 210, 0)
    if cls.startswith("item_health"):
        return (255, 255, 255)
    if cls.startswith("ammo_"):
        return (150, 150, 150)
    return (255, 128, 0)


def _ramp(t):
    stops = [(0.0, (30, 40, 110)), (0.35, (40, 120, 140)), (0.7, (150, 170, 80)), (1.0, (240, 220, 150))]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            u = (t - t0) / (t1 - t0) if t1 > t0 else 0
            return tuple(int(c0[i] + (c1[i] - c0[i]) * u) for i in range(3))
    return stops[-1][1]


def render(built, path, max_px=900):
    w = built.world
    b = built.builder
    lo = [min(a.lo[i] for a in b.airs) - b.thickness for i in range(3)]
    hi = [max(a.hi[i] for a in b.airs) + b.thickness for i in range(3)]
    s = max(4, math.ceil(max(hi[0] - lo[0], hi[1] - lo[1]) / max_px))
    W = (hi[0] - lo[0]) // s
    H = (hi[1] - lo[1]) // s
    floors_all = []
    cols = {}
    for py in range(H):
        for px in range(W):
            x = lo[0] + px * s + s / 2
            y = hi[1] - py * s - s / 2
            spans = []
            for sol in w.near((x, y, 0), (x, y, 0)):
                if sol.tag in ("func_door", "func_plat", "func_bobbing"):
                    continue
                iv = sol.column(x, y)
                if iv:
                    spans.append((float(iv[0]), float(iv[1])))
            spans.sort()
            merged = []
            for a, c in spans:
                if merged and a <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], c)
                else:
                    merged.append([a, c])
            floors = []
            for (_, top), (bot, _) in zip(merged, merged[1:]):
                if w.in_air((x, y, (top + bot) / 2)):
                    floors.append(top)
            cols[(px, py)] = (floors, bool(merged))
            floors_all += floors
    zmin, zmax = min(floors_all), max(floors_all)
    img = [bytearray(W * 3) for _ in range(H)]

    def put(px, py, c):
        if 0 <= px < W and 0 <= py < H:
            img[py][px * 3 : px * 3 + 3] = bytes(c)

    for (px, py), (floors, solid) in cols.items():
        if floors:
            t = (floors[-1] - zmin) / (zmax - zmin or 1)
            c = _ramp(t)
            if len(floors) > 1 and (px // 2 + py // 2) % 2:
                c = _ramp((floors[-2] - zmin) / (zmax - zmin or 1))
        elif solid:
            c = (70, 70, 70)
        else:
            c = (0, 0, 0)
        put(px, py, c)

    def to_px(x, y):
        return int((x - lo[0]) / s), int((hi[1] - y) / s)

    def fill_rect(l, h, c, outline=False):
        x0, y1 = to_px(l[0], l[1])
        x1, y0 = to_px(h[0], h[1])
        for py in range(y0, y1):
            for px in range(x0, x1):
                if not outline or px in (x0, x1 - 1) or py in (y0, y1 - 1):
                    put(px, py, c)

    for lq in w.liquids:
        fill_rect(lq.lo, lq.hi, {"lava": (255, 80, 0), "slime": (80, 220, 0)}.get(lq.tag, (0, 90, 255)))
    for e, t in w.triggers:
        fill_rect(t.lo, t.hi, (255, 255, 0) if e.classname == "trigger_push" else (200, 80, 255), outline=True)
    for e, mv in w.movers:
        fill_rect(mv.lo, mv.hi, (0, 255, 120))
    for e in b.entities:
        if e.origin is None:
            continue
        c = _entity_colour(e.classname)
        cx, cy = to_px(e.origin[0], e.origin[1])
        r = 3 if ("spawn" in e.classname or "player" in e.classname) else 2
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                put(cx + dx, cy + dy, c)
        if "angle" in e.keys:
            a = math.radians(int(e.keys["angle"]))
            for k in range(r, r + 7):
                put(cx + round(math.cos(a) * k), cy - round(math.sin(a) * k), c)
    path.write_bytes(rgb_png(W, H, img))
