//! Sending a map from server to client: its content hash, the compressed
//! copy a server offers, the chunks that carry it, and the client's
//! reassembly with a bounded decompression.
//!
//! The rule: a map is named by the SHA-256 of the exact bytes of the file
//! the server loaded ([`MapHash`], shown as 64 lowercase hex digits), told
//! to every client in the [`CS_MAP`](crate::handshake::CS_MAP) config
//! string with its size. A client that has a file with that hash (in its
//! maps folders or its cache) loads it; otherwise it sends
//! [`ClientMessage::MapRequest`](crate::reliable::ClientMessage::MapRequest)
//! and the server answers with [`MapChunk`]s of a zstd-compressed copy,
//! made once per map load ([`MapOffer`]), or with a
//! [`MapRefusal`](crate::reliable::MapRefusal) that says why not.
//! Why the hash and not the name: two servers' `q_dm1.map` may differ, and a
//! client that moved a player through a different collision world would
//! predict wrong; a hash over the bytes also lets the client check what it
//! received, so a broken or hostile transfer is never loaded.
//!
//! Chunks ride the ordered control stream like every reliable message, so
//! they arrive in order; [`MapAssembly`] still checks every offset and
//! length, bounds what it accepts by what the client allows
//! ([`MAX_MAP_BYTES`]), decompresses into at most the size announced and
//! checks the hash before handing out a byte.
//!
//! What it must not do: read files, clocks or sockets (the server's
//! network side paces the chunks; the client's map store reads and writes
//! files).

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

use crate::codec::{DecodeError, Reader, Writer};

/// Largest map a client accepts, decompressed, in bytes: the map loader's
/// own limit (`quarry_map::DEFAULT_MAX_FILE_BYTES`, 64 MiB), so nothing a
/// client could not load is ever downloaded.
pub const MAX_MAP_BYTES: u64 = 64 << 20;

/// Largest compressed copy a client accepts, in bytes. zstd never makes
/// incompressible data more than a little larger; this bounds what a hostile
/// server can make a client buffer.
pub const MAX_COMPRESSED_BYTES: u64 = MAX_MAP_BYTES + (1 << 20);

/// Bytes of compressed data in one [`MapChunk`]: a quarter of the 64 KiB
/// frame cap ([`crate::codec::MAX_FRAME_LEN`]), so a chunk never delays
/// other reliable messages behind it by much, and at the default 1 MB/s a
/// server sends about one a tick.
pub const MAP_CHUNK_LEN: usize = 16 * 1024;

/// Largest chunk the decoder accepts (twice what this build sends, so a
/// later server may send bigger ones without a protocol bump).
pub const MAX_MAP_CHUNK_LEN: usize = 2 * MAP_CHUNK_LEN;

/// The zstd level of a [`MapOffer`]: map text shrinks to about a fifth at
/// level 9, in a few milliseconds for the largest shipped maps (done once
/// per map load, not per client); level 19 saves a few per cent more at
/// ten times the time.
pub const COMPRESSION_LEVEL: i32 = 9;

/// The SHA-256 of a map file's bytes: what names a map between server and
/// client. Shown as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MapHash(pub [u8; 32]);

impl MapHash {
    /// The hash of a map file's exact bytes.
    pub fn of(bytes: &[u8]) -> Self {
        let digest = Sha256::digest(bytes);
        let mut out = [0u8; 32];
        for (o, d) in out.iter_mut().zip(digest.iter()) {
            *o = *d;
        }
        Self(out)
    }

    /// Appends the 32 bytes.
    pub fn encode(&self, w: &mut Writer) {
        w.bytes(&self.0);
    }

    /// Reads 32 bytes.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let b = r.take(32)?;
        <[u8; 32]>::try_from(b).map(Self).map_err(|_| DecodeError::UnexpectedEnd)
    }
}

impl fmt::Display for MapHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for MapHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MapHash({self})")
    }
}

/// Why text is not a [`MapHash`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a map hash (64 hex digits): {0:?}")]
pub struct BadMapHash(pub String);

impl FromStr for MapHash {
    type Err = BadMapHash;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadMapHash(s.chars().take(80).collect());
        if s.len() != 64 || !s.is_ascii() {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks(2)) {
            let hex = std::str::from_utf8(pair).map_err(|_| bad())?;
            *o = u8::from_str_radix(hex, 16).map_err(|_| bad())?;
        }
        Ok(Self(out))
    }
}

/// The [`CS_MAP`](crate::handshake::CS_MAP) value for a map: `"HASH SIZE"`,
/// the file's SHA-256 in hex and its length in bytes.
pub fn map_string(hash: MapHash, size: u64) -> String {
    format!("{hash} {size}")
}

/// Reads a [`CS_MAP`](crate::handshake::CS_MAP) value; `None` unless it is
/// a hash and a size (extra words after them are ignored, for later
/// additions).
pub fn parse_map_string(value: &str) -> Option<(MapHash, u64)> {
    let mut parts = value.split_ascii_whitespace();
    let hash = parts.next()?.parse().ok()?;
    let size = parts.next()?.parse().ok()?;
    Some((hash, size))
}

/// Why a server will not send a map (the payload of
/// [`ServerMessage::MapRefused`](crate::reliable::ServerMessage::MapRefused)),
/// worded for the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapRefusal {
    /// The server does not send maps (`sv_allowDownload 0`): the player
    /// needs the file.
    #[error("this server does not send maps (sv_allowDownload 0): get {file} (SHA-256 {hash}) and put it in a --maps folder")]
    DownloadsOff {
        /// The file the server runs (`NAME.map`).
        file: String,
        /// Its hash.
        hash: MapHash,
    },
    /// The hash asked for is not the map the server runs.
    #[error("not the map this server runs (it runs {map}, SHA-256 {hash})")]
    NotCurrent {
        /// The map it runs.
        map: String,
        /// Its hash.
        hash: MapHash,
    },
    /// The compressed map is over the server's cap.
    #[error("the map is too big to send: {size} bytes compressed, this server sends at most {max} (sv_downloadMaxKB)")]
    TooBig {
        /// Compressed size.
        size: u64,
        /// The cap.
        max: u64,
    },
    /// The client asked too often.
    #[error("too many map requests: try again in {retry_after_s} s")]
    TooManyRequests {
        /// Seconds until a request is taken again.
        retry_after_s: u32,
    },
    /// The request itself was wrong (an offset past the end).
    #[error("bad map request: {0}")]
    BadRequest(String),
    /// The server has no map it can send (none loaded, or its file could
    /// not be kept).
    #[error("the server has no map to send: {0}")]
    Unavailable(String),
}

impl MapRefusal {
    /// Appends the refusal.
    ///
    /// ```text
    /// u8  tag   0 downloads off, 1 not current, 2 too big, 3 too many
    ///           requests, 4 bad request, 5 unavailable
    /// 0:  str file, [u8; 32] hash        1: str map, [u8; 32] hash
    /// 2:  varint size, varint max        3: varint retry_after_s
    /// 4, 5: str text (<= MAX_SHORT_TEXT)
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        use crate::handshake::MAX_SHORT_TEXT;
        match self {
            Self::DownloadsOff { file, hash } => {
                w.u8(0);
                w.str_max(file, MAX_SHORT_TEXT);
                hash.encode(w);
            }
            Self::NotCurrent { map, hash } => {
                w.u8(1);
                w.str_max(map, MAX_SHORT_TEXT);
                hash.encode(w);
            }
            Self::TooBig { size, max } => {
                w.u8(2);
                w.varint(*size);
                w.varint(*max);
            }
            Self::TooManyRequests { retry_after_s } => {
                w.u8(3);
                w.varint(u64::from(*retry_after_s));
            }
            Self::BadRequest(t) => {
                w.u8(4);
                w.str_max(t, MAX_SHORT_TEXT);
            }
            Self::Unavailable(t) => {
                w.u8(5);
                w.str_max(t, MAX_SHORT_TEXT);
            }
        }
    }

    /// Reads a refusal.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        use crate::handshake::MAX_SHORT_TEXT;
        Ok(match r.u8()? {
            0 => Self::DownloadsOff { file: r.str(MAX_SHORT_TEXT, "map file")?, hash: MapHash::decode(r)? },
            1 => Self::NotCurrent { map: r.str(MAX_SHORT_TEXT, "map")?, hash: MapHash::decode(r)? },
            2 => Self::TooBig { size: r.varint()?, max: r.varint()? },
            3 => Self::TooManyRequests { retry_after_s: r.varint_u32()? },
            4 => Self::BadRequest(r.str(MAX_SHORT_TEXT, "refusal text")?),
            5 => Self::Unavailable(r.str(MAX_SHORT_TEXT, "refusal text")?),
            t => return Err(DecodeError::UnknownTag { what: "map refusal", tag: u64::from(t) }),
        })
    }
}

/// One piece of a map's compressed copy (the payload of
/// [`ServerMessage::MapChunk`](crate::reliable::ServerMessage::MapChunk)).
#[derive(Clone, PartialEq, Eq)]
pub struct MapChunk {
    /// The map it belongs to.
    pub hash: MapHash,
    /// The map file's size, decompressed, in bytes.
    pub size: u64,
    /// The compressed copy's length in bytes.
    pub total: u64,
    /// Where `data` starts in the compressed copy.
    pub offset: u64,
    /// The bytes (at most [`MAX_MAP_CHUNK_LEN`]).
    pub data: Vec<u8>,
}

impl fmt::Debug for MapChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapChunk")
            .field("hash", &self.hash)
            .field("size", &self.size)
            .field("total", &self.total)
            .field("offset", &self.offset)
            .field("len", &self.data.len())
            .finish()
    }
}

impl MapChunk {
    /// Appends the chunk.
    ///
    /// ```text
    /// [u8; 32] hash
    /// varint   size      the file's length, <= MAX_MAP_BYTES
    /// varint   total     the compressed copy's length, <= MAX_COMPRESSED_BYTES
    /// varint   offset    offset + len <= total
    /// varint   len, len bytes   data, len <= MAX_MAP_CHUNK_LEN
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        self.hash.encode(w);
        w.varint(self.size);
        w.varint(self.total);
        w.varint(self.offset);
        let data = self.data.get(..self.data.len().min(MAX_MAP_CHUNK_LEN)).unwrap_or_default();
        w.varint(data.len() as u64);
        w.bytes(data);
    }

    /// Reads a chunk, checking its lengths against each other and the limits.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let hash = MapHash::decode(r)?;
        let size = r.varint_max(MAX_MAP_BYTES, "map size")?;
        let total = r.varint_max(MAX_COMPRESSED_BYTES, "compressed map size")?;
        let offset = r.varint_max(total, "map chunk offset")?;
        let len = r.count(MAX_MAP_CHUNK_LEN, "map chunk")?;
        if offset.saturating_add(len as u64) > total {
            return Err(DecodeError::Invalid("map chunk past the end of the map"));
        }
        let data = r.take(len)?.to_vec();
        Ok(Self { hash, size, total, offset, data })
    }
}

/// A map as a server offers it: its name, hash and size, and the
/// compressed copy chunks are cut from. Made once per map load.
#[derive(Clone, PartialEq, Eq)]
pub struct MapOffer {
    /// The map's short name (the file's stem, as in the Welcome).
    pub name: String,
    /// The hash of the file's bytes.
    pub hash: MapHash,
    /// The file's length in bytes.
    pub size: u64,
    /// The zstd-compressed copy of the file.
    pub compressed: Vec<u8>,
}

impl fmt::Debug for MapOffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapOffer")
            .field("name", &self.name)
            .field("hash", &self.hash)
            .field("size", &self.size)
            .field("compressed", &self.compressed.len())
            .finish()
    }
}

/// Why a map could not be offered.
#[derive(Debug, thiserror::Error)]
pub enum OfferError {
    /// The file is larger than any client accepts.
    #[error("map is {size} bytes; clients accept at most {max}")]
    TooLarge {
        /// Its size.
        size: u64,
        /// [`MAX_MAP_BYTES`].
        max: u64,
    },
    /// zstd failed (out of memory).
    #[error("compressing the map: {0}")]
    Compress(std::io::Error),
}

impl MapOffer {
    /// Hashes and compresses a map file's bytes.
    pub fn new(name: impl Into<String>, bytes: &[u8]) -> Result<Self, OfferError> {
        let size = bytes.len() as u64;
        if size > MAX_MAP_BYTES {
            return Err(OfferError::TooLarge { size, max: MAX_MAP_BYTES });
        }
        let compressed = zstd::bulk::compress(bytes, COMPRESSION_LEVEL).map_err(OfferError::Compress)?;
        Ok(Self { name: name.into(), hash: MapHash::of(bytes), size, compressed })
    }

    /// The [`CS_MAP`](crate::handshake::CS_MAP) value for this map.
    pub fn config_string(&self) -> String {
        map_string(self.hash, self.size)
    }

    /// The compressed copy's length.
    pub fn total(&self) -> u64 {
        self.compressed.len() as u64
    }

    /// The chunk of at most `max_len` bytes (at most
    /// [`MAX_MAP_CHUNK_LEN`]) starting at `offset`; `None` at or past the
    /// end.
    pub fn chunk(&self, offset: u64, max_len: usize) -> Option<MapChunk> {
        let start = usize::try_from(offset).ok()?;
        let rest = self.compressed.get(start..).filter(|r| !r.is_empty())?;
        let len = rest.len().min(max_len.clamp(1, MAX_MAP_CHUNK_LEN));
        let data = rest.get(..len)?.to_vec();
        Some(MapChunk { hash: self.hash, size: self.size, total: self.total(), offset, data })
    }
}

/// Why a received map was thrown away.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssemblyError {
    /// A chunk of another map, or one whose sizes differ from the first's.
    #[error("a chunk of another map or transfer arrived ({0})")]
    Mismatch(&'static str),
    /// A chunk did not continue where the last one ended.
    #[error("map chunk at offset {got}, expected {expected}")]
    OutOfOrder {
        /// Its offset.
        got: u64,
        /// Where the data so far ends.
        expected: u64,
    },
    /// The map is larger than the client accepts.
    #[error("map is {size} bytes ({total} compressed); at most {max} accepted")]
    TooLarge {
        /// Size announced.
        size: u64,
        /// Compressed size announced.
        total: u64,
        /// The client's limit.
        max: u64,
    },
    /// The compressed copy did not decompress into the size announced.
    #[error("the map did not decompress: {0}")]
    Decompress(String),
    /// The bytes are not the map asked for.
    #[error("the received map's hash is {got}, not {expected}")]
    WrongHash {
        /// Hash asked for.
        expected: MapHash,
        /// Hash of what arrived.
        got: MapHash,
    },
}

/// A client's map transfer in progress: chunks in, the checked file out.
#[derive(Debug, Clone)]
pub struct MapAssembly {
    hash: MapHash,
    max_size: u64,
    size: Option<u64>,
    total: Option<u64>,
    data: Vec<u8>,
}

impl MapAssembly {
    /// Waits for the map with `hash`, accepting at most `max_size` bytes
    /// decompressed (at most [`MAX_MAP_BYTES`]).
    pub fn new(hash: MapHash, max_size: u64) -> Self {
        Self { hash, max_size: max_size.min(MAX_MAP_BYTES), size: None, total: None, data: Vec::new() }
    }

    /// The map this assembly waits for.
    pub fn hash(&self) -> MapHash {
        self.hash
    }

    /// Compressed bytes received so far and in all (`None` before the
    /// first chunk).
    pub fn progress(&self) -> (u64, Option<u64>) {
        (self.data.len() as u64, self.total)
    }

    /// Takes one chunk. Returns the whole map file, checked against its
    /// hash, once the last chunk is in; `Ok(None)` while more is due.
    /// After an error the assembly is spent (start a new one).
    pub fn accept(&mut self, chunk: &MapChunk) -> Result<Option<Vec<u8>>, AssemblyError> {
        if chunk.hash != self.hash {
            return Err(AssemblyError::Mismatch("hash"));
        }
        if chunk.size > self.max_size || chunk.total > MAX_COMPRESSED_BYTES {
            return Err(AssemblyError::TooLarge { size: chunk.size, total: chunk.total, max: self.max_size });
        }
        if *self.size.get_or_insert(chunk.size) != chunk.size || *self.total.get_or_insert(chunk.total) != chunk.total {
            return Err(AssemblyError::Mismatch("sizes"));
        }
        let expected = self.data.len() as u64;
        if chunk.offset != expected {
            return Err(AssemblyError::OutOfOrder { got: chunk.offset, expected });
        }
        let end = expected.saturating_add(chunk.data.len() as u64);
        if end > chunk.total {
            return Err(AssemblyError::Mismatch("chunk past the end"));
        }
        self.data.extend_from_slice(&chunk.data);
        if end < chunk.total {
            return Ok(None);
        }
        let bytes = decompress_bounded(&self.data, chunk.size)?;
        let got = MapHash::of(&bytes);
        if got != self.hash {
            return Err(AssemblyError::WrongHash { expected: self.hash, got });
        }
        Ok(Some(bytes))
    }
}

/// Decompresses `compressed` into exactly `size` bytes: output beyond `size`
/// is an error, never an allocation.
pub fn decompress_bounded(compressed: &[u8], size: u64) -> Result<Vec<u8>, AssemblyError> {
    let cap = usize::try_from(size.min(MAX_MAP_BYTES)).map_err(|_| AssemblyError::Decompress("size".into()))?;
    // zstd's bulk API writes into a buffer of this capacity and fails
    // rather than grow it; a frame that says it is larger fails up front.
    let bytes = zstd::bulk::decompress(compressed, cap.max(1)).map_err(|e| AssemblyError::Decompress(format!("{e} (at most {size} bytes)")))?;
    if bytes.len() as u64 != size {
        return Err(AssemblyError::Decompress(format!("{} bytes, {size} announced", bytes.len())));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_text() -> Vec<u8> {
        let mut s = String::from("{\n\"classname\" \"worldspawn\"\n");
        for i in 0..4000 {
            s += &format!("( {i} 0 0 ) ( 0 {i} 0 ) ( 0 0 {i} ) base/wall 0 0 0 1 1\n");
        }
        s += "}\n";
        s.into_bytes()
    }

    #[test]
    fn hashes_print_as_hex_and_parse_back() {
        let h = MapHash::of(b"abc");
        assert_eq!(h.to_string(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(h.to_string().parse::<MapHash>(), Ok(h));
        assert_eq!(h.to_string().to_uppercase().parse::<MapHash>(), Ok(h));
        for bad in ["", "ab", &"g".repeat(64), &"é".repeat(32), &format!("{h}0")] {
            assert!(bad.parse::<MapHash>().is_err(), "{bad}");
        }
        assert_eq!(parse_map_string(&map_string(h, 123)), Some((h, 123)));
        assert_eq!(parse_map_string(&format!("{h} 5 later")), Some((h, 5)));
        assert_eq!(parse_map_string(&h.to_string()), None);
        assert_eq!(parse_map_string("x 5"), None);
        assert_eq!(parse_map_string(&format!("{h} -5")), None);
    }

    #[test]
    fn an_offer_arrives_whole_through_its_chunks() {
        let text = map_text();
        let offer = MapOffer::new("m", &text).expect("offer");
        assert!(offer.total() < text.len() as u64 / 3, "{} of {}", offer.total(), text.len());
        let mut asm = MapAssembly::new(offer.hash, MAX_MAP_BYTES);
        let mut offset = 0;
        let mut done = None;
        while let Some(chunk) = offer.chunk(offset, 1000) {
            offset += chunk.data.len() as u64;
            // Every chunk survives the wire.
            let mut w = Writer::new();
            chunk.encode(&mut w);
            let back = MapChunk::decode(&mut Reader::new(w.as_slice())).expect("decode");
            assert_eq!(back, chunk);
            if let Some(bytes) = asm.accept(&back).expect("accept") {
                done = Some(bytes);
            }
        }
        assert_eq!(done.as_deref(), Some(&text[..]));
        assert_eq!(asm.progress(), (offer.total(), Some(offer.total())));
        assert!(offer.chunk(offer.total(), 1000).is_none());
    }

    #[test]
    fn bad_transfers_are_refused() {
        let text = map_text();
        let offer = MapOffer::new("m", &text).expect("offer");
        let first = offer.chunk(0, 1000).expect("chunk");
        let second = offer.chunk(1000, 1000).expect("chunk");
        // Another map's chunk, a gap, a size over the client's limit.
        let mut asm = MapAssembly::new(MapHash::of(b"other"), MAX_MAP_BYTES);
        assert_eq!(asm.accept(&first), Err(AssemblyError::Mismatch("hash")));
        let mut asm = MapAssembly::new(offer.hash, MAX_MAP_BYTES);
        assert_eq!(asm.accept(&second), Err(AssemblyError::OutOfOrder { got: 1000, expected: 0 }));
        let mut asm = MapAssembly::new(offer.hash, 100);
        assert!(matches!(asm.accept(&first), Err(AssemblyError::TooLarge { max: 100, .. })));
        // Sizes that change halfway.
        let mut asm = MapAssembly::new(offer.hash, MAX_MAP_BYTES);
        assert_eq!(asm.accept(&first), Ok(None));
        assert_eq!(asm.accept(&MapChunk { size: 7, ..second.clone() }), Err(AssemblyError::Mismatch("sizes")));
        // Right length, wrong content: the hash check catches it.
        let fake = MapOffer::new("m", b"{ \"classname\" \"worldspawn\" }").expect("offer");
        let mut asm = MapAssembly::new(offer.hash, MAX_MAP_BYTES);
        let lie = MapChunk { hash: offer.hash, ..fake.chunk(0, MAX_MAP_CHUNK_LEN).expect("chunk") };
        assert!(matches!(asm.accept(&lie), Err(AssemblyError::WrongHash { .. })));
        // A copy that says it is small but inflates beyond: refused, not allocated.
        let mut asm = MapAssembly::new(offer.hash, MAX_MAP_BYTES);
        let mut last = None;
        for c in (0..).map_while(|i| offer.chunk(i * 4096, 4096)) {
            last = Some(asm.accept(&MapChunk { size: 10, ..c }));
        }
        assert!(matches!(last, Some(Err(AssemblyError::Decompress(_)))), "{last:?}");
        // Garbage that is not zstd.
        assert!(decompress_bounded(b"not zstd at all", 100).is_err());
    }

    #[test]
    fn chunks_with_bad_lengths_do_not_decode() {
        let chunk = MapChunk { hash: MapHash::of(b"x"), size: 10, total: 5, offset: 3, data: vec![1, 2, 3] };
        let mut w = Writer::new();
        chunk.encode(&mut w);
        assert_eq!(MapChunk::decode(&mut Reader::new(w.as_slice())), Err(DecodeError::Invalid("map chunk past the end of the map")));
        let mut w = Writer::new();
        MapChunk { total: MAX_COMPRESSED_BYTES + 1, ..chunk.clone() }.encode(&mut w);
        assert!(matches!(MapChunk::decode(&mut Reader::new(w.as_slice())), Err(DecodeError::TooLong { .. })));
        let mut w = Writer::new();
        MapChunk { total: 100, ..chunk }.encode(&mut w);
        let bytes = w.into_inner();
        for cut in 0..bytes.len() {
            assert!(MapChunk::decode(&mut Reader::new(&bytes[..cut])).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn a_map_over_the_limit_is_not_offered() {
        let big = vec![b' '; (MAX_MAP_BYTES + 1) as usize];
        assert!(matches!(MapOffer::new("big", &big), Err(OfferError::TooLarge { .. })));
    }
}
