//! One frame of the live web view: what the page draws at one tick,
//! built on the tick thread from the match (a few tens of microseconds for
//! 64 players, `cargo bench -p quarry-server --bench web_frame`) and
//! encoded as compact JSON for the stream. Positions are whole units and
//! angles whole degrees: the page draws a top-down view, where finer
//! figures would only cost bytes.

use quarry_sim::Match;
use quarry_sim::modes::view::FlagStatus;
use quarry_sim::view::ViewKind;
use serde::Serialize;

/// A position in whole units.
type Pos = [i32; 3];

fn pos(v: glam::Vec3) -> Pos {
    [v.x.round() as i32, v.y.round() as i32, v.z.round() as i32]
}

/// A player as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FramePlayer {
    /// Client slot.
    pub slot: u8,
    /// Name.
    pub name: String,
    /// Team name (`free`, `red`, `blue`, `spectator`).
    pub team: &'static str,
    /// Whether a bot plays it.
    pub bot: bool,
    /// Body position, if it has a body.
    pub pos: Option<Pos>,
    /// View yaw, whole degrees.
    pub yaw: i16,
    /// Health (0 when dead or without a body).
    pub health: i32,
    /// Armor.
    pub armor: i32,
    /// Weapon in hand (its number).
    pub weapon: u8,
    /// Alive.
    pub alive: bool,
    /// Powerup and flag bits (as in the network snapshot).
    pub powerups: u8,
    /// Frags.
    pub frags: i32,
    /// Deaths.
    pub deaths: u32,
}

/// A pickup as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameItem {
    /// Its class name.
    pub class: &'static str,
    /// Where it is.
    pub pos: Pos,
    /// Whether it can be picked up now.
    pub available: bool,
    /// A weapon someone dropped.
    pub dropped: bool,
}

/// A bot's mind as drawn (toggled per bot on the page).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameBot {
    /// Its slot.
    pub slot: u8,
    /// Its movement goal.
    pub goal: String,
    /// The route still ahead: corners.
    pub route: Vec<Pos>,
    /// How each corner is reached (`walk`, `jump`, `drop`, `jumppad`, `teleport`, `lift`, `swim`...).
    pub links: Vec<&'static str>,
    /// Its combat target's slot.
    pub enemy: Option<u8>,
    /// Its stance, when tactics are on.
    pub stance: Option<&'static str>,
    /// Its objective role (`attack`, `defend`, `carrier`...), where the
    /// game type has objectives.
    pub role: Option<&'static str>,
    /// Its field of view, whole degrees.
    pub fov: u16,
    /// What it believes about enemies' whereabouts: the [`MAX_TRACKS`]
    /// that matter most (in view first, then the freshest).
    pub tracks: Vec<FrameTrack>,
}

/// Tracks a bot's mind carries at most (64 bots believing in 63 enemies
/// each would make a frame of 50 KB).
pub const MAX_TRACKS: usize = 6;

/// One enemy a bot believes is somewhere; encoded as the array
/// `[slot, [x, y, z], how, visible, error]` with `how` one letter (`s`
/// seen, `h` heard, `r` reported), so a frame stays small.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameTrack {
    /// The enemy's slot.
    pub slot: u8,
    /// Where the bot thinks it is.
    pub pos: Pos,
    /// How it knows: `s` seen, `h` heard, `r` reported.
    pub how: &'static str,
    /// Seen in its latest look.
    pub visible: bool,
    /// How far off the belief may be, units.
    pub error: u16,
}

impl Serialize for FrameTrack {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.slot, self.pos, self.how, u8::from(self.visible), self.error).serialize(s)
    }
}

impl FrameBot {
    /// From the bot manager's overlay.
    pub fn from_overlay(o: &quarry_bots::BotOverlay) -> Self {
        Self {
            slot: o.slot.0,
            goal: o.goal.clone(),
            route: o.route.iter().map(|(p, _)| pos(*p)).collect(),
            links: o.route.iter().map(|(_, k)| k.name()).collect(),
            enemy: o.enemy.map(|s| s.0),
            stance: o.stance,
            role: o.role,
            fov: o.fov.clamp(0.0, 360.0).round() as u16,
            tracks: {
                let key = |t: &&quarry_bots::memory::EnemyTrack| (std::cmp::Reverse(t.visible), std::cmp::Reverse(t.news_tick), t.slot.0);
                let mut tracks: Vec<&quarry_bots::memory::EnemyTrack> = o.tracks.iter().collect();
                // The few that matter, without sorting them all.
                if tracks.len() > MAX_TRACKS {
                    tracks.select_nth_unstable_by_key(MAX_TRACKS, key);
                    tracks.truncate(MAX_TRACKS);
                }
                tracks.sort_by_key(key);
                tracks
                    .into_iter()
                    .take(MAX_TRACKS)
                    .map(|t| FrameTrack {
                        slot: t.slot.0,
                        pos: pos(t.position),
                        how: match t.knowledge {
                            quarry_bots::memory::Knowledge::Seen => "s",
                            quarry_bots::memory::Knowledge::Heard => "h",
                            quarry_bots::memory::Knowledge::Reported => "r",
                        },
                        visible: t.visible,
                        error: t.uncertainty.clamp(0.0, f32::from(u16::MAX)).round() as u16,
                    })
                    .collect()
            },
        }
    }
}

/// A flag as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameFlag {
    /// Whose (`red`, `blue`, or `free` for One Flag's).
    pub team: &'static str,
    /// Where it is now.
    pub pos: Pos,
    /// Its base.
    pub home: Pos,
    /// `home`, `carried` or `dropped`.
    pub status: &'static str,
    /// The carrier's slot.
    pub carrier: Option<u8>,
}

/// The round of a round-based game type, as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameRound {
    /// Round number, from 1.
    pub number: u32,
    /// Being fought (false between rounds).
    pub live: bool,
    /// Seconds until it (or the pause before it) ends by time, if it has a limit.
    pub seconds_left: Option<u32>,
    /// Players still standing: red, blue.
    pub standing: (u32, u32),
    /// Rounds won: red, blue.
    pub wins: (u32, u32),
}

/// Everything the page draws at one tick.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WebFrame {
    /// The match tick.
    pub tick: u32,
    /// Ticks per second.
    pub hz: u32,
    /// The map's name.
    pub map: String,
    /// Game type.
    pub gametype: &'static str,
    /// Match phase.
    pub phase: &'static str,
    /// Red and blue scores in team games.
    pub team_scores: Option<(i32, i32)>,
    /// Every client, by slot.
    pub players: Vec<FramePlayer>,
    /// Pickups.
    pub items: Vec<FrameItem>,
    /// Rockets, grenades and plasma in flight.
    pub projectiles: Vec<Pos>,
    /// Doors and platforms: map entity index and offset from where the map
    /// put them.
    pub movers: Vec<(u32, Pos)>,
    /// Flags (CTF, One Flag).
    pub flags: Vec<FrameFlag>,
    /// Frozen players (Freeze Tag): slot and thaw progress in percent.
    pub frozen: Vec<(u8, u8)>,
    /// The floor (`/map`) these positions go with: the navmesh generation,
    /// 0 before one is ready.
    pub floor: u64,
    /// The round, in round-based game types.
    pub round: Option<FrameRound>,
    /// The bots' minds.
    pub bots: Vec<FrameBot>,
    /// Recent kills, chat, flag and round news, oldest first.
    pub feed: Vec<super::history::FeedLine>,
    /// The revision of the match's history (`/history`: deaths, stuck
    /// hotspots) these go with.
    pub history: u64,
    /// Where the recording stands, when one is played.
    pub replay: Option<super::control::ReplayStatus>,
}

impl WebFrame {
    /// The frame of `game` now. Needs the match mutably only to gather its
    /// entities (the same view the network snapshot is built from).
    pub fn build(game: &Match, map: &str) -> Self {
        let views = game.entity_views();
        let board = game.scoreboard();
        let mode = game.mode_state();
        let mut players: Vec<FramePlayer> = board
            .rows
            .iter()
            .map(|r| {
                let own = game.own_view(r.slot);
                FramePlayer {
                    slot: r.slot.0,
                    name: r.name.clone(),
                    team: r.team.name(),
                    bot: r.bot,
                    pos: own.map(|o| pos(o.origin)),
                    yaw: own.map_or(0, |o| o.angles.1.rem_euclid(360.0).round() as i16),
                    health: own.map_or(0, |o| o.health),
                    armor: own.map_or(0, |o| o.armor),
                    weapon: own.map_or(0, |o| o.inventory.current),
                    alive: own.is_some_and(|o| o.alive),
                    powerups: own.map_or(0, |o| o.powerups),
                    frags: r.score.frags,
                    deaths: r.score.deaths,
                }
            })
            .collect();
        players.sort_by_key(|p| p.slot);
        let mut items = Vec::new();
        let mut projectiles = Vec::new();
        let mut movers = Vec::new();
        for v in &views {
            match v.kind {
                ViewKind::Item { classname, available, dropped } => items.push(FrameItem { class: classname, pos: pos(v.origin), available, dropped }),
                ViewKind::Projectile { .. } => projectiles.push(pos(v.origin)),
                ViewKind::Mover { entity } => movers.push((entity, pos(v.origin))),
                ViewKind::Player { .. } => {}
            }
        }
        let flags = mode
            .flags
            .iter()
            .map(|f| {
                let (status, carrier) = match f.status {
                    FlagStatus::Home => ("home", None),
                    FlagStatus::Carried { by } => ("carried", Some(by.0)),
                    FlagStatus::Dropped { .. } => ("dropped", None),
                };
                FrameFlag { team: f.team.name(), pos: pos(f.origin), home: pos(f.home), status, carrier }
            })
            .collect();
        let round = mode.round.as_ref().map(|r| FrameRound {
            number: r.number,
            live: r.live,
            seconds_left: r.ends_at.map(|end| end.saturating_sub(game.tick()) / game.hz().max(1)),
            standing: r.standing,
            wins: r.wins,
        });
        let frozen = mode.frozen.iter().map(|f| (f.slot.0, (f.thaw.clamp(0.0, 1.0) * 100.0).round() as u8)).collect();
        Self {
            tick: game.tick(),
            hz: game.hz(),
            map: map.to_owned(),
            gametype: board.gametype.name(),
            phase: board.phase.name(),
            team_scores: board.team_scores,
            players,
            items,
            projectiles,
            movers,
            flags,
            frozen,
            floor: 0,
            round,
            bots: Vec::new(),
            feed: Vec::new(),
            history: 0,
            replay: None,
        }
    }

    /// The frame as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
