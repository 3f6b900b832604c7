//! Game types and the match life cycle: warmup, countdown, live play,
//! intermission. Team placement and balance, Duel's queue, frag and time
//! limits. Per-type specifics live in `duel.rs` and `teams.rs`; CTF's and One
//! Flag's flags are in [`crate::modes::flags`], rounds, Freeze Tag and Clan Arena in
//! [`crate::modes`].

mod duel;
mod phase;
mod teams;

pub use duel::duel_rotation;
pub use phase::{Phase, RulesState, update_phase};
pub use teams::{TeamChangeError, check_team_change, choose_team, held_together, team_counts};

/// A game type. Serialized as its cvar name ([`GameType::name`]), as every
/// summary and log spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum GameType {
    /// Free for all.
    #[serde(rename = "ffa")]
    Ffa,
    /// One on one; everyone else waits as a spectator.
    #[serde(rename = "duel")]
    Duel,
    /// Team deathmatch, red against blue.
    #[serde(rename = "tdm")]
    Tdm,
    /// Capture the flag, red against blue.
    #[serde(rename = "ctf")]
    Ctf,
    /// One Flag CTF: one neutral flag, captured at the enemy base.
    #[serde(rename = "1fctf")]
    OneFlag,
    /// Freeze Tag: the killed freeze until a teammate thaws them; rounds.
    #[serde(rename = "ft")]
    FreezeTag,
    /// Clan Arena: rounds, full loadout, no pickups, the dead wait.
    #[serde(rename = "ca")]
    ClanArena,
}

impl GameType {
    /// Cvar names of the game types, in order.
    pub const NAMES: &'static [&'static str] = &["ffa", "duel", "tdm", "ctf", "1fctf", "oneflag", "ft", "freeze", "ca"];

    /// The cvar name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ffa => "ffa",
            Self::Duel => "duel",
            Self::Tdm => "tdm",
            Self::Ctf => "ctf",
            Self::OneFlag => "1fctf",
            Self::FreezeTag => "ft",
            Self::ClanArena => "ca",
        }
    }

    /// Parses a cvar name.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "ffa" => Some(Self::Ffa),
            "duel" | "tourney" => Some(Self::Duel),
            "tdm" | "team" => Some(Self::Tdm),
            "ctf" => Some(Self::Ctf),
            "1fctf" | "oneflag" => Some(Self::OneFlag),
            "ft" | "freeze" | "freezetag" => Some(Self::FreezeTag),
            "ca" | "clanarena" => Some(Self::ClanArena),
            _ => None,
        }
    }

    /// Whether players are on red and blue teams.
    pub fn is_team_game(self) -> bool {
        matches!(self, Self::Tdm | Self::Ctf | Self::OneFlag | Self::FreezeTag | Self::ClanArena)
    }

    /// Whether the match is played in rounds (Freeze Tag, Clan Arena).
    pub fn is_round_based(self) -> bool {
        matches!(self, Self::FreezeTag | Self::ClanArena)
    }

    /// Whether the game type has flags (CTF, One Flag).
    pub fn has_flags(self) -> bool {
        matches!(self, Self::Ctf | Self::OneFlag)
    }

    /// The fewest players (in play, not spectating) for the match to start.
    pub fn min_players(self) -> usize {
        2
    }

    /// Whether a live match with fewer than [`GameType::min_players`] in
    /// play is forfeited (a duel whose opponent left). Such a match goes
    /// live only with its players in, even with the warmup off: live with
    /// one player it would be forfeited on its first tick.
    pub fn forfeits(self) -> bool {
        matches!(self, Self::Duel)
    }

    /// Whether kills change the team score (TDM); in CTF and One Flag only
    /// captures do, in Freeze Tag and Clan Arena only won rounds.
    pub fn frags_score_for_team(self) -> bool {
        matches!(self, Self::Tdm)
    }
}
