"""Minimal deterministic PNG writer (standard library only).

Image data is stored in uncompressed deflate blocks, so the bytes depend on
nothing but the pixels (zlib builds differ in what they compress to)."""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _stored_zlib(raw: bytes) -> bytes:
    out = bytearray(b"\x78\x01")
    pos = 0
    n = len(raw)
    while True:
        block = raw[pos : pos + 65535]
        pos += len(block)
        final = 1 if pos >= n else 0
        out += bytes([final]) + struct.pack("<HH", len(block), len(block) ^ 0xFFFF) + block
        if final:
            break
    out += struct.pack(">I", zlib.adler32(raw) & 0xFFFFFFFF)
    return bytes(out)


def indexed_png(width, height, palette, pixels) -> bytes:
    """pixels: rows of palette indices; palette: list of (r, g, b)."""
    if len(palette) > 256:
        raise ValueError("palette too large")
    raw = bytearray()
    for row in pixels:
        raw.append(0)
        raw += bytes(row)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    plte = b"".join(bytes(c) for c in palette)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"PLTE", plte) + _chunk(b"IDAT", _stored_zlib(bytes(raw))) + _chunk(b"IEND", b"")


def rgb_png(width, height, rows, compress=True) -> bytes:
    """rows: bytes-like of width*3 each (for throwaway pictures)."""
    raw = bytearray()
    for row in rows:
        raw.append(0)
        raw += row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(bytes(raw), 6) if compress else _stored_zlib(bytes(raw))
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
