//! The file layout: the magic and the format version, then frames (kind,
//! length, the zstd-compressed postcard encoding of the payload), and on a
//! clean end the trailer with the index frame's offset.

use std::io::Write;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The first bytes of every recording.
pub const MAGIC: &[u8; 8] = b"QRYDEMO\0";
/// The last 16 bytes of a finished one start with this (then the index
/// frame's offset, u64 little-endian).
pub const TRAILER_MAGIC: &[u8; 8] = b"QRYEND\0\0";
/// The format this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
/// The largest frame read from a file, bytes (a bad length cannot make
/// the reader allocate more).
pub const MAX_FRAME_BYTES: u32 = 64 * 1024 * 1024;
/// The largest payload a header frame may decompress to, bytes (the map's
/// and the config files' text).
pub const MAX_PAYLOAD_BYTES: usize = 64 * 1024 * 1024;
/// The largest payload any other frame (a chunk, the index, the footer)
/// may decompress to, bytes: a chunk of a full server is well under 1 MiB.
pub const MAX_CHUNK_PAYLOAD_BYTES: usize = 16 * 1024 * 1024;
/// zstd's level for chunks: high, since they are compressed off the tick
/// thread and are most of a file (19 makes an 8-player minute 20 % smaller
/// than 3, at about 2 ms a chunk).
const CHUNK_LEVEL: i32 = 19;
/// zstd's level for the other frames: the header is written as a match
/// starts, and a large map's text should not hold it up.
const OTHER_LEVEL: i32 = 9;

/// A frame's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    Header = 1,
    Chunk = 2,
    Index = 3,
    Footer = 4,
}

impl Kind {
    pub(crate) fn from_byte(b: u8) -> Option<Self> {
        match b {
            1 => Some(Self::Header),
            2 => Some(Self::Chunk),
            3 => Some(Self::Index),
            4 => Some(Self::Footer),
            _ => None,
        }
    }
}

/// A payload as a frame's bytes (kind, length, body).
pub(crate) fn encode<T: Serialize>(kind: Kind, payload: &T) -> Result<Vec<u8>, String> {
    let raw = postcard::to_stdvec(payload).map_err(|e| format!("encode: {e}"))?;
    let body = zstd::bulk::compress(&raw, if kind == Kind::Chunk { CHUNK_LEVEL } else { OTHER_LEVEL }).map_err(|e| format!("compress: {e}"))?;
    let len = u32::try_from(body.len()).ok().filter(|l| *l <= MAX_FRAME_BYTES).ok_or_else(|| format!("a frame of {} bytes is over the limit", body.len()))?;
    let mut out = Vec::with_capacity(body.len() + 5);
    out.push(kind as u8);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// The payload of a frame body of `kind`: decompressed within its kind's
/// limit, then decoded with every list within its limit.
pub(crate) fn decode<T: DeserializeOwned>(kind: Kind, body: &[u8]) -> Result<T, String> {
    let limit = if kind == Kind::Header { MAX_PAYLOAD_BYTES } else { MAX_CHUNK_PAYLOAD_BYTES };
    let raw = zstd::bulk::decompress(body, limit).map_err(|e| format!("decompress (at most {limit} bytes): {e}"))?;
    crate::bounded::take_refusal();
    postcard::from_bytes(&raw).map_err(|e| format!("decode: {}", crate::bounded::take_refusal().unwrap_or_else(|| e.to_string())))
}

/// The start of a file: magic and version.
pub(crate) fn write_preamble(w: &mut impl Write) -> std::io::Result<()> {
    w.write_all(MAGIC)?;
    w.write_all(&FORMAT_VERSION.to_le_bytes())
}

/// A frame found in a file: its kind, its body, where the next starts.
pub(crate) type Frame<'a> = (Kind, &'a [u8], usize);

/// The frame at `at` in `data`; `Ok(None)` at the end; `Err` with the
/// reason for a short or bad frame.
pub(crate) fn frame_at(data: &[u8], at: usize) -> Result<Option<Frame<'_>>, String> {
    if at >= data.len() {
        return Ok(None);
    }
    let head = data.get(at..at + 5).ok_or("the file ends inside a frame header")?;
    let kind = Kind::from_byte(head[0]).ok_or_else(|| format!("unknown frame kind {}", head[0]))?;
    let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    if len > MAX_FRAME_BYTES {
        return Err(format!("frame length {len} is over the limit of {MAX_FRAME_BYTES}"));
    }
    let end = at + 5 + len as usize;
    let body = data.get(at + 5..end).ok_or("the file ends inside a frame")?;
    Ok(Some((kind, body, end)))
}
