//! Reading a recording back. A file cut short (the server died while
//! recording) reads up to its last whole chunk, and says it was cut.
//!
//! Opening a file checks every chunk once (decoded, then dropped) and keeps
//! only where each is: the ticks are decoded again a chunk at a time as a
//! replay asks for them ([`Recording::ticks`]), so a long recording never
//! sits in memory as ticks. What a file may claim is bounded, since a few
//! kilobytes of zstd can claim millions of empty ticks:
//!
//! - a chunk holds at most [`crate::MAX_CHUNK_TICKS`] ticks, a recording
//!   at most [`crate::MAX_HOURS`] hours of them at its tick rate, and a
//!   finished one no more than its footer says the match had;
//! - ticks increase from chunk to chunk;
//! - no run of more than the header's `hash_every` ticks goes without a
//!   stored state hash, so every tick a replay plays is checked against
//!   the real match within that many ticks: a file can make a replay
//!   simulate only as long as the match it recorded really ran.

use std::path::Path;
use std::sync::Arc;

use crate::RecordError;
use crate::frame::{FORMAT_VERSION, Kind, MAGIC, TRAILER_MAGIC, decode, frame_at};
use crate::model::{Chunk, Footer, Header, IndexEntry, TickRecord};

/// The largest recording read, bytes (hours of a full server).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// A recording read from a file.
#[derive(Clone)]
pub struct Recording {
    /// How to build the match.
    pub header: Header,
    /// The chunk index (empty when the file was cut short).
    pub index: Vec<IndexEntry>,
    /// The footer (`None` when the file was cut short).
    pub footer: Option<Footer>,
    /// Why reading stopped early, if it did (a cut file): the rest is lost.
    pub cut: Option<String>,
    /// Where the file's bytes go.
    pub bytes: RecordingBytes,
    /// Every whole chunk, in order.
    chunks: Vec<ChunkSpan>,
    /// The file's bytes, which the chunks are decoded from as they are read.
    data: Arc<Vec<u8>>,
    /// The file's name, for errors.
    shown: String,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording")
            .field("file", &self.shown)
            .field("header", &self.header)
            .field("chunks", &self.chunks.len())
            .field("footer", &self.footer)
            .field("cut", &self.cut)
            .finish_non_exhaustive()
    }
}

/// A whole chunk of a recording: where its frame is and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSpan {
    /// The frame's offset in the file.
    pub offset: u64,
    /// Its first tick.
    pub first_tick: u32,
    /// Its last tick.
    pub last_tick: u32,
    /// How many tick records it holds.
    pub ticks: u32,
    /// How many of them carry a state hash.
    pub hashes: u32,
    /// The frame's size in the file, bytes.
    pub size: u64,
    /// The frame body's place in the file.
    body: (usize, usize),
}

/// Where a recording's bytes go: a fixed cost (the header, with the map
/// and config text) and a cost per minute of play (the chunks).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordingBytes {
    /// The whole file.
    pub file: u64,
    /// The header frame.
    pub header: u64,
    /// Every chunk frame.
    pub chunks: u64,
    /// Each chunk frame's first and last tick and size, in order.
    pub per_chunk: Vec<(u32, u32, u64)>,
}

impl Recording {
    /// Every whole chunk, in order.
    pub fn chunks(&self) -> &[ChunkSpan] {
        &self.chunks
    }

    /// How many tick records the recording holds.
    pub fn tick_count(&self) -> u64 {
        self.chunks.iter().map(|c| u64::from(c.ticks)).sum()
    }

    /// How many of them carry a state hash.
    pub fn hash_count(&self) -> u64 {
        self.chunks.iter().map(|c| u64::from(c.hashes)).sum()
    }

    /// The last tick recorded (`None` for a recording without ticks).
    pub fn last_tick(&self) -> Option<u32> {
        self.chunks.last().map(|c| c.last_tick)
    }

    /// Chunk `i` (in file order), decoded.
    pub fn chunk(&self, i: usize) -> Result<Chunk, RecordError> {
        let span = self.chunks.get(i).ok_or_else(|| RecordError::Corrupt { path: self.shown.clone(), offset: 0, reason: format!("no chunk {i}") })?;
        let body = self.data.get(span.body.0..span.body.1).unwrap_or_default();
        decode(Kind::Chunk, body).map_err(|reason| RecordError::Corrupt { path: self.shown.clone(), offset: span.offset, reason })
    }

    /// Every tick, in order, decoded a chunk at a time.
    pub fn ticks(&self) -> Ticks<'_> {
        Ticks { rec: self, next_chunk: 0, current: Vec::new().into_iter(), failed: false }
    }
}

/// The ticks of a [`Recording`], a chunk decoded at a time.
#[derive(Debug)]
pub struct Ticks<'a> {
    rec: &'a Recording,
    next_chunk: usize,
    current: std::vec::IntoIter<TickRecord>,
    failed: bool,
}

impl Iterator for Ticks<'_> {
    type Item = Result<TickRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(t) = self.current.next() {
                return Some(Ok(t));
            }
            if self.failed || self.next_chunk >= self.rec.chunks.len() {
                return None;
            }
            let chunk = self.rec.chunk(self.next_chunk);
            self.next_chunk += 1;
            match chunk {
                Ok(c) => self.current = c.ticks.into_iter(),
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Reads the recording at `path`.
pub fn read(path: &Path) -> Result<Recording, RecordError> {
    let shown = path.display().to_string();
    let io = |source| RecordError::Io { path: shown.clone(), source };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(RecordError::Corrupt { path: shown, offset: 0, reason: format!("{len} bytes; a recording may have at most {MAX_FILE_BYTES}") });
    }
    let data = std::fs::read(path).map_err(io)?;
    parse(data, &shown)
}

/// What the ticks of a recording must keep to (see the module's doc).
struct TickRules {
    /// The most tick records the file may hold.
    max_ticks: u64,
    /// Why that is the most, for the error.
    max_why: String,
    /// The most records in a row without a state hash.
    hash_every: u32,
    /// Records so far.
    count: u64,
    /// Records since the last with a hash.
    unhashed: u32,
    /// The last tick so far.
    last: Option<u32>,
}

impl TickRules {
    fn new(header: &Header, footer: Option<&Footer>) -> Result<Self, String> {
        if !(1..=crate::MAX_HZ).contains(&header.hz) {
            return Err(format!("a tick rate of {} Hz; a recording's is 1 to {}", header.hz, crate::MAX_HZ));
        }
        if !(1..=crate::MAX_HASH_EVERY).contains(&header.hash_every) {
            return Err(format!("a state hash every {} ticks; a recording stores one every 1 to {} ticks", header.hash_every, crate::MAX_HASH_EVERY));
        }
        let most = crate::MAX_HOURS * 3600 * u64::from(header.hz);
        let (max_ticks, max_why) = match footer {
            Some(f) if u64::from(f.ticks) > most => {
                return Err(format!("the footer claims {} ticks; a recording holds at most {} hours ({most} ticks at {} Hz)", f.ticks, crate::MAX_HOURS, header.hz));
            }
            Some(f) => (u64::from(f.ticks), format!("the footer's {} ticks (the recorded match's end)", f.ticks)),
            None => (most, format!("{} hours at {} Hz", crate::MAX_HOURS, header.hz)),
        };
        Ok(Self { max_ticks, max_why, hash_every: header.hash_every, count: 0, unhashed: 0, last: None })
    }

    /// Checks a chunk's ticks in order; returns how many carry a hash.
    fn check(&mut self, chunk: &Chunk) -> Result<u32, String> {
        let mut hashes = 0;
        for t in &chunk.ticks {
            if let Some(last) = self.last
                && t.tick <= last
            {
                return Err(format!("tick {} after tick {last}: ticks must increase", t.tick));
            }
            self.last = Some(t.tick);
            self.count += 1;
            if self.count > self.max_ticks {
                return Err(format!("tick {} is past the most ticks this recording may hold: {}", t.tick, self.max_why));
            }
            if t.hash.is_some() {
                hashes += 1;
                self.unhashed = 0;
            } else {
                self.unhashed += 1;
                if self.unhashed > self.hash_every {
                    return Err(format!("{} ticks without a state hash up to tick {}; a recording stores one every {} ticks", self.unhashed, t.tick, self.hash_every));
                }
            }
        }
        Ok(hashes)
    }
}

/// Parses a recording's bytes (`shown` names it in errors).
pub(crate) fn parse(data: Vec<u8>, shown: &str) -> Result<Recording, RecordError> {
    let corrupt = |offset: usize, reason: String| RecordError::Corrupt { path: shown.to_owned(), offset: offset as u64, reason };
    if data.get(..8) != Some(MAGIC.as_slice()) {
        return Err(RecordError::NotARecording { path: shown.to_owned() });
    }
    let version = data.get(8..12).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0);
    if version != FORMAT_VERSION {
        return Err(RecordError::Version { path: shown.to_owned(), found: version, supported: FORMAT_VERSION });
    }
    // A finished file ends in the trailer, which says where the index is:
    // chunks stop there, and the index and the footer follow.
    let trailer = data.len().checked_sub(16).filter(|t| data.get(*t..*t + 8) == Some(TRAILER_MAGIC.as_slice()));
    let file = data.len() as u64;
    let (header, chunks_at): (Header, usize) = match frame_at(&data, 12) {
        Ok(Some((Kind::Header, body, next))) => (decode(Kind::Header, body).map_err(|e| corrupt(12, e))?, next),
        Ok(Some((kind, ..))) => return Err(corrupt(12, format!("the first frame is a {kind:?}, not the header"))),
        Ok(None) => return Err(corrupt(12, "no header".to_owned())),
        Err(e) => return Err(corrupt(12, e)),
    };
    let (chunks_end, index, footer) = match trailer {
        Some(t) => {
            let (index_at, index, footer) = ending(&data, t, chunks_at).map_err(|(at, e)| corrupt(at, e))?;
            (index_at, index, Some(footer))
        }
        None => (data.len(), Vec::new(), None),
    };
    let mut rules = TickRules::new(&header, footer.as_ref()).map_err(|e| corrupt(12, e))?;
    let mut chunks = Vec::new();
    let mut cut = None;
    let mut at = chunks_at;
    let region = &data[..chunks_end];
    loop {
        let found = frame_at(region, at).and_then(|frame| match frame {
            None => Ok(None),
            Some((Kind::Chunk, body, next)) => {
                let chunk: Chunk = decode(Kind::Chunk, body)?;
                if chunks.len() >= crate::MAX_CHUNKS {
                    return Err(format!("over {} chunks", crate::MAX_CHUNKS));
                }
                let hashes = rules.check(&chunk)?;
                let (Some(first), Some(last)) = (chunk.ticks.first(), chunk.ticks.last()) else { return Err("an empty chunk".to_owned()) };
                let body_at = at + 5;
                Ok(Some(ChunkSpan {
                    offset: at as u64,
                    first_tick: first.tick,
                    last_tick: last.tick,
                    ticks: u32::try_from(chunk.ticks.len()).unwrap_or(u32::MAX),
                    hashes,
                    size: (next - at) as u64,
                    body: (body_at, body_at + body.len()),
                }))
            }
            Some((kind, ..)) => Err(format!("a {kind:?} frame among the chunks")),
        });
        match found {
            Ok(None) => break,
            Ok(Some(span)) => {
                at += span.size as usize;
                chunks.push(span);
            }
            // A damaged frame in a finished file is an error; at the end of
            // a cut one it is where the crash came.
            Err(e) if footer.is_some() => return Err(corrupt(at, e)),
            Err(e) => {
                cut = Some(format!("byte {at}: {e}"));
                break;
            }
        }
    }
    if footer.is_some() {
        let found = chunks.iter().map(|c| (c.first_tick, c.last_tick, c.offset));
        if !found.eq(index.iter().map(|e| (e.first_tick, e.last_tick, e.offset))) {
            return Err(corrupt(chunks_end, format!("the index lists {} chunks that do not match the {} in the file", index.len(), chunks.len())));
        }
    } else if cut.is_none() {
        cut = Some("no footer: the recording was not finished".to_owned());
    }
    let bytes = RecordingBytes {
        file,
        header: (chunks_at - 12) as u64,
        chunks: chunks.iter().map(|c| c.size).sum(),
        per_chunk: chunks.iter().map(|c| (c.first_tick, c.last_tick, c.size)).collect(),
    };
    Ok(Recording { header, index, footer, cut, bytes, chunks, data: Arc::new(data), shown: shown.to_owned() })
}

/// The end of a finished file whose trailer starts at `trailer`: where the
/// index frame starts (the chunks end there), the index and the footer,
/// which must fill the space up to the trailer. An error gives the offset
/// it was found at.
fn ending(data: &[u8], trailer: usize, chunks_at: usize) -> Result<(usize, Vec<IndexEntry>, Footer), (usize, String)> {
    let mut offset = [0u8; 8];
    offset.copy_from_slice(&data[trailer + 8..trailer + 16]);
    let index_at = usize::try_from(u64::from_le_bytes(offset)).ok().filter(|at| (chunks_at..trailer).contains(at)).ok_or_else(|| (trailer, "the trailer's index offset is outside the file".to_owned()))?;
    let before = &data[..trailer];
    let (index, footer_at) = match frame_at(before, index_at) {
        Ok(Some((Kind::Index, body, next))) => (decode::<IndexList>(Kind::Index, body).map_err(|e| (index_at, e))?.0, next),
        Ok(Some((kind, ..))) => return Err((index_at, format!("the trailer points at a {kind:?} frame, not the index"))),
        Ok(None) => return Err((index_at, "no index".to_owned())),
        Err(e) => return Err((index_at, e)),
    };
    let footer = match frame_at(before, footer_at) {
        Ok(Some((Kind::Footer, body, next))) if next == trailer => decode::<Footer>(Kind::Footer, body).map_err(|e| (footer_at, e))?,
        Ok(Some((Kind::Footer, ..))) => return Err((footer_at, "bytes between the footer and the trailer".to_owned())),
        Ok(Some((kind, ..))) => return Err((footer_at, format!("a {kind:?} frame where the footer should be"))),
        Ok(None) => return Err((footer_at, "no footer before the trailer".to_owned())),
        Err(e) => return Err((footer_at, e)),
    };
    Ok((index_at, index, footer))
}

/// The index as read: at most [`crate::MAX_CHUNKS`] entries (written as a
/// plain list).
#[derive(serde::Deserialize)]
struct IndexList(#[serde(deserialize_with = "crate::bounded::index")] Vec<IndexEntry>);
