//! Length-prefixed frames on a byte stream (the control stream).

use super::{DecodeError, Reader, Writer};

/// The largest stream frame Quarry accepts (64 KiB): far above any handshake
/// or reliable message (a 64-player scoreboard is ~3 KiB), small enough that
/// a peer cannot make us buffer much before we reject it.
pub const MAX_FRAME_LEN: usize = 64 * 1024;

/// Why the byte stream cannot be split into frames (the stream is then
/// unusable and the connection is closed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// A frame announced more than [`MAX_FRAME_LEN`] bytes.
    #[error("frame of {len} bytes exceeds the {max} byte limit")]
    TooLarge {
        /// Announced length.
        len: u64,
        /// The limit.
        max: usize,
    },
    /// The length prefix itself was not a valid varint.
    #[error("bad frame length prefix")]
    BadLength,
}

/// Appends one frame (varint length, payload) to `out`.
///
/// ```text
/// varint  len         payload length, <= MAX_FRAME_LEN
/// [len]   payload
/// ```
pub fn encode_frame(payload: &[u8], out: &mut Vec<u8>) {
    let mut w = Writer::with_capacity(payload.len() + 3);
    w.varint(payload.len() as u64);
    w.bytes(payload);
    out.extend_from_slice(w.as_slice());
}

/// Collects stream bytes and hands out complete frames.
#[derive(Debug, Default)]
pub struct FrameBuffer {
    buf: Vec<u8>,
}

impl FrameBuffer {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends bytes received from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes buffered and not yet returned as frames.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The next complete frame's payload; `Ok(None)` when more bytes are
    /// needed (incomplete), `Err` when the stream can never be valid.
    pub fn next_frame(&mut self) -> Result<Option<Vec<u8>>, FrameError> {
        let mut r = Reader::new(&self.buf);
        let len = match r.varint() {
            Ok(len) => len,
            Err(DecodeError::UnexpectedEnd) => return Ok(None),
            Err(_) => return Err(FrameError::BadLength),
        };
        if len > MAX_FRAME_LEN as u64 {
            return Err(FrameError::TooLarge { len, max: MAX_FRAME_LEN });
        }
        let header = self.buf.len() - r.remaining();
        let Ok(payload) = r.take(len as usize) else { return Ok(None) };
        let payload = payload.to_vec();
        self.buf.drain(..header + payload.len());
        Ok(Some(payload))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn frames_split_anywhere(payloads in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 1..5), cut in any::<prop::sample::Index>()) {
            let mut stream = Vec::new();
            for p in &payloads {
                encode_frame(p, &mut stream);
            }
            let cut = cut.index(stream.len() + 1);
            let mut fb = FrameBuffer::new();
            let mut got = Vec::new();
            fb.push(&stream[..cut]);
            while let Some(f) = fb.next_frame()? { got.push(f); }
            fb.push(&stream[cut..]);
            while let Some(f) = fb.next_frame()? { got.push(f); }
            prop_assert_eq!(got, payloads);
            prop_assert_eq!(fb.buffered(), 0);
        }
    }

    #[test]
    fn huge_frame_is_invalid_not_incomplete() {
        let mut w = Writer::new();
        w.varint(MAX_FRAME_LEN as u64 + 1);
        let mut fb = FrameBuffer::new();
        fb.push(w.as_slice());
        assert!(matches!(fb.next_frame(), Err(FrameError::TooLarge { .. })));
        let mut fb = FrameBuffer::new();
        fb.push(&[0x05, 1, 2]);
        assert_eq!(fb.next_frame(), Ok(None));
    }
}
