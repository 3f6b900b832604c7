//! Seeded mutations of map text, for fuzzing the loader and everything fed
//! by it (the fuzz tests in `crates/*/tests`, `crates/nav/examples/fuzz_maps.rs`
//! and `scripts/fuzz.sh`).
//!
//! Everything is deterministic: a [`Mutator`] built from a seed always
//! produces the same mutants from the same text, so a failing case is
//! replayed from its seed alone. Nothing here is used to load a map.

use std::fmt;

/// A small seeded generator (SplitMix64): good enough to pick mutations,
/// and the same on every platform.
#[derive(Debug, Clone)]
pub struct FuzzRng(u64);

impl FuzzRng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> FuzzRng {
        FuzzRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// Numbers that stress the loader: huge, tiny, non-finite, unparsable as
/// `f32` but not `f64`, at and just past the world limit, negative zero.
pub const HOSTILE_NUMBERS: &[&str] = &[
    "1e30", "-1e30", "nan", "inf", "-inf", "1e400", "-0", "65536", "65537", "-65537", "1000000", "-1000000", "2e10",
    "-99999999999", "0.000001", "3.4e38", "1e-320", "4294967297", "129", "131", "0", "-1", "999999999",
];

/// One kind of mutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Flip one bit of one byte.
    ByteFlip,
    /// Delete one whitespace-separated token.
    TokenDelete,
    /// Repeat one token 1 to 64 times.
    TokenDuplicate,
    /// Repeat one line (a face, a key) 1 to 512 times.
    LineDuplicate,
    /// Replace one number with one of [`HOSTILE_NUMBERS`] or a random integer.
    NumberReplace,
    /// Cut the text at a random point.
    Truncate,
    /// Insert a brace, paren, bracket or quote.
    InsertPunctuation,
}

impl Mutation {
    /// Every mutation, in the order [`Mutator`] draws from.
    pub const ALL: [Mutation; 7] = [
        Mutation::ByteFlip,
        Mutation::TokenDelete,
        Mutation::TokenDuplicate,
        Mutation::LineDuplicate,
        Mutation::NumberReplace,
        Mutation::Truncate,
        Mutation::InsertPunctuation,
    ];
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Applies random mutations to map text.
#[derive(Debug, Clone)]
pub struct Mutator {
    rng: FuzzRng,
}

impl Mutator {
    /// A mutator whose choices all follow from `seed`.
    pub fn new(seed: u64) -> Mutator {
        Mutator { rng: FuzzRng::new(seed) }
    }

    /// `text` with 1 to `max_mutations` random mutations applied, and the
    /// mutations chosen (number replacement twice as likely as the rest:
    /// it reaches the geometry and limits, not just the parser).
    pub fn mutate(&mut self, text: &[u8], max_mutations: usize) -> (Vec<u8>, Vec<Mutation>) {
        let mut out = text.to_vec();
        let n = 1 + self.rng.below(max_mutations.max(1));
        let mut applied = Vec::with_capacity(n);
        for _ in 0..n {
            let pick = self.rng.below(Mutation::ALL.len() + 1);
            let m = Mutation::ALL.get(pick).copied().unwrap_or(Mutation::NumberReplace);
            self.apply(&mut out, m);
            applied.push(m);
        }
        (out, applied)
    }

    /// Applies one mutation in place.
    pub fn apply(&mut self, text: &mut Vec<u8>, m: Mutation) {
        if text.is_empty() {
            text.extend_from_slice(b"{");
            return;
        }
        match m {
            Mutation::ByteFlip => {
                let i = self.rng.below(text.len());
                let bit = self.rng.below(8);
                if let Some(b) = text.get_mut(i) {
                    *b ^= 1 << bit;
                }
            }
            Mutation::TokenDelete => {
                let (a, b) = self.token(text);
                text.drain(a..b);
            }
            Mutation::TokenDuplicate => {
                let (a, b) = self.token(text);
                let mut piece = text.get(a..b).unwrap_or(&[]).to_vec();
                piece.push(b' ');
                let times = 1 + self.rng.below(64);
                let insert = piece.repeat(times);
                text.splice(a..a, insert);
            }
            Mutation::LineDuplicate => {
                let i = self.rng.below(text.len());
                let a = text.get(..i).and_then(|s| s.iter().rposition(|&c| c == b'\n')).map_or(0, |p| p + 1);
                let b = text.get(i..).and_then(|s| s.iter().position(|&c| c == b'\n')).map_or(text.len(), |p| i + p + 1);
                let mut line = text.get(a..b).unwrap_or(&[]).to_vec();
                if line.last() != Some(&b'\n') {
                    line.push(b'\n');
                }
                let times = 1 + self.rng.below(512);
                text.splice(a..a, line.repeat(times));
            }
            Mutation::NumberReplace => {
                let Some((a, b)) = self.number(text) else {
                    return self.apply(text, Mutation::ByteFlip);
                };
                let choice = self.rng.below(HOSTILE_NUMBERS.len() + 4);
                let replacement = match HOSTILE_NUMBERS.get(choice) {
                    Some(s) => (*s).to_owned(),
                    None => (self.rng.next_u64() as i64 >> self.rng.below(60)).to_string(),
                };
                text.splice(a..b, replacement.into_bytes());
            }
            Mutation::Truncate => {
                let i = self.rng.below(text.len());
                text.truncate(i);
            }
            Mutation::InsertPunctuation => {
                let i = self.rng.below(text.len() + 1);
                let c = b"{}()[]\"/"[self.rng.below(8)];
                text.insert(i.min(text.len()), c);
            }
        }
    }

    /// A random whitespace-separated token's byte range.
    fn token(&mut self, text: &[u8]) -> (usize, usize) {
        let i = self.rng.below(text.len());
        let is_space = |c: &u8| c.is_ascii_whitespace();
        let a = text.get(..i).and_then(|s| s.iter().rposition(is_space)).map_or(0, |p| p + 1);
        let b = text.get(i..).and_then(|s| s.iter().position(is_space)).map_or(text.len(), |p| i + p);
        (a.min(b), b)
    }

    /// The byte range of a number token near a random position (the first
    /// at or after it, wrapping), if the text has any.
    fn number(&mut self, text: &[u8]) -> Option<(usize, usize)> {
        let start = self.rng.below(text.len());
        let is_num_byte = |c: u8| c.is_ascii_digit() || c == b'-' || c == b'.';
        let find = |from: usize, to: usize| -> Option<(usize, usize)> {
            let mut i = from;
            while i < to {
                let c = *text.get(i)?;
                let boundary = i == 0 || text.get(i - 1).is_some_and(|p| p.is_ascii_whitespace() || *p == b'(');
                if boundary && is_num_byte(c) {
                    let end = text.get(i..).and_then(|s| s.iter().position(|&c| !is_num_byte(c))).map_or(text.len(), |p| i + p);
                    if text.get(i..end).is_some_and(|s| s.iter().any(u8::is_ascii_digit)) {
                        return Some((i, end));
                    }
                    i = end;
                }
                i += 1;
            }
            None
        };
        find(start, text.len()).or_else(|| find(0, start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &[u8] = b"{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) t 0 0 0 1 1\n}\n}\n";

    #[test]
    fn the_same_seed_gives_the_same_mutants() {
        let a: Vec<_> = (0..50).map(|s| Mutator::new(s).mutate(TEXT, 4)).collect();
        let b: Vec<_> = (0..50).map(|s| Mutator::new(s).mutate(TEXT, 4)).collect();
        assert_eq!(a, b);
        assert!(a.iter().filter(|(m, _)| m.as_slice() != TEXT).count() > 40, "most mutants differ from the text");
    }

    #[test]
    fn number_replacement_touches_a_number() {
        let mut m = Mutator::new(7);
        let mut changed = 0;
        for _ in 0..20 {
            let mut t = TEXT.to_vec();
            m.apply(&mut t, Mutation::NumberReplace);
            changed += usize::from(t != TEXT);
            assert!(t.starts_with(b"{\n\"classname\" \"worldspawn\"\n{\n("), "only numbers change: {}", String::from_utf8_lossy(&t));
        }
        assert!(changed >= 15, "a number may be replaced by itself, rarely: {changed} of 20 changed");
    }

    #[test]
    fn every_mutation_survives_tiny_inputs() {
        let mut m = Mutator::new(1);
        for kind in Mutation::ALL {
            for len in 0..4 {
                let mut t = b"{ 1}".get(..len).unwrap_or(&[]).to_vec();
                m.apply(&mut t, kind);
            }
        }
        assert!(FuzzRng::new(3).below(0) == 0);
    }
}
