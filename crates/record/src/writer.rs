//! Writing a recording off the tick thread: the tick thread gathers ticks
//! into chunks and hands each to a writer thread, which encodes,
//! compresses and appends it to `FILE.part` (a crash loses at most the
//! chunk being gathered). A clean end writes the index, the footer and the
//! trailer, syncs, and renames the file into place.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;

use crate::RecordError;
use crate::frame::{Kind, TRAILER_MAGIC, encode, write_preamble};
use crate::model::{Chunk, Footer, Header, IndexEntry, TickRecord};

/// Ticks per chunk (5 s at 60 Hz).
pub const CHUNK_TICKS: usize = 300;
/// Chunks waiting for the writer thread; a writer this far behind stops
/// the recording rather than hold up the tick.
const QUEUE_CHUNKS: usize = 64;

enum Msg {
    Chunk(Chunk),
    Finish(Footer),
}

/// A recording being written.
pub struct RecordWriter {
    path: PathBuf,
    part: PathBuf,
    tx: Option<SyncSender<Msg>>,
    thread: Option<JoinHandle<Result<(), String>>>,
    pending: Vec<TickRecord>,
    /// Why the recording stopped, if it did.
    stopped: Option<String>,
    bytes: Arc<AtomicU64>,
}

impl std::fmt::Debug for RecordWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordWriter").field("path", &self.path).field("stopped", &self.stopped).finish_non_exhaustive()
    }
}

impl RecordWriter {
    /// Starts a recording at `path` (written as `path.part` until it is
    /// finished) with `header`.
    pub fn create(path: &Path, header: &Header) -> Result<Self, RecordError> {
        let shown = path.display().to_string();
        let mut part = path.as_os_str().to_owned();
        part.push(".part");
        let part = PathBuf::from(part);
        let io = |source| RecordError::Io { path: shown.clone(), source };
        let file = File::create(&part).map_err(io)?;
        let mut out = BufWriter::new(file);
        write_preamble(&mut out).map_err(io)?;
        let frame = encode(Kind::Header, header).map_err(|reason| RecordError::Stopped { path: shown.clone(), reason })?;
        out.write_all(&frame).map_err(io)?;
        out.flush().map_err(io)?;
        let bytes = Arc::new(AtomicU64::new(12 + frame.len() as u64));
        let (tx, rx) = sync_channel(QUEUE_CHUNKS);
        let counter = Arc::clone(&bytes);
        let thread = std::thread::Builder::new()
            .name("record-writer".into())
            .spawn(move || write_loop(out, &rx, &counter))
            .map_err(io)?;
        Ok(Self { path: path.to_owned(), part, tx: Some(tx), thread: Some(thread), pending: Vec::with_capacity(CHUNK_TICKS), stopped: None, bytes })
    }

    /// Adds one tick; a full chunk goes to the writer thread.
    pub fn push(&mut self, tick: TickRecord) {
        if self.stopped.is_some() {
            return;
        }
        self.pending.push(tick);
        if self.pending.len() >= CHUNK_TICKS {
            self.send_pending();
        }
    }

    fn send_pending(&mut self) {
        let ticks = std::mem::replace(&mut self.pending, Vec::with_capacity(CHUNK_TICKS));
        let Some(tx) = &self.tx else { return };
        match tx.try_send(Msg::Chunk(Chunk { ticks })) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => self.stop(format!("the writer fell {QUEUE_CHUNKS} chunks behind")),
            Err(TrySendError::Disconnected(_)) => self.stop("the writer thread ended".to_owned()),
        }
    }

    fn stop(&mut self, reason: String) {
        tracing::error!("recording {}: stopped: {reason}; what was written stays in {}", self.path.display(), self.part.display());
        self.stopped = Some(reason);
        self.tx = None;
    }

    /// Why the recording stopped early, if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Bytes written so far (the chunks the writer thread has finished).
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Ends the recording cleanly: the last chunk, the index, `footer`, the
    /// trailer; synced and renamed into place. Returns the size in bytes.
    pub fn finish(mut self, footer: Footer) -> Result<u64, RecordError> {
        let shown = self.path.display().to_string();
        if !self.pending.is_empty() {
            self.send_pending();
        }
        if let Some(reason) = self.stopped.clone() {
            return Err(RecordError::Stopped { path: shown, reason });
        }
        let stopped = |reason: String| RecordError::Stopped { path: shown.clone(), reason };
        let tx = self.tx.take().ok_or_else(|| stopped("already finished".to_owned()))?;
        tx.send(Msg::Finish(footer)).map_err(|_| stopped("the writer thread ended".to_owned()))?;
        drop(tx);
        let thread = self.thread.take().ok_or_else(|| stopped("no writer thread".to_owned()))?;
        thread.join().map_err(|_| stopped("the writer thread panicked".to_owned()))?.map_err(stopped)?;
        std::fs::rename(&self.part, &self.path).map_err(|source| RecordError::Io { path: shown.clone(), source })?;
        Ok(self.bytes())
    }
}

impl Drop for RecordWriter {
    /// Dropped unfinished (the server is going down): what was gathered is
    /// written, and the file stays as `FILE.part`, readable up to there.
    fn drop(&mut self) {
        if self.tx.is_some() && !self.pending.is_empty() {
            self.send_pending();
        }
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The writer thread: chunks as they come, then the end.
fn write_loop(mut out: BufWriter<File>, rx: &Receiver<Msg>, bytes: &AtomicU64) -> Result<(), String> {
    let mut index = Vec::new();
    let mut offset = bytes.load(Ordering::Relaxed);
    let put = |out: &mut BufWriter<File>, frame: &[u8], offset: &mut u64| -> Result<(), String> {
        out.write_all(frame).and_then(|()| out.flush()).map_err(|e| e.to_string())?;
        *offset += frame.len() as u64;
        bytes.store(*offset, Ordering::Relaxed);
        Ok(())
    };
    while let Ok(msg) = rx.recv() {
        match msg {
            Msg::Chunk(chunk) => {
                let (Some(first), Some(last)) = (chunk.ticks.first().map(|t| t.tick), chunk.ticks.last().map(|t| t.tick)) else { continue };
                let frame = encode(Kind::Chunk, &chunk)?;
                index.push(IndexEntry { first_tick: first, last_tick: last, offset });
                put(&mut out, &frame, &mut offset)?;
            }
            Msg::Finish(footer) => {
                let index_at = offset;
                put(&mut out, &encode(Kind::Index, &index)?, &mut offset)?;
                put(&mut out, &encode(Kind::Footer, &footer)?, &mut offset)?;
                let mut trailer = TRAILER_MAGIC.to_vec();
                trailer.extend_from_slice(&index_at.to_le_bytes());
                put(&mut out, &trailer, &mut offset)?;
                let file = out.into_inner().map_err(|e| e.to_string())?;
                file.sync_all().map_err(|e| e.to_string())?;
                return Ok(());
            }
        }
    }
    // The sender went away without a clean end: what came is written.
    Ok(())
}
