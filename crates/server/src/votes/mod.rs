//! Players' votes: `callvote KIND [ARG]` and `vote yes|no`, decided on the
//! tick thread from the commands the network took in that tick, counted in
//! server ticks (so the same commands on the same ticks decide the same way).
//!
//! Rules: one vote at a time; the caller votes yes; only connected humans
//! vote and count (a bot has no client to send `vote`, and the electorate is
//! the network's table of remote players, so the sim is never asked who is a
//! bot); a vote passes when more than half of the humans connected now said
//! yes, and fails when more than half said no, when everyone voted without
//! a yes majority, or after `g_voteTime` seconds. A caller waits
//! `g_voteCooldown` seconds before calling again (per slot). A bot-count
//! vote is server-wide, never per team: a team-only bot vote lets one side
//! arm itself with bots.
//!
//! This module decides; it never runs a command. The tick runs the console
//! commands of a vote that passed ([`VoteKind::commands`]) and announces
//! what this module says.

mod kind;

use std::collections::{BTreeMap, BTreeSet};

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_sim::SlotId;

pub use kind::{KIND_NAMES, MAX_ARG_CHARS, VoteError, VoteKind};

/// Handles to the vote cvars.
#[derive(Debug, Clone, Copy)]
pub struct VoteCvars {
    allow: CvarId,
    kinds: CvarId,
    time: CvarId,
    cooldown: CvarId,
}

/// The vote settings as a tick reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoteSettings {
    /// `g_allowVote`.
    pub allow: bool,
    /// `g_voteKinds`, lowercased words.
    pub kinds: Vec<String>,
    /// `g_voteTime` in seconds.
    pub time_secs: u64,
    /// `g_voteCooldown` in seconds.
    pub cooldown_secs: u64,
}

impl VoteCvars {
    /// Registers them.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let a = CvarFlags::ARCHIVE;
        Ok(Self {
            allow: console.register_cvar(CvarDef::bool("g_allowVote", true, "let players callvote and vote").flags(a))?,
            kinds: console.register_cvar(
                CvarDef::string("g_voteKinds", &KIND_NAMES.join(" "), "the votes players may call: map nextmap g_gametype kick bots bot_skill map_restart").flags(a),
            )?,
            time: console.register_cvar(CvarDef::int("g_voteTime", 30, 5, 600, "seconds a vote stays open before it fails").flags(a))?,
            cooldown: console.register_cvar(CvarDef::int("g_voteCooldown", 60, 0, 3600, "seconds a player waits after calling a vote before calling another").flags(a))?,
        })
    }

    /// Reads the settings.
    pub fn read(&self, cvars: &CvarSet) -> VoteSettings {
        VoteSettings {
            allow: cvars.bool(self.allow),
            kinds: cvars.string(self.kinds).split_whitespace().map(str::to_ascii_lowercase).collect(),
            time_secs: u64::try_from(cvars.int(self.time)).unwrap_or(30),
            cooldown_secs: u64::try_from(cvars.int(self.cooldown)).unwrap_or(60),
        }
    }
}

/// The vote running.
#[derive(Debug, Clone)]
struct Vote {
    kind: VoteKind,
    yes: BTreeSet<SlotId>,
    no: BTreeSet<SlotId>,
    ends_at: u64,
}

/// How a vote ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Passed: run its commands.
    Passed(VoteKind),
    /// Failed, with why.
    Failed(String),
}

/// The vote state: the one running, and when each slot last called one.
#[derive(Debug, Default)]
pub struct Votes {
    current: Option<Vote>,
    last_called: BTreeMap<SlotId, u64>,
}

impl Votes {
    /// `callvote` from `caller` at server tick `now` (`hz` ticks a second);
    /// returns the announcement for everyone.
    pub fn call(&mut self, settings: &VoteSettings, caller: (SlotId, &str), words: &[&str], now: u64, hz: u32, player: &dyn Fn(&str) -> Option<(u8, String)>) -> Result<String, VoteError> {
        if !settings.allow {
            return Err(VoteError::Disabled);
        }
        let allowed = settings.kinds.iter().filter(|k| KIND_NAMES.contains(&k.as_str())).cloned().collect::<Vec<_>>().join(" ");
        if let Some(v) = &self.current {
            return Err(VoteError::InProgress(v.kind.describe()));
        }
        let kind = VoteKind::parse(words, player).map_err(|e| match e {
            VoteError::Usage(_) => VoteError::Usage(allowed.clone()),
            e => e,
        })?;
        if !settings.kinds.iter().any(|k| k == kind.name()) {
            return Err(VoteError::NotAllowed { kind: kind.name().to_owned(), allowed });
        }
        let hz = u64::from(hz.max(1));
        if let Some(last) = self.last_called.get(&caller.0) {
            let ready = last.saturating_add(settings.cooldown_secs * hz);
            if now < ready {
                return Err(VoteError::Cooldown((ready - now).div_ceil(hz)));
            }
        }
        self.last_called.insert(caller.0, now);
        let text = format!("{} called a vote: {} (vote yes or vote no; {} s)", kind::clip(caller.1), kind.describe(), settings.time_secs);
        self.current = Some(Vote { kind, yes: BTreeSet::from([caller.0]), no: BTreeSet::new(), ends_at: now.saturating_add(settings.time_secs * hz) });
        Ok(text)
    }

    /// `vote yes|no` from `voter`; returns what they are told.
    pub fn cast(&mut self, voter: SlotId, words: &[&str]) -> Result<String, VoteError> {
        let yes = match words {
            [w] if matches!(w.to_ascii_lowercase().as_str(), "yes" | "y" | "1") => true,
            [w] if matches!(w.to_ascii_lowercase().as_str(), "no" | "n" | "0") => false,
            _ => return Err(VoteError::VoteUsage),
        };
        let vote = self.current.as_mut().ok_or(VoteError::NoVote)?;
        if vote.yes.contains(&voter) || vote.no.contains(&voter) {
            return Err(VoteError::AlreadyVoted);
        }
        if yes { vote.yes.insert(voter) } else { vote.no.insert(voter) };
        Ok(format!("vote cast: {}", if yes { "yes" } else { "no" }))
    }

    /// Decides the running vote at tick `now` among `humans` (the slots
    /// of the humans connected now; ballots of those gone are not counted).
    pub fn decide(&mut self, now: u64, humans: &BTreeSet<SlotId>) -> Option<Decision> {
        let vote = self.current.as_ref()?;
        let yes = vote.yes.intersection(humans).count();
        let no = vote.no.intersection(humans).count();
        let n = humans.len();
        let decision = if yes * 2 > n {
            Decision::Passed(vote.kind.clone())
        } else if no * 2 > n {
            Decision::Failed(format!("vote failed: {} ({yes} yes, {no} no of {n})", vote.kind.describe()))
        } else if yes + no >= n {
            Decision::Failed(format!("vote failed: {} (no majority: {yes} yes, {no} no of {n})", vote.kind.describe()))
        } else if now >= vote.ends_at {
            Decision::Failed(format!("vote failed: {} (time up: {yes} yes, {no} no of {n})", vote.kind.describe()))
        } else {
            return None;
        };
        self.current = None;
        Some(decision)
    }

    /// The running vote's subject, for `status`.
    pub fn running(&self) -> Option<String> {
        self.current.as_ref().map(|v| v.kind.describe())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> VoteSettings {
        VoteSettings { allow: true, kinds: KIND_NAMES.iter().map(|k| (*k).to_owned()).collect(), time_secs: 10, cooldown_secs: 30 }
    }

    fn nobody(_: &str) -> Option<(u8, String)> {
        None
    }

    fn humans(n: u8) -> BTreeSet<SlotId> {
        (0..n).map(SlotId).collect()
    }

    #[test]
    fn a_majority_of_humans_passes_and_ballots_count_once() {
        let mut v = Votes::default();
        let said = v.call(&settings(), (SlotId(0), "Ada"), &["map", "q_dm1"], 0, 10, &nobody).expect("called");
        assert!(said.contains("Ada called a vote: map q_dm1"), "{said}");
        assert_eq!(v.decide(1, &humans(3)), None, "1 yes of 3");
        assert_eq!(v.cast(SlotId(0), &["yes"]), Err(VoteError::AlreadyVoted), "the caller voted yes");
        assert!(v.call(&settings(), (SlotId(1), "Bo"), &["map_restart"], 1, 10, &nobody).is_err(), "one at a time");
        v.cast(SlotId(1), &["yes"]).expect("cast");
        assert_eq!(v.decide(2, &humans(3)), Some(Decision::Passed(VoteKind::Map("q_dm1".into()))));
        assert_eq!(v.cast(SlotId(2), &["no"]), Err(VoteError::NoVote));
    }

    #[test]
    fn a_majority_of_no_time_or_a_full_split_fails() {
        let mut v = Votes::default();
        v.call(&settings(), (SlotId(0), "Ada"), &["nextmap"], 0, 10, &nobody).expect("called");
        v.cast(SlotId(1), &["no"]).expect("no");
        v.cast(SlotId(2), &["n"]).expect("no");
        assert_eq!(v.decide(1, &humans(4)), None, "two no of four is not a majority");
        v.cast(SlotId(3), &["0"]).expect("no");
        assert!(matches!(v.decide(1, &humans(4)), Some(Decision::Failed(m)) if m.contains("3 no of 4")));
        v.call(&settings(), (SlotId(1), "Bo"), &["nextmap"], 1, 10, &nobody).expect("called");
        assert_eq!(v.decide(99, &humans(4)), None);
        assert!(matches!(v.decide(101, &humans(4)), Some(Decision::Failed(m)) if m.contains("time up")));
        v.call(&settings(), (SlotId(2), "Cy"), &["nextmap"], 200, 10, &nobody).expect("called");
        v.cast(SlotId(3), &["no"]).expect("no");
        assert!(matches!(v.decide(201, &BTreeSet::from([SlotId(2), SlotId(3)])), Some(Decision::Failed(m)) if m.contains("no majority")), "one yes and one no of two");
    }

    #[test]
    fn bots_do_not_count_and_a_departed_ballot_is_dropped() {
        let mut v = Votes::default();
        v.call(&settings(), (SlotId(5), "Ada"), &["bots", "4"], 0, 10, &nobody).expect("called");
        // Alone among humans (bots are not in the electorate): passes.
        assert_eq!(v.decide(1, &BTreeSet::from([SlotId(5)])), Some(Decision::Passed(VoteKind::Bots(4))));
        let mut v = Votes::default();
        v.call(&settings(), (SlotId(5), "Ada"), &["map_restart"], 0, 10, &nobody).expect("called");
        assert_eq!(v.decide(1, &BTreeSet::from([SlotId(1), SlotId(2)])), None, "the caller left: their yes is gone");
    }

    #[test]
    fn off_not_allowed_and_cooldown_are_refused() {
        let mut v = Votes::default();
        let off = VoteSettings { allow: false, ..settings() };
        assert_eq!(v.call(&off, (SlotId(0), "A"), &["map_restart"], 0, 10, &nobody), Err(VoteError::Disabled));
        let only_maps = VoteSettings { kinds: vec!["map".into()], ..settings() };
        assert!(matches!(v.call(&only_maps, (SlotId(0), "A"), &["kick", "x"], 0, 10, &|_| Some((1, "x".into()))), Err(VoteError::NotAllowed { .. })));
        assert!(matches!(v.call(&only_maps, (SlotId(0), "A"), &[], 0, 10, &nobody), Err(VoteError::Usage(a)) if a == "map"));
        v.call(&settings(), (SlotId(0), "A"), &["map_restart"], 0, 10, &nobody).expect("called");
        assert!(matches!(v.decide(150, &humans(3)), Some(Decision::Failed(_))));
        assert_eq!(v.call(&settings(), (SlotId(0), "A"), &["map_restart"], 150, 10, &nobody), Err(VoteError::Cooldown(15)));
        assert!(v.call(&settings(), (SlotId(0), "A"), &["map_restart"], 3000, 10, &nobody).is_ok());
        assert_eq!(v.cast(SlotId(1), &["maybe"]), Err(VoteError::VoteUsage));
    }
}
