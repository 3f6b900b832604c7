//! Client slots: one per connected client, human or bot, allocated through
//! one function. A slot holds the client's userinfo, its input queue, its
//! team and score, and its player entity once it has entered the game.
//!
//! The kind of client is recorded only for what genuinely differs outside
//! the simulation (honest human/bot counts for a server browser, and the
//! network latency that lag compensation rewinds by); nothing on the path
//! from a command to movement, firing or damage looks at it.

use bevy_ecs::prelude::*;
use quarry_movement::UserCmd;

use crate::input::{InputQueue, PushOutcome};

/// The most slots a server can have: 64 people and their bots on a big
/// server (slot ids stay below 256, the wire's limit).
pub const MAX_SLOTS: usize = 128;
/// The longest player name, in characters, after colour escapes are removed.
pub const MAX_NAME_CHARS: usize = 24;

/// A slot's index, stable for as long as the client is connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct SlotId(pub u8);

/// What kind of client holds a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ClientKind {
    /// A remote player; `latency_ms` is its measured one-way delay, used
    /// only to rewind other players for its hitscan shots.
    Remote {
        /// Measured delay in milliseconds.
        latency_ms: u32,
    },
    /// A bot: a real client that writes its commands in-process.
    Bot,
}

/// A team, or none. Serialized as its lower-case name ([`Team::name`]);
/// the capitalised names older files hold still read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Team {
    /// Free-for-all player.
    #[default]
    #[serde(alias = "Free")]
    Free,
    /// Red team.
    #[serde(alias = "Red")]
    Red,
    /// Blue team.
    #[serde(alias = "Blue")]
    Blue,
    /// Watching, not playing.
    #[serde(alias = "Spectator")]
    Spectator,
}

impl Team {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Free => "free",
            Self::Red => "red",
            Self::Blue => "blue",
            Self::Spectator => "spectator",
        }
    }

    /// Parses a team name as typed (`red`, `r`, `blue`, `b`, `spectator`, `s`, `free`, `f`).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "red" | "r" => Some(Self::Red),
            "blue" | "b" => Some(Self::Blue),
            "spectator" | "spec" | "s" => Some(Self::Spectator),
            "free" | "f" => Some(Self::Free),
            _ => None,
        }
    }
}

/// What a client says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct UserInfo {
    /// Player name (sanitised and made unique on allocation).
    pub name: String,
    /// Model name, cosmetic.
    pub model: String,
    /// Preferred team; `None` lets the rules choose.
    pub team_pref: Option<Team>,
    /// Handicap percent, 1..=100: scales the damage this player deals and max health.
    pub handicap: u8,
}

/// A slot's life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SlotState {
    /// Allocated; the client has not entered the game yet (still loading).
    Connecting,
    /// In the game (playing or spectating).
    InGame,
}

/// Per-match score of one slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ScoreCard {
    /// Frags (kills minus suicides and team kills).
    pub frags: i32,
    /// Deaths of any kind.
    pub deaths: u32,
    /// Kills of other players.
    pub kills: u32,
    /// Suicides (own weapon, falling, lava, world).
    pub suicides: u32,
    /// Damage dealt to enemies: what they lost (health and armor).
    pub damage_given: u32,
    /// Damage taken: what this player lost (health down to zero and armor),
    /// never a hit's raw figure.
    pub damage_taken: u32,
    /// Items picked up (weapons, ammo, health, armor, powerups, dropped ones).
    pub pickups: u32,
    /// Shots fired (one per trigger pull, pellets counted once).
    pub shots: u32,
    /// Shots that damaged an enemy.
    pub hits: u32,
    /// Flags captured (CTF).
    pub captures: u32,
    /// Own flags returned from the field (CTF).
    pub returns: u32,
    /// Captures helped by a recent return or carrier frag (CTF).
    pub assists: u32,
    /// Enemy carriers, or enemies near your flag or carrier, killed (CTF).
    pub defends: u32,
    /// Frozen teammates thawed (Freeze Tag).
    pub thaws: u32,
}

/// One occupied slot.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Life cycle.
    pub state: SlotState,
    /// Human or bot.
    pub kind: ClientKind,
    /// Name, model, team preference, handicap.
    pub userinfo: UserInfo,
    /// Its commands.
    pub input: InputQueue,
    /// The player entity, while in the game.
    pub entity: Option<Entity>,
    /// Current team.
    pub team: Team,
    /// Score this match.
    pub score: ScoreCard,
    /// Chat flood limiter.
    pub chat: crate::chat::ChatLimiter,
    /// Spectator queue position for Duel (lower waits longer); tick it joined.
    pub joined_tick: u32,
    /// The client this one plays beside ([`crate::Match::attach`]): while
    /// they share a team, the automatic team balance moves neither. Cleared
    /// when that client leaves.
    pub attached_to: Option<SlotId>,
}

impl Slot {
    /// How late this slot's commands arrive, in milliseconds, as the
    /// network measured it (0 for commands written in-process). Lag
    /// compensation rewinds the other players by this much for its shots;
    /// it is the only thing after the input queue that depends on where a
    /// slot's commands come from, and it asks for a delay, not a kind.
    pub fn latency_ms(&self) -> u32 {
        match self.kind {
            ClientKind::Remote { latency_ms } => latency_ms,
            ClientKind::Bot => 0,
        }
    }
}

/// Why a slot could not be allocated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlotError {
    /// Every slot is taken.
    #[error("server is full ({max} slots)")]
    Full {
        /// `sv_maxclients`.
        max: usize,
    },
    /// No such slot is occupied.
    #[error("no client in slot {0}")]
    NoSuchSlot(u8),
    /// The slot asked for is occupied.
    #[error("slot {0} is taken")]
    Taken(u8),
}

/// Why a client could not be attached to another ([`crate::Match::attach`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttachError {
    /// One of the two slots is not occupied.
    #[error("no client in slot {0}")]
    NoSuchSlot(u8),
    /// A client cannot play beside itself.
    #[error("the client in slot {0} can't be attached to itself")]
    Itself(u8),
}

/// All client slots of a server; survives map changes.
#[derive(Resource, Debug, Clone)]
pub struct Slots {
    slots: Vec<Option<Slot>>,
    max: usize,
}

impl Slots {
    /// `max` slots (clamped to 1..=[`MAX_SLOTS`]).
    pub fn new(max: usize) -> Self {
        let max = max.clamp(1, MAX_SLOTS);
        Self { slots: vec![None; max], max }
    }

    /// Changes the slot count; occupied slots beyond it are kept until they leave.
    pub fn set_max(&mut self, max: usize) {
        self.max = max.clamp(1, MAX_SLOTS);
        if self.slots.len() < self.max {
            self.slots.resize(self.max, None);
        }
    }

    /// The slot count.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Allocates the lowest free slot for any kind of client: the one path
    /// humans and bots both take. The name is sanitised and made unique.
    pub fn allocate(&mut self, kind: ClientKind, userinfo: UserInfo, tick: u32) -> Result<SlotId, SlotError> {
        let index = (0..self.max)
            .find(|&i| self.slots.get(i).is_some_and(Option::is_none))
            .ok_or(SlotError::Full { max: self.max })?;
        Ok(self.occupy(index, kind, userinfo, tick))
    }

    /// Allocates slot `id` exactly (a replay puts each client where the
    /// recording has it); fails if it is taken or beyond the slot count.
    pub fn allocate_in(&mut self, id: SlotId, kind: ClientKind, userinfo: UserInfo, tick: u32) -> Result<SlotId, SlotError> {
        let index = usize::from(id.0);
        if index >= self.max {
            return Err(SlotError::Full { max: self.max });
        }
        if self.slots.get(index).is_some_and(Option::is_some) {
            return Err(SlotError::Taken(id.0));
        }
        Ok(self.occupy(index, kind, userinfo, tick))
    }

    fn occupy(&mut self, index: usize, kind: ClientKind, mut userinfo: UserInfo, tick: u32) -> SlotId {
        userinfo.name = self.unique_name(&sanitize_name(&userinfo.name), None);
        // 0 means "not given": full strength.
        userinfo.handicap = if userinfo.handicap == 0 { 100 } else { userinfo.handicap.min(100) };
        self.slots[index] = Some(Slot {
            state: SlotState::Connecting,
            kind,
            userinfo,
            input: InputQueue::default(),
            entity: None,
            team: Team::Spectator,
            score: ScoreCard::default(),
            chat: crate::chat::ChatLimiter::default(),
            joined_tick: tick,
            attached_to: None,
        });
        SlotId(index as u8)
    }

    /// Renames a client (sanitised, unique); returns the name it got.
    pub fn rename(&mut self, id: SlotId, name: &str) -> Result<String, SlotError> {
        let unique = self.unique_name(&sanitize_name(name), Some(id));
        let slot = self.get_mut(id).ok_or(SlotError::NoSuchSlot(id.0))?;
        slot.userinfo.name = unique.clone();
        Ok(unique)
    }

    fn unique_name(&self, base: &str, except: Option<SlotId>) -> String {
        let taken = |n: &str| self.iter().any(|(id, s)| Some(id) != except && s.userinfo.name.eq_ignore_ascii_case(n));
        if !taken(base) {
            return base.to_owned();
        }
        (2..)
            .map(|i| {
                let suffix = format!("({i})");
                let keep = MAX_NAME_CHARS.saturating_sub(suffix.len());
                format!("{}{suffix}", base.chars().take(keep).collect::<String>())
            })
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_owned())
    }

    /// Frees a slot; returns what it held. Clients attached to it are
    /// attached to nobody now (the slot may go to someone else).
    pub fn free(&mut self, id: SlotId) -> Option<Slot> {
        let freed = self.slots.get_mut(usize::from(id.0)).and_then(Option::take)?;
        for (_, s) in self.iter_mut() {
            if s.attached_to == Some(id) {
                s.attached_to = None;
            }
        }
        Some(freed)
    }

    /// A slot.
    pub fn get(&self, id: SlotId) -> Option<&Slot> {
        self.slots.get(usize::from(id.0)).and_then(Option::as_ref)
    }

    /// A slot, mutably.
    pub fn get_mut(&mut self, id: SlotId) -> Option<&mut Slot> {
        self.slots.get_mut(usize::from(id.0)).and_then(Option::as_mut)
    }

    /// Occupied slots in slot order (the stable order everything iterates in).
    pub fn iter(&self) -> impl Iterator<Item = (SlotId, &Slot)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (SlotId(i as u8), s)))
    }

    /// Occupied slots in slot order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (SlotId, &mut Slot)> {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| s.as_mut().map(|s| (SlotId(i as u8), s)))
    }

    /// Offers a command to a slot's input queue: the one entry point for
    /// every command, whoever wrote it.
    pub fn push_cmd(&mut self, id: SlotId, cmd: UserCmd) -> Result<PushOutcome, SlotError> {
        Ok(self.get_mut(id).ok_or(SlotError::NoSuchSlot(id.0))?.input.push(cmd))
    }

    /// Human clients (connecting or in game).
    pub fn humans(&self) -> usize {
        self.iter().filter(|(_, s)| matches!(s.kind, ClientKind::Remote { .. })).count()
    }

    /// Bot clients.
    pub fn bots(&self) -> usize {
        self.iter().filter(|(_, s)| s.kind == ClientKind::Bot).count()
    }

    /// Slot of a client by name (case-insensitive).
    pub fn find_by_name(&self, name: &str) -> Option<SlotId> {
        self.iter().find(|(_, s)| s.userinfo.name.eq_ignore_ascii_case(name)).map(|(id, _)| id)
    }
}

/// Cleans a player name: colour escapes (`^` and the next character),
/// control and Unicode format characters (bidirectional overrides,
/// zero-width characters: see [`crate::text`]) removed, whitespace collapsed, cut to
/// [`MAX_NAME_CHARS`]; an empty result becomes `Player`.
pub fn sanitize_name(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '^' => {
                chars.next();
            }
            '"' | ';' => {}
            c if crate::text::is_hidden_char(c) => {}
            c if c.is_whitespace() => {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    let trimmed: String = out.trim().chars().take(MAX_NAME_CHARS).collect();
    let trimmed = trimmed.trim_end().to_owned();
    if trimmed.is_empty() { "Player".to_owned() } else { trimmed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str) -> UserInfo {
        UserInfo { name: name.into(), handicap: 100, ..UserInfo::default() }
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(sanitize_name("^1Red^7Baron"), "RedBaron");
        assert_eq!(sanitize_name("  a\u{7}b \t  c  "), "ab c");
        assert_eq!(sanitize_name("^^^"), "Player");
        assert_eq!(sanitize_name("say \"hi\"; quit"), "say hi quit");
        assert_eq!(sanitize_name(&"x".repeat(100)).chars().count(), MAX_NAME_CHARS);
        // A right-to-left override would show "evil\u{202E}nimda" as "eviladmin".
        assert_eq!(sanitize_name("evil\u{202E}nimda"), "evilnimda");
        assert_eq!(sanitize_name("ad\u{200B}min\u{FEFF}"), "admin");
        assert_eq!(sanitize_name("\u{200B}\u{200C}\u{200D}"), "Player");
        assert_eq!(sanitize_name("Zoë 漢字"), "Zoë 漢字");
    }

    #[test]
    fn duplicates_become_unique() {
        let mut s = Slots::new(4);
        let a = s.allocate(ClientKind::Bot, info("Ann"), 0).expect("a");
        let b = s.allocate(ClientKind::Remote { latency_ms: 0 }, info("ann"), 0).expect("b");
        let c = s.allocate(ClientKind::Bot, info("^2Ann"), 0).expect("c");
        let names: Vec<_> = [a, b, c].iter().map(|&i| s.get(i).map(|s| s.userinfo.name.clone())).collect();
        assert_eq!(names, [Some("Ann".into()), Some("ann(2)".into()), Some("Ann(3)".into())]);
    }

    #[test]
    fn full_server_refuses_and_free_reuses_lowest() {
        let mut s = Slots::new(2);
        let a = s.allocate(ClientKind::Bot, info("a"), 0).expect("a");
        s.allocate(ClientKind::Bot, info("b"), 0).expect("b");
        assert_eq!(s.allocate(ClientKind::Bot, info("c"), 0), Err(SlotError::Full { max: 2 }));
        s.free(a);
        assert_eq!(s.allocate(ClientKind::Bot, info("c"), 0), Ok(a));
        assert_eq!(s.bots(), 2);
        assert_eq!(s.humans(), 0);
    }

    #[test]
    fn a_freed_slot_takes_its_attachments_with_it() {
        let mut s = Slots::new(4);
        let owner = s.allocate(ClientKind::Remote { latency_ms: 0 }, info("owner"), 0).expect("owner");
        let pal = s.allocate(ClientKind::Bot, info("pal"), 0).expect("pal");
        if let Some(p) = s.get_mut(pal) {
            p.attached_to = Some(owner);
        }
        s.free(owner);
        // Whoever takes the slot next is nobody's owner.
        assert_eq!(s.allocate(ClientKind::Remote { latency_ms: 0 }, info("next"), 0), Ok(owner));
        assert_eq!(s.get(pal).and_then(|p| p.attached_to), None);
    }
}
