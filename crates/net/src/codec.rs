//! Bounds-checked byte reader and writer, LEB128 varints and stream framing.
//!
//! Everything Quarry puts on the wire is bytes written by [`Writer`] and read
//! back by [`Reader`]. The reader never indexes: every read checks what is
//! left and returns [`DecodeError::UnexpectedEnd`] instead of panicking, so a
//! decoder built on it cannot be crashed by a peer (quinn-proto's `Codec`).
//!
//! Integers are little-endian. Varints are unsigned LEB128 (7 bits per byte,
//! high bit = "more"); signed varints are zig-zag mapped first, so small
//! magnitudes of either sign take one byte.
//!
//! Stream framing (handshake and reliable messages) is a varint length and
//! that many payload bytes. [`FrameBuffer`] separates "not enough bytes yet"
//! (`Ok(None)`, incomplete) from "this can never be valid" (a
//! [`FrameError`]), the way mini-redis' `Frame::check` does.

/// Why bytes could not be decoded. Every decoder in the crate returns this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The data ended in the middle of a value.
    #[error("unexpected end of data")]
    UnexpectedEnd,
    /// A varint ran past 10 bytes or past the width of its target type.
    #[error("varint too long or too large")]
    VarintOverflow,
    /// A value was outside the range its field allows.
    #[error("{what} out of range")]
    OutOfRange {
        /// The field.
        what: &'static str,
    },
    /// A string field was not UTF-8.
    #[error("invalid utf-8 in {what}")]
    InvalidUtf8 {
        /// The field.
        what: &'static str,
    },
    /// A length (string, list, frame) was over its limit.
    #[error("{what} too long: {len} > {max}")]
    TooLong {
        /// The field.
        what: &'static str,
        /// The length found.
        len: u64,
        /// The limit.
        max: u64,
    },
    /// An enum tag had no meaning.
    #[error("unknown {what} tag {tag}")]
    UnknownTag {
        /// The enum.
        what: &'static str,
        /// The tag found.
        tag: u64,
    },
    /// A message had bytes left over after its last field.
    #[error("{0} trailing bytes")]
    TrailingBytes(usize),
    /// A delta snapshot named a base the receiver does not have.
    #[error("missing delta base snapshot {0}")]
    MissingBase(u32),
    /// A structural rule was broken (the text says which).
    #[error("invalid {0}")]
    Invalid(&'static str),
}

/// Appends encoded values to a byte vector.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Self { buf: Vec::with_capacity(n) }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The written bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Gives the written bytes back.
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// A little-endian u16.
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// An f32 as its IEEE-754 bits, little-endian (exact round trip).
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// An unsigned LEB128 varint (1 byte below 128, at most 10).
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// A zig-zag signed varint (0, -1, 1, -2 … map to 0, 1, 2, 3 …).
    pub fn svarint(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// A string cut to at most `max` bytes (at a character boundary), so
    /// the encoder never writes what the decoder would reject.
    pub fn str_max(&mut self, s: &str, max: usize) {
        self.str(truncate(s, max));
    }

    /// Raw bytes, no length.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// A string as varint length + UTF-8 bytes. The caller keeps it within
    /// the field's limit; the decoder rejects longer ones.
    pub fn str(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

/// `s` cut to at most `max` bytes at a character boundary.
pub fn truncate(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or_default()
}

/// Reads encoded values from a byte slice without ever panicking.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self { rest: buf }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Fails with [`DecodeError::TrailingBytes`] unless everything was read.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.rest.len() {
            0 => Ok(()),
            n => Err(DecodeError::TrailingBytes(n)),
        }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if n > self.rest.len() {
            return Err(DecodeError::UnexpectedEnd);
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    /// Everything left.
    pub fn take_rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.rest)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let b = self.take(N)?;
        <[u8; N]>::try_from(b).map_err(|_| DecodeError::UnexpectedEnd)
    }

    /// The next byte, left unread.
    pub fn peek_u8(&self) -> Result<u8, DecodeError> {
        self.rest.first().copied().ok_or(DecodeError::UnexpectedEnd)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(u8::from_le_bytes(self.array()?))
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// An f32 from its bits.
    pub fn f32(&mut self) -> Result<f32, DecodeError> {
        Ok(f32::from_bits(self.u32()?))
    }

    /// An f32 that must be finite (`what` names the field for the error).
    pub fn finite_f32(&mut self, what: &'static str) -> Result<f32, DecodeError> {
        let v = self.f32()?;
        if v.is_finite() { Ok(v) } else { Err(DecodeError::OutOfRange { what }) }
    }

    /// An unsigned LEB128 varint of at most 10 bytes.
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v: u64 = 0;
        for i in 0..10u32 {
            let b = self.u8()?;
            let bits = u64::from(b & 0x7f);
            if i == 9 && b > 1 {
                return Err(DecodeError::VarintOverflow);
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::VarintOverflow)
    }

    /// A varint that must fit in a u32.
    pub fn varint_u32(&mut self) -> Result<u32, DecodeError> {
        u32::try_from(self.varint()?).map_err(|_| DecodeError::VarintOverflow)
    }

    /// A varint that must be at most `max` (`what` names the field).
    pub fn varint_max(&mut self, max: u64, what: &'static str) -> Result<u64, DecodeError> {
        let v = self.varint()?;
        if v > max { Err(DecodeError::TooLong { what, len: v, max }) } else { Ok(v) }
    }

    /// A zig-zag signed varint.
    pub fn svarint(&mut self) -> Result<i64, DecodeError> {
        let u = self.varint()?;
        Ok(((u >> 1) as i64) ^ -((u & 1) as i64))
    }

    /// A zig-zag signed varint that must fit in an i32.
    pub fn svarint_i32(&mut self) -> Result<i32, DecodeError> {
        i32::try_from(self.svarint()?).map_err(|_| DecodeError::VarintOverflow)
    }

    /// A length-prefixed UTF-8 string of at most `max` bytes.
    pub fn str(&mut self, max: usize, what: &'static str) -> Result<String, DecodeError> {
        let len = self.varint_max(max as u64, what)?;
        let bytes = self.take(usize::try_from(len).map_err(|_| DecodeError::VarintOverflow)?)?;
        std::str::from_utf8(bytes).map(str::to_owned).map_err(|_| DecodeError::InvalidUtf8 { what })
    }

    /// A list length of at most `max` that also cannot exceed the bytes left
    /// (each element takes at least one byte), so a hostile count can never
    /// make the decoder reserve a huge vector.
    pub fn count(&mut self, max: usize, what: &'static str) -> Result<usize, DecodeError> {
        let n = self.varint_max(max as u64, what)?;
        let n = usize::try_from(n).map_err(|_| DecodeError::VarintOverflow)?;
        if n > self.remaining() {
            return Err(DecodeError::UnexpectedEnd);
        }
        Ok(n)
    }
}

mod frame;
pub use frame::{FrameBuffer, FrameError, MAX_FRAME_LEN, encode_frame};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn varints_round_trip(v in any::<u64>(), s in any::<i64>()) {
            let mut w = Writer::new();
            w.varint(v);
            w.svarint(s);
            let bytes = w.into_inner();
            let mut r = Reader::new(&bytes);
            prop_assert_eq!(r.varint()?, v);
            prop_assert_eq!(r.svarint()?, s);
            r.finish()?;
        }

        #[test]
        fn reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut r = Reader::new(&bytes);
            let _ = r.varint();
            let _ = r.str(16, "s");
            let _ = r.count(8, "n");
            let _ = r.svarint_i32();
            let _ = r.f32();
        }
    }

    #[test]
    fn small_values_are_one_byte() {
        let mut w = Writer::new();
        w.varint(127);
        w.svarint(-64);
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn overlong_varint_is_rejected() {
        let bytes = [0xffu8; 11];
        assert_eq!(Reader::new(&bytes).varint(), Err(DecodeError::VarintOverflow));
        let bytes = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(Reader::new(&bytes).varint(), Err(DecodeError::VarintOverflow));
    }

    #[test]
    fn hostile_count_cannot_exceed_remaining() {
        let mut w = Writer::new();
        w.varint(1000);
        assert_eq!(Reader::new(w.as_slice()).count(5000, "n"), Err(DecodeError::UnexpectedEnd));
    }
}
