//! Reading a recording back. A file cut short (the server died while
//! recording) reads up to its last whole chunk, and says it was cut.

use std::path::Path;

use crate::RecordError;
use crate::frame::{FORMAT_VERSION, Kind, MAGIC, TRAILER_MAGIC, decode, frame_at};
use crate::model::{Chunk, Footer, Header, IndexEntry, TickRecord};

/// The largest recording read, bytes (hours of a full server).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// A recording read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// How to build the match.
    pub header: Header,
    /// Every tick, in order.
    pub ticks: Vec<TickRecord>,
    /// The chunk index (empty when the file was cut short).
    pub index: Vec<IndexEntry>,
    /// The footer (`None` when the file was cut short).
    pub footer: Option<Footer>,
    /// Why reading stopped early, if it did (a cut file): the rest is lost.
    pub cut: Option<String>,
    /// Where the file's bytes go.
    pub bytes: RecordingBytes,
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

/// Reads the recording at `path`.
pub fn read(path: &Path) -> Result<Recording, RecordError> {
    let shown = path.display().to_string();
    let io = |source| RecordError::Io { path: shown.clone(), source };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(RecordError::Corrupt { path: shown, offset: 0, reason: format!("{len} bytes; a recording may have at most {MAX_FILE_BYTES}") });
    }
    let data = std::fs::read(path).map_err(io)?;
    parse(&data, &shown)
}

/// Parses a recording's bytes (`shown` names it in errors).
pub(crate) fn parse(data: &[u8], shown: &str) -> Result<Recording, RecordError> {
    let corrupt = |offset: usize, reason: String| RecordError::Corrupt { path: shown.to_owned(), offset: offset as u64, reason };
    if data.get(..8) != Some(MAGIC.as_slice()) {
        return Err(RecordError::NotARecording { path: shown.to_owned() });
    }
    let version = data.get(8..12).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0);
    if version != FORMAT_VERSION {
        return Err(RecordError::Version { path: shown.to_owned(), found: version, supported: FORMAT_VERSION });
    }
    // A finished file ends in the trailer; frames stop before it.
    let end = match data.len().checked_sub(16) {
        Some(t) if data.get(t..t + 8) == Some(TRAILER_MAGIC.as_slice()) => t,
        _ => data.len(),
    };
    let finished = end != data.len();
    let file = data.len() as u64;
    let data = &data[..end];
    let (header, mut at): (Header, usize) = match frame_at(data, 12) {
        Ok(Some((Kind::Header, body, next))) => (decode(body).map_err(|e| corrupt(12, e))?, next),
        Ok(Some((kind, ..))) => return Err(corrupt(12, format!("the first frame is a {kind:?}, not the header"))),
        Ok(None) => return Err(corrupt(12, "no header".to_owned())),
        Err(e) => return Err(corrupt(12, e)),
    };
    let mut rec = Recording { header, ticks: Vec::new(), index: Vec::new(), footer: None, cut: None, bytes: RecordingBytes { file, header: (at - 12) as u64, chunks: 0, per_chunk: Vec::new() } };
    loop {
        match frame_at(data, at) {
            Ok(None) => break,
            Ok(Some((kind, body, next))) => {
                let payload = match kind {
                    Kind::Chunk => decode::<Chunk>(body).map(|c| {
                        let size = (next - at) as u64;
                        if let (Some(first), Some(last)) = (c.ticks.first(), c.ticks.last()) {
                            rec.bytes.per_chunk.push((first.tick, last.tick, size));
                        }
                        rec.ticks.extend(c.ticks);
                        rec.bytes.chunks += size;
                    }),
                    Kind::Index => decode::<Vec<IndexEntry>>(body).map(|i| rec.index = i),
                    Kind::Footer => decode::<Footer>(body).map(|f| rec.footer = Some(f)),
                    Kind::Header => Err("a second header".to_owned()),
                };
                if let Err(e) = payload {
                    // A damaged frame in a finished file is an error; at the
                    // end of a cut one it is where the crash came.
                    if finished {
                        return Err(corrupt(at, e));
                    }
                    rec.cut = Some(format!("byte {at}: {e}"));
                    break;
                }
                at = next;
            }
            Err(e) if finished => return Err(corrupt(at, e)),
            Err(e) => {
                rec.cut = Some(format!("byte {at}: {e}"));
                break;
            }
        }
    }
    if rec.footer.is_none() && rec.cut.is_none() {
        rec.cut = Some("no footer: the recording was not finished".to_owned());
    }
    Ok(rec)
}
