//! Lists read from a file with a most-allowed length: a count in the file
//! is only a claim, so a list stops being read (and the frame is refused)
//! at its limit instead of growing as far as the count or the bytes go.
//! On the wire a bounded list is an ordinary sequence.
//!
//! postcard drops the text of a custom error, so the reason a list was
//! refused is also kept aside ([`take_refusal`]) for the frame's error.

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};

/// Reads a sequence of at most `N` elements; a longer one is an error
/// naming `what` and the limit.
pub(crate) fn read_at_most<'de, D, T, const N: usize>(deserializer: D, what: &'static str) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(AtMost::<T, N> { what, _t: PhantomData })
}

thread_local! {
    /// Why the last bounded list on this thread was refused.
    static REFUSAL: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Why a bounded list was refused since the last call, if one was.
pub(crate) fn take_refusal() -> Option<String> {
    REFUSAL.with(|r| r.borrow_mut().take())
}

fn refuse<E: serde::de::Error>(reason: String) -> E {
    REFUSAL.with(|r| *r.borrow_mut() = Some(reason.clone()));
    E::custom(reason)
}

struct AtMost<T, const N: usize> {
    what: &'static str,
    _t: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for AtMost<T, N> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at most {N} {}", self.what)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let claimed = seq.size_hint().unwrap_or(0);
        if claimed > N {
            return Err(refuse(format!("{claimed} {}; at most {N} are allowed", self.what)));
        }
        let mut out = Vec::with_capacity(claimed);
        while let Some(item) = seq.next_element()? {
            if out.len() == N {
                return Err(refuse(format!("over {N} {}", self.what)));
            }
            out.push(item);
        }
        Ok(out)
    }
}

/// Serde `deserialize_with` functions for the recorded lists, one per limit.
macro_rules! bounded_fields {
    ($($(#[$doc:meta])* $name:ident: $limit:expr, $what:literal;)*) => {
        $(
            $(#[$doc])*
            pub(crate) fn $name<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
                read_at_most::<D, T, { $limit }>(d, $what)
            }
        )*
    };
}

bounded_fields! {
    /// A header's cvars.
    cvars: crate::MAX_HEADER_CVARS, "cvars";
    /// A header's config files or content hashes.
    files: crate::MAX_HEADER_FILES, "files";
    /// The clients a match started with.
    slots: crate::MAX_SLOTS, "start slots";
    /// One tick's journal.
    journal: crate::MAX_JOURNAL_ENTRIES, "journal entries in one tick";
    /// One state hash's steps.
    hash_steps: crate::MAX_HASH_STEPS, "hash steps";
    /// The chunk index.
    index: crate::MAX_CHUNKS, "index entries";
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Three {
        #[serde(deserialize_with = "three")]
        items: Vec<u8>,
    }

    fn three<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        super::read_at_most::<D, u8, 3>(d, "items")
    }

    #[test]
    fn a_list_over_its_limit_is_refused_before_it_is_read() {
        let ok = postcard::to_stdvec(&vec![1u8, 2, 3]).expect("encode");
        assert_eq!(postcard::from_bytes::<Three>(&ok).expect("three").items, [1, 2, 3]);
        let long = postcard::to_stdvec(&vec![0u8; 4]).expect("encode");
        assert!(postcard::from_bytes::<Three>(&long).is_err());
        assert_eq!(super::take_refusal().as_deref(), Some("4 items; at most 3 are allowed"));
        // A count of a billion in four bytes allocates nothing.
        let mut claim = Vec::new();
        let mut n: u32 = 1_000_000_000;
        while n >= 0x80 {
            claim.push((n as u8) | 0x80);
            n >>= 7;
        }
        claim.push(n as u8);
        assert!(postcard::from_bytes::<Three>(&claim).is_err());
    }
}
