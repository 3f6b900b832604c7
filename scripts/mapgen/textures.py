"""Placeholder 64x64 texture images for TrenchBroom (one per texture name).

The server never reads these; they exist so that TrenchBroom shows each
surface with a recognisable colour and pattern."""

from __future__ import annotations

from .png import indexed_png

SIZE = 64


def _img(palette, fn):
    rows = [[fn(x, y) for x in range(SIZE)] for y in range(SIZE)]
    return indexed_png(SIZE, SIZE, palette, rows)


def _tiles(base, line, spacing=32):
    return _img([base, line], lambda x, y: 1 if x % spacing == 0 or y % spacing == 0 else 0)


def _bricks(brick_a, brick_b, mortar):
    def fn(x, y):
        row = y // 16
        off = 16 if row % 2 else 0
        if y % 16 == 0 or (x + off) % 32 == 0:
            return 2
        return (row + (x + off) // 32) % 2
    return _img([brick_a, brick_b, mortar], fn)


def _stripes(a, b, width=8, diagonal=True):
    return _img([a, b], lambda x, y: ((x + y) // width if diagonal else y // width) % 2)


def _squares(a, b):
    return _img([a, b], lambda x, y: (max(abs(2 * x - 63), abs(2 * y - 63)) // 16) % 2)


def _ring(a, b):
    def fn(x, y):
        d2 = (2 * x - 63) ** 2 + (2 * y - 63) ** 2
        return 1 if 30 * 30 < d2 < 50 * 50 else 0
    return _img([a, b], fn)


def _rivets(plate, rivet, seam):
    def fn(x, y):
        if x % 32 == 0 or y % 32 == 0:
            return 2
        if x % 32 in (4, 5, 27, 28) and y % 32 in (4, 5, 27, 28):
            return 1
        return 0
    return _img([plate, rivet, seam], fn)


def _panel(face, edge):
    return _img([face, edge], lambda x, y: 1 if x in (0, 1, 31, 32, 62, 63) or y in (0, 1, 62, 63) else 0)


def _label(bg, fg, glyph):
    """A flat tool texture with a 5x7 letter in the middle."""
    font = {
        "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
        "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
        "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
        "W": ["10001", "10001", "10001", "10101", "10101", "11011", "10001"],
        "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    }
    rows = font[glyph]

    def fn(x, y):
        gx, gy = (x - 17) // 6, (y - 11) // 6
        if 0 <= gx < 5 and 0 <= gy < 7 and x >= 17 and y >= 11 and rows[gy][gx] == "1":
            return 1
        return 0
    return _img([bg, fg], fn)


def _sky():
    top, bottom = (60, 40, 90), (240, 150, 80)
    pal = [tuple(top[i] + (bottom[i] - top[i]) * k // 15 for i in range(3)) for k in range(16)]
    return _img(pal, lambda x, y: y // 4)


def _liquid(dark, mid, light):
    def fn(x, y):
        v = (x * 7 + y * 13 + (x * y) // 5) % 23 + ((x // 8 + y // 8) % 3) * 4
        return 0 if v < 12 else (1 if v < 24 else 2)
    return _img([dark, mid, light], fn)


def all_textures():
    return {
        "quarry/floor": _tiles((112, 110, 104), (82, 80, 76)),
        "quarry/wall": _bricks((140, 108, 84), (128, 98, 78), (72, 62, 52)),
        "quarry/ceiling": _tiles((72, 74, 82), (56, 58, 64), spacing=64),
        "quarry/trim": _stripes((176, 140, 60), (120, 92, 40), width=8, diagonal=False),
        "quarry/metal": _rivets((96, 106, 116), (160, 170, 180), (64, 72, 80)),
        "quarry/door": _panel((64, 96, 64), (40, 62, 40)),
        "quarry/jumppad": _squares((232, 200, 40), (60, 50, 20)),
        "quarry/teleporter": _ring((40, 20, 60), (170, 90, 230)),
        "quarry/red": _panel((168, 44, 44), (100, 22, 22)),
        "quarry/blue": _panel((44, 64, 168), (22, 32, 100)),
        "common/caulk": _label((210, 140, 200), (150, 80, 140), "C"),
        "common/nodraw": _label((200, 200, 130), (140, 140, 80), "N"),
        "common/clip": _label((160, 90, 220), (100, 40, 160), "P"),
        "common/weapclip": _label((90, 170, 220), (40, 110, 160), "W"),
        "common/trigger": _label((240, 150, 40), (170, 90, 10), "T"),
        "skies/quarry_dusk": _sky(),
        "liquids/lava": _liquid((170, 40, 10), (230, 100, 20), (255, 190, 60)),
        "liquids/slime": _liquid((30, 90, 20), (70, 160, 30), (150, 220, 60)),
        "liquids/water": _liquid((20, 50, 110), (40, 90, 170), (110, 160, 220)),
    }


def icon():
    return indexed_png(
        32, 32, [(40, 40, 40), (232, 200, 40), (112, 110, 104)],
        [[1 if 6 <= x < 26 and 6 <= y < 26 and (x < 10 or x >= 22 or y < 10 or y >= 22 or (x - y) in (0, 1)) else (2 if x in (0, 31) or y in (0, 31) else 0) for x in range(32)] for y in range(32)],
    )
