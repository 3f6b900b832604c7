//! Which bots' minds the frames carry: only those a viewer ticked. A
//! 64-bot match with every mind in every frame would send 30 KB fifteen
//! times a second to each viewer; the page asks for the ones it draws
//! (`POST /mind?slot=N&on=1`) and renews the ask while they stay ticked,
//! so a closed page's asks lapse after [`MIND_LEASE`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// How long one ask lasts (the page renews every 10 s).
pub const MIND_LEASE: Duration = Duration::from_secs(30);
/// Slots a viewer may name (client slots are below this).
const MAX_SLOT: u16 = 256;

/// The query of `POST /mind`.
#[derive(Debug, Deserialize)]
pub struct MindQuery {
    /// The bot's slot.
    pub slot: String,
    /// `1` to draw its mind, `0` to stop.
    pub on: Option<String>,
}

/// The asked-for minds: slot and when the ask lapses. Shared between the
/// HTTP thread (asks) and the tick (reads); at most one entry per slot.
#[derive(Debug, Clone, Default)]
pub struct Minds(Arc<Mutex<BTreeMap<u8, Instant>>>);

impl Minds {
    /// Takes an ask, or says what is wrong with it.
    pub fn ask(&self, q: &MindQuery) -> Result<(), String> {
        let slot: u16 = q.slot.trim().parse().map_err(|_| format!("slot '{}' is not a whole number", q.slot))?;
        let slot = u8::try_from(slot).map_err(|_| format!("slot {slot} is out of range (0 to {})", MAX_SLOT - 1))?;
        let on = match q.on.as_deref().map(str::trim) {
            None | Some("1") => true,
            Some("0") => false,
            Some(other) => return Err(format!("on '{other}' must be 1 or 0")),
        };
        let mut asked = self.0.lock().map_err(|_| "the mind list is unavailable".to_owned())?;
        if on {
            asked.insert(slot, Instant::now() + MIND_LEASE);
        } else {
            asked.remove(&slot);
        }
        Ok(())
    }

    /// The slots asked for now (lapsed asks dropped).
    pub fn wanted(&self) -> Vec<u8> {
        let Ok(mut asked) = self.0.lock() else { return Vec::new() };
        let now = Instant::now();
        asked.retain(|_, until| *until > now);
        asked.keys().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(slot: &str, on: Option<&str>) -> MindQuery {
        MindQuery { slot: slot.to_owned(), on: on.map(str::to_owned) }
    }

    #[test]
    fn asks_are_taken_dropped_and_checked() {
        let minds = Minds::default();
        minds.ask(&q("3", None)).expect("ask");
        minds.ask(&q("7", Some("1"))).expect("ask");
        assert_eq!(minds.wanted(), vec![3, 7]);
        minds.ask(&q("3", Some("0"))).expect("drop");
        assert_eq!(minds.wanted(), vec![7]);
        assert!(minds.ask(&q("300", None)).is_err_and(|e| e.contains("out of range")));
        assert!(minds.ask(&q("x", None)).is_err_and(|e| e.contains("whole number")));
        assert!(minds.ask(&q("1", Some("yes"))).is_err_and(|e| e.contains("1 or 0")));
    }

    #[test]
    fn a_lapsed_ask_is_forgotten() {
        let minds = Minds::default();
        if let Ok(mut asked) = minds.0.lock() {
            asked.insert(4, Instant::now() - Duration::from_secs(1));
        }
        assert!(minds.wanted().is_empty());
    }
}
