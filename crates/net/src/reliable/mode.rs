//! [`ModeUpdate`]: the objective state of the game type as remote clients
//! receive it (team scores, flags and bases, frozen players, the round, and
//! each player's objective counts). The server sends it on the control
//! stream whenever it changes, so it is a reliable message, never part of a
//! snapshot datagram: snapshots keep their size budget, and a client that
//! joins late gets the full state in its first update.
//!
//! Positions are whole units (the state is for scoreboards, HUDs and
//! notices, not for drawing); a carried flag has no position of its own
//! (it is where its carrier is); thaw progress is quantised to
//! [`THAW_STEPS`] steps so a thaw in progress changes the state only a few
//! times a second.

use crate::codec::{DecodeError, Reader, Writer};
use crate::handshake::MAX_SHORT_TEXT;

/// Most flags in an update (CTF has two, One Flag one).
pub const MAX_MODE_FLAGS: usize = 4;
/// Most bases in an update.
pub const MAX_MODE_BASES: usize = 4;
/// Most frozen players and most player rows in an update (one per slot).
pub const MAX_MODE_PLAYERS: usize = 64;
/// Thaw progress steps: [`WireFrozen::thaw`] runs 0..=`THAW_STEPS`.
pub const THAW_STEPS: u8 = 20;

/// Where a flag is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFlagStatus {
    /// At its base.
    Home,
    /// Carried by a slot.
    Carried {
        /// The carrier's slot.
        by: u8,
    },
    /// Lying in the field.
    Dropped {
        /// Server tick it returns home by itself.
        returns_at: u32,
    },
}

/// One flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireFlag {
    /// Whose flag (team number: 0 neutral, 1 red, 2 blue).
    pub team: u8,
    /// Home, carried or dropped.
    pub status: WireFlagStatus,
    /// Where it is, whole units; zero while carried.
    pub origin: [i32; 3],
}

/// One frozen player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireFrozen {
    /// Slot.
    pub slot: u8,
    /// Team number.
    pub team: u8,
    /// Where the body stands, whole units.
    pub origin: [i32; 3],
    /// Thaw progress in steps, 0..=[`THAW_STEPS`].
    pub thaw: u8,
}

/// The round of a round-based game type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireRound {
    /// Round number, from 1 (0 before the first).
    pub number: u32,
    /// Whether it is being fought.
    pub live: bool,
    /// Server tick the round (or the pause before the next) ends, if timed.
    pub ends_at: Option<u32>,
    /// Players standing (red, blue).
    pub standing: (u8, u8),
    /// Rounds won (red, blue).
    pub wins: (u32, u32),
}

/// One player's objective counts (players with none are left out).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerObjective {
    /// Slot.
    pub slot: u8,
    /// Flags captured.
    pub captures: u32,
    /// Own flags returned.
    pub returns: u32,
    /// Capture assists.
    pub assists: u32,
    /// Defends.
    pub defends: u32,
    /// Teammates thawed.
    pub thaws: u32,
}

/// The objective state of the game type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModeUpdate {
    /// Game type name (`ctf`, `1fctf`, `ft`, `ca`, …).
    pub gametype: String,
    /// Match phase name.
    pub phase: String,
    /// Red and blue team scores, in team games.
    pub team_scores: Option<(i32, i32)>,
    /// Flags.
    pub flags: Vec<WireFlag>,
    /// Team bases: (team number, origin).
    pub bases: Vec<(u8, [i32; 3])>,
    /// Frozen players, by slot.
    pub frozen: Vec<WireFrozen>,
    /// The round, in round-based game types.
    pub round: Option<WireRound>,
    /// Objective counts per player, by slot.
    pub players: Vec<PlayerObjective>,
}

fn write_origin(w: &mut Writer, o: [i32; 3]) {
    for c in o {
        w.svarint(i64::from(c));
    }
}

fn read_origin(r: &mut Reader<'_>) -> Result<[i32; 3], DecodeError> {
    Ok([r.svarint_i32()?, r.svarint_i32()?, r.svarint_i32()?])
}

fn read_bool(r: &mut Reader<'_>, what: &'static str) -> Result<bool, DecodeError> {
    match r.u8()? {
        0 => Ok(false),
        1 => Ok(true),
        t => Err(DecodeError::UnknownTag { what, tag: u64::from(t) }),
    }
}

fn read_team(r: &mut Reader<'_>) -> Result<u8, DecodeError> {
    let t = r.u8()?;
    if t > 3 {
        return Err(DecodeError::OutOfRange { what: "team" });
    }
    Ok(t)
}

impl ModeUpdate {
    /// Appends the update.
    ///
    /// ```text
    /// str     gametype, phase (<= MAX_SHORT_TEXT)
    /// u8      has_teams, [svarint red, svarint blue]
    /// varint  n flags (<= 4), n × (u8 team, u8 status 0 home | 1 carried
    ///         + u8 slot | 2 dropped + varint returns_at, [3 × svarint origin
    ///         unless carried])
    /// varint  n bases (<= 4), n × (u8 team, 3 × svarint origin)
    /// varint  n frozen (<= 64), n × (u8 slot, u8 team, 3 × svarint origin, u8 thaw <= 20)
    /// u8      has_round, [varint number, u8 live, u8 has_end [varint ends_at],
    ///         u8 red standing, u8 blue standing, varint red wins, varint blue wins]
    /// varint  n players (<= 64), n × (u8 slot, 5 × varint captures, returns,
    ///         assists, defends, thaws)
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        w.str_max(&self.gametype, MAX_SHORT_TEXT);
        w.str_max(&self.phase, MAX_SHORT_TEXT);
        match self.team_scores {
            Some((red, blue)) => {
                w.u8(1);
                w.svarint(i64::from(red));
                w.svarint(i64::from(blue));
            }
            None => w.u8(0),
        }
        w.varint(self.flags.len().min(MAX_MODE_FLAGS) as u64);
        for f in self.flags.iter().take(MAX_MODE_FLAGS) {
            w.u8(f.team);
            match f.status {
                WireFlagStatus::Home => w.u8(0),
                WireFlagStatus::Carried { by } => {
                    w.u8(1);
                    w.u8(by);
                }
                WireFlagStatus::Dropped { returns_at } => {
                    w.u8(2);
                    w.varint(u64::from(returns_at));
                }
            }
            if !matches!(f.status, WireFlagStatus::Carried { .. }) {
                write_origin(w, f.origin);
            }
        }
        w.varint(self.bases.len().min(MAX_MODE_BASES) as u64);
        for (team, o) in self.bases.iter().take(MAX_MODE_BASES) {
            w.u8(*team);
            write_origin(w, *o);
        }
        w.varint(self.frozen.len().min(MAX_MODE_PLAYERS) as u64);
        for f in self.frozen.iter().take(MAX_MODE_PLAYERS) {
            w.u8(f.slot);
            w.u8(f.team);
            write_origin(w, f.origin);
            w.u8(f.thaw.min(THAW_STEPS));
        }
        match &self.round {
            Some(r) => {
                w.u8(1);
                w.varint(u64::from(r.number));
                w.u8(u8::from(r.live));
                match r.ends_at {
                    Some(t) => {
                        w.u8(1);
                        w.varint(u64::from(t));
                    }
                    None => w.u8(0),
                }
                w.u8(r.standing.0);
                w.u8(r.standing.1);
                w.varint(u64::from(r.wins.0));
                w.varint(u64::from(r.wins.1));
            }
            None => w.u8(0),
        }
        w.varint(self.players.len().min(MAX_MODE_PLAYERS) as u64);
        for p in self.players.iter().take(MAX_MODE_PLAYERS) {
            w.u8(p.slot);
            for v in [p.captures, p.returns, p.assists, p.defends, p.thaws] {
                w.varint(u64::from(v));
            }
        }
    }

    /// Reads an update; every count, tag and range is checked.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let gametype = r.str(MAX_SHORT_TEXT, "gametype")?;
        let phase = r.str(MAX_SHORT_TEXT, "phase")?;
        let team_scores = if read_bool(r, "team scores flag")? { Some((r.svarint_i32()?, r.svarint_i32()?)) } else { None };
        let n = r.count(MAX_MODE_FLAGS, "flags")?;
        let mut flags = Vec::with_capacity(n);
        for _ in 0..n {
            let team = read_team(r)?;
            let status = match r.u8()? {
                0 => WireFlagStatus::Home,
                1 => WireFlagStatus::Carried { by: r.u8()? },
                2 => WireFlagStatus::Dropped { returns_at: r.varint_u32()? },
                t => return Err(DecodeError::UnknownTag { what: "flag status", tag: u64::from(t) }),
            };
            let origin = if matches!(status, WireFlagStatus::Carried { .. }) { [0; 3] } else { read_origin(r)? };
            flags.push(WireFlag { team, status, origin });
        }
        let n = r.count(MAX_MODE_BASES, "bases")?;
        let mut bases = Vec::with_capacity(n);
        for _ in 0..n {
            bases.push((read_team(r)?, read_origin(r)?));
        }
        let n = r.count(MAX_MODE_PLAYERS, "frozen players")?;
        let mut frozen = Vec::with_capacity(n);
        for _ in 0..n {
            let slot = r.u8()?;
            let team = read_team(r)?;
            let origin = read_origin(r)?;
            let thaw = r.u8()?;
            if thaw > THAW_STEPS {
                return Err(DecodeError::OutOfRange { what: "thaw progress" });
            }
            frozen.push(WireFrozen { slot, team, origin, thaw });
        }
        let round = if read_bool(r, "round flag")? {
            let number = r.varint_u32()?;
            let live = read_bool(r, "round live flag")?;
            let ends_at = if read_bool(r, "round end flag")? { Some(r.varint_u32()?) } else { None };
            let standing = (r.u8()?, r.u8()?);
            let wins = (r.varint_u32()?, r.varint_u32()?);
            Some(WireRound { number, live, ends_at, standing, wins })
        } else {
            None
        };
        let n = r.count(MAX_MODE_PLAYERS, "objective rows")?;
        let mut players = Vec::with_capacity(n);
        for _ in 0..n {
            let slot = r.u8()?;
            let mut v = [0u32; 5];
            for x in &mut v {
                *x = r.varint_u32()?;
            }
            let [captures, returns, assists, defends, thaws] = v;
            players.push(PlayerObjective { slot, captures, returns, assists, defends, thaws });
        }
        Ok(Self { gametype, phase, team_scores, flags, bases, frozen, round, players })
    }

    /// The flag of team number `team`.
    pub fn flag(&self, team: u8) -> Option<&WireFlag> {
        self.flags.iter().find(|f| f.team == team)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> ModeUpdate {
        ModeUpdate {
            gametype: "ft".into(),
            phase: "live".into(),
            team_scores: Some((3, -1)),
            flags: vec![
                WireFlag { team: 0, status: WireFlagStatus::Dropped { returns_at: 9000 }, origin: [-12, 400, 16] },
                WireFlag { team: 1, status: WireFlagStatus::Carried { by: 4 }, origin: [0; 3] },
            ],
            bases: vec![(1, [-1888, 0, 60]), (2, [1888, 0, 60])],
            frozen: vec![WireFrozen { slot: 3, team: 2, origin: [5, -6, 7], thaw: 11 }],
            round: Some(WireRound { number: 4, live: true, ends_at: Some(123_456), standing: (2, 1), wins: (2, 1) }),
            players: vec![PlayerObjective { slot: 1, captures: 2, returns: 1, assists: 0, defends: 3, thaws: 4 }],
        }
    }

    #[test]
    fn round_trips() {
        for u in [sample(), ModeUpdate::default()] {
            let mut w = Writer::new();
            u.encode(&mut w);
            let bytes = w.into_inner();
            let mut r = Reader::new(&bytes);
            assert_eq!(ModeUpdate::decode(&mut r).expect("decode"), u);
            assert!(r.finish().is_ok());
        }
    }

    #[test]
    fn every_truncation_and_bad_range_is_an_error() {
        let mut w = Writer::new();
        sample().encode(&mut w);
        let bytes = w.into_inner();
        for cut in 0..bytes.len() {
            assert!(ModeUpdate::decode(&mut Reader::new(&bytes[..cut])).is_err(), "cut at {cut}");
        }
        let mut bad = sample();
        bad.frozen[0].thaw = THAW_STEPS;
        let mut w = Writer::new();
        bad.encode(&mut w);
        let mut bytes = w.into_inner();
        // The thaw byte is the frozen row's last; push it out of range.
        let at = bytes.iter().rposition(|b| *b == THAW_STEPS).expect("thaw byte");
        bytes[at] = THAW_STEPS + 1;
        assert!(ModeUpdate::decode(&mut Reader::new(&bytes)).is_err());
    }
}
