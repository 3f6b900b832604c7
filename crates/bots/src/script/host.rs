//! What a script may read and what it may do, engine-neutral: the
//! [`HostState`] a brain fills before each call (a copy of what the bot may
//! know, nothing more) and reads back after it (the [`ScriptCommand`]).
//! An engine's bindings read and write only this.

use glam::Vec3;

use super::clock::uncharged;
use crate::navigate::{Navigator, Route, Traveller};
use crate::rng::BotRng;

/// Navmesh queries one call (each entry point's call) may make, per kind;
/// a query over its quota fails the call. The quotas bound what queries
/// cost a call; their time is not counted toward its time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    /// `route(from, to)`.
    pub route: u32,
    /// `nearest_item(kind)`.
    pub nearest_item: u32,
    /// `random_reachable()`.
    pub random_reachable: u32,
    /// `visible(from, to)`.
    pub visible: u32,
}

impl Quotas {
    /// The quotas of every call.
    pub const PER_CALL: Quotas = Quotas { route: 4, nearest_item: 8, random_reachable: 2, visible: 16 };

    /// The count left for `query`.
    fn left(&mut self, query: NavQuery) -> &mut u32 {
        match query {
            NavQuery::Route => &mut self.route,
            NavQuery::NearestItem => &mut self.nearest_item,
            NavQuery::RandomReachable => &mut self.random_reachable,
            NavQuery::Visible => &mut self.visible,
        }
    }
}

/// A navmesh query a script may make, each with its own quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavQuery {
    /// `route(from, to)`.
    Route,
    /// `nearest_item(kind)`.
    NearestItem,
    /// `random_reachable()`.
    RandomReachable,
    /// `visible(from, to)`.
    Visible,
}

impl NavQuery {
    /// Its name in the script API.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Route => "route",
            Self::NearestItem => "nearest_item",
            Self::RandomReachable => "random_reachable",
            Self::Visible => "visible",
        }
    }
}

/// A player as the script sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptPlayer {
    /// Slot number.
    pub slot: i64,
    /// Team name (`free` outside team games).
    pub team: &'static str,
    /// Alive.
    pub alive: bool,
    /// In sight now (for an enemy; teammates and the owner are always known).
    pub visible: bool,
    /// Seconds since the bot last had news of it (0 when in sight).
    pub age: f64,
    /// Where it is (an enemy: where the bot last knew it to be).
    pub origin: Vec3,
    /// Velocity, units/s (an enemy: as last seen).
    pub velocity: Vec3,
    /// Eye position.
    pub eye: Vec3,
    /// View pitch, degrees.
    pub pitch: f64,
    /// View yaw, degrees.
    pub yaw: f64,
    /// Health (-1 for an enemy out of sight: unknown).
    pub health: i64,
    /// Armor (-1 for an enemy out of sight).
    pub armor: i64,
    /// Weapon in hand.
    pub weapon: i64,
    /// Holding attack.
    pub attacking: bool,
    /// On walkable ground.
    pub on_ground: bool,
    /// Liquid depth 0-3.
    pub water_level: i64,
    /// Weapons held (numbers), in order; for the bot itself only.
    pub weapons: std::sync::Arc<[i64]>,
    /// Ammo per weapon number (index = number); for the bot itself only.
    pub ammo: std::sync::Arc<[i64]>,
    /// Carrying a flag.
    pub carrier: bool,
}

/// An item as a player could know it (placed items' timers are public
/// knowledge in Quake 3 play; the native brain reads the same).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptItem {
    /// Its id (stable for the match).
    pub id: i64,
    /// Class name (`weapon_railgun`, `item_health_large`...).
    pub class: &'static str,
    /// Kind: `health`, `armor`, `weapon`, `ammo`, `powerup` or `key`.
    pub kind: &'static str,
    /// Where it lies.
    pub origin: Vec3,
    /// There to take now.
    pub available: bool,
    /// Seconds until it is back (0 when available or not coming back).
    pub respawn_in: f64,
    /// Dropped by a player (gone after a while).
    pub dropped: bool,
}

/// A flag (CTF).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptFlag {
    /// Whose flag it is.
    pub team: &'static str,
    /// Where it is now (at base, dropped, or with its carrier).
    pub origin: Vec3,
    /// At its base.
    pub at_base: bool,
    /// The carrier's slot, or -1.
    pub carrier: i64,
}

/// A teleporter of the map (its geometry is public).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptTeleporter {
    /// Its number (map order).
    pub id: i64,
    /// The middle of its trigger's floor.
    pub entrance: Vec3,
    /// Where it sends a player.
    pub destination: Vec3,
}

/// One corner of a route.
#[derive(Debug, Clone, PartialEq)]
pub struct Waypoint {
    /// Where.
    pub pos: Vec3,
    /// How the route reaches it: `walk`, `drop`, `jump`, `jumppad`, `teleport`, `lift`, `swim` or `crouch`.
    pub kind: &'static str,
}

/// An order the bot took in team chat.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptOrder {
    /// `follow`, `cover`, `hold`, `attack`, `getflag`, `help` or `regroup`.
    pub kind: String,
    /// Who gave it.
    pub from: i64,
    /// Where the speaker stood.
    pub at: Vec3,
    /// Seconds left.
    pub left: f64,
}

/// Something that happened, for `on_event(ev)`.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptEvent {
    /// A chat line the bot read.
    Chat {
        /// Who said it.
        from: i64,
        /// Their name.
        name: String,
        /// The text.
        text: String,
        /// Said to the team only.
        team: bool,
    },
    /// The bot was hurt.
    Damage {
        /// Who hurt it (-1: the world).
        attacker: i64,
        /// Health and armor lost.
        amount: i64,
        /// From where the damage came (a direction into the bot).
        dir: Vec3,
    },
    /// Someone died (the public kill feed).
    Kill {
        /// The killer (-1: the world).
        killer: i64,
        /// The victim.
        victim: i64,
    },
    /// A noise the bot heard, where it thinks it was.
    Sound {
        /// `footsteps`, `jump`, `land`, `pain`, `pickup`, `respawn`, `gunfire`, `explosion`, `mover`, `teleport` or `jumppad`.
        kind: String,
        /// The estimated position (the error grows with distance).
        at: Vec3,
        /// Who made it, if a player.
        source: i64,
    },
}

impl ScriptEvent {
    /// Its `kind` in the script: `chat`, `damage`, `kill` or `sound`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Chat { .. } => "chat",
            Self::Damage { .. } => "damage",
            Self::Kill { .. } => "kill",
            Self::Sound { .. } => "sound",
        }
    }
}

/// The command a script builds; it persists between calls like a human's
/// held keys, and the script changes what it wants changed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScriptCommand {
    /// World direction to move in; its length is the speed share (at most 1).
    pub move_dir: Vec3,
    /// View pitch and yaw, degrees (`None`: keep the current view).
    pub view: Option<(f32, f32)>,
    /// Hold attack.
    pub attack: bool,
    /// Hold jump.
    pub jump: bool,
    /// Hold crouch.
    pub crouch: bool,
    /// Hold walk.
    pub walk: bool,
    /// Hold use.
    pub use_item: bool,
    /// Hold drop (a carried flag is let go of on the press).
    pub drop_flag: bool,
    /// The weapon to select (0: no change).
    pub weapon: u8,
}

impl Default for ScriptCommand {
    fn default() -> Self {
        Self {
            move_dir: Vec3::ZERO,
            view: None,
            attack: false,
            jump: false,
            crouch: false,
            walk: false,
            use_item: false,
            drop_flag: false,
            weapon: 0,
        }
    }
}

/// A line the script wants said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptChat {
    /// To the team.
    pub team: bool,
    /// The text.
    pub text: String,
}

/// Everything a call reads and writes. Owned, so an engine may keep it for
/// the length of a call; the brain refills the read-only part before each.
pub struct HostState {
    /// The bot itself.
    pub me: ScriptPlayer,
    /// Enemies in sight or remembered (slot order).
    pub enemies: Vec<ScriptPlayer>,
    /// Living and dead teammates (team games; slot order).
    pub teammates: Vec<ScriptPlayer>,
    /// The player it serves (`addbot ... owner=NAME`, or "follow me").
    pub owner: Option<ScriptPlayer>,
    /// Items (map order).
    pub items: Vec<ScriptItem>,
    /// Flags (CTF).
    pub flags: Vec<ScriptFlag>,
    /// The map's teleporters.
    pub teleporters: std::sync::Arc<[ScriptTeleporter]>,
    /// The order it follows.
    pub order: Option<ScriptOrder>,
    /// Seconds since the match began.
    pub time: f64,
    /// The game type's short name (`ffa`, `tdm`, `ctf`...).
    pub gametype: String,
    /// Whether teams matter.
    pub team_game: bool,
    /// Routes and traces (the navmesh, when built). Its routes are those of
    /// a player with no keys on the shortest ways ([`Traveller::default`]).
    pub nav: Option<Box<dyn Navigator + Send>>,
    /// What this call may still ask of the navmesh.
    pub quota: Quotas,
    /// The bot's own seeded RNG for `rand()`.
    pub rng: BotRng,
    /// The command being built.
    pub cmd: ScriptCommand,
    /// A line to say after the call.
    pub chat: Option<ScriptChat>,
    /// Lines the script logged (at most [`MAX_LOG_LINES`] a call, each
    /// cut to [`MAX_LOG_CHARS`]), until the brain writes them out.
    pub log: Vec<String>,
    /// Lines dropped over the [`MAX_LOG_LINES`] of a call, until the brain
    /// reports them.
    pub log_dropped: u32,
    /// Where the current call last called the bot API (line and column in
    /// the engine's count): the nearest place known of an error the
    /// engine raises without one (a stack overflow, a size limit).
    pub api_site: Option<(usize, usize)>,
    /// The script asked to clear its memory (`forget()`).
    pub forget: bool,
    /// Time spent in navmesh queries (wall time, for benchmarks).
    pub nav_time: std::time::Duration,
}

/// Lines a call may log; more are dropped (and counted).
pub const MAX_LOG_LINES: usize = 4;
/// The longest `log()` line, characters; the rest is cut.
pub const MAX_LOG_CHARS: usize = 200;

impl std::fmt::Debug for HostState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostState")
            .field("me", &self.me.slot)
            .field("enemies", &self.enemies.len())
            .field("cmd", &self.cmd)
            .finish_non_exhaustive()
    }
}

impl HostState {
    /// An empty state for a bot whose RNG is `rng`.
    pub fn new(rng: BotRng) -> Self {
        Self {
            me: ScriptPlayer::default(),
            enemies: Vec::new(),
            teammates: Vec::new(),
            owner: None,
            items: Vec::new(),
            flags: Vec::new(),
            teleporters: std::sync::Arc::from(Vec::new()),
            order: None,
            time: 0.0,
            gametype: String::new(),
            team_game: false,
            nav: None,
            quota: Quotas::PER_CALL,
            rng,
            cmd: ScriptCommand::default(),
            chat: None,
            log: Vec::new(),
            log_dropped: 0,
            api_site: None,
            forget: false,
            nav_time: std::time::Duration::ZERO,
        }
    }

    /// Takes `text` as a `log()` line: kept (cleaned and cut, see
    /// [`super::log::clean_line`]) while the call has logged fewer than
    /// [`MAX_LOG_LINES`], else counted as dropped.
    pub fn log_line(&mut self, text: &str) {
        if self.log.len() < MAX_LOG_LINES {
            self.log.push(super::log::clean_line(text));
        } else {
            self.log_dropped = self.log_dropped.saturating_add(1);
        }
    }

    /// Spends one of a quota; `Err` names the query and its quota.
    pub fn spend(&mut self, query: NavQuery) -> Result<(), String> {
        let left = self.quota.left(query);
        if *left == 0 {
            let mut quotas = Quotas::PER_CALL;
            let full = *quotas.left(query);
            return Err(format!("{}: the quota of {full} per call is spent", query.name()));
        }
        *left -= 1;
        Ok(())
    }

    /// The nearest living enemy in sight, other than the player in slot
    /// `except` (-1: none excepted).
    pub fn nearest_enemy(&self, except: i64) -> Option<&ScriptPlayer> {
        let from = self.me.origin;
        self.enemies
            .iter()
            .filter(|e| e.visible && e.alive && e.slot != except)
            .min_by(|a, b| a.origin.distance_squared(from).total_cmp(&b.origin.distance_squared(from)).then(a.slot.cmp(&b.slot)))
    }

    /// A route from `from` to `to` (spends the quota).
    pub fn route(&mut self, from: Vec3, to: Vec3) -> Result<Option<Vec<Waypoint>>, String> {
        self.spend(NavQuery::Route)?;
        let t = std::time::Instant::now();
        let r = uncharged(|| self.nav.as_mut().and_then(|nav| nav.route(from, to, Traveller::default())).map(waypoints));
        self.nav_time += t.elapsed();
        Ok(r)
    }

    /// A random point reachable from the bot (spends the quota).
    pub fn random_reachable(&mut self) -> Result<Option<Vec3>, String> {
        self.spend(NavQuery::RandomReachable)?;
        let from = self.me.origin;
        let t = std::time::Instant::now();
        let rng = &mut self.rng;
        let r = uncharged(|| self.nav.as_mut().and_then(|nav| nav.random_route(from, Traveller::default(), rng)).and_then(|r| r.corners.last().map(|c| c.pos)));
        self.nav_time += t.elapsed();
        Ok(r)
    }

    /// Whether nothing solid lies between `from` and `to` (spends the quota).
    pub fn visible(&mut self, from: Vec3, to: Vec3) -> Result<bool, String> {
        self.spend(NavQuery::Visible)?;
        let t = std::time::Instant::now();
        let clear = uncharged(|| self.nav.as_mut().is_some_and(|nav| nav.clear_line(from, to)));
        self.nav_time += t.elapsed();
        Ok(clear)
    }

    /// The nearest available item of `kind` (a kind or a class name) by
    /// route from the bot, among the 4 nearest in a straight line (spends
    /// the quota).
    pub fn nearest_item(&mut self, kind: &str) -> Result<Option<ScriptItem>, String> {
        self.spend(NavQuery::NearestItem)?;
        let from = self.me.origin;
        let mut near: Vec<&ScriptItem> = self
            .items
            .iter()
            .filter(|i| i.available && (i.kind == kind || i.class == kind))
            .collect();
        near.sort_by(|a, b| a.origin.distance_squared(from).total_cmp(&b.origin.distance_squared(from)).then(a.id.cmp(&b.id)));
        near.truncate(4);
        let Some(nav) = self.nav.as_mut() else {
            return Ok(near.first().map(|i| (*i).clone()));
        };
        let t = std::time::Instant::now();
        let best = uncharged(|| {
            near.into_iter()
                .filter_map(|i| nav.route(from, i.origin, Traveller::default()).map(|r| (r.cost, i)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)))
                .map(|(_, i)| i.clone())
        });
        self.nav_time += t.elapsed();
        Ok(best)
    }
}

/// A route's corners as waypoints.
fn waypoints(route: Route) -> Vec<Waypoint> {
    route
        .corners
        .iter()
        .map(|c| Waypoint { pos: c.pos, kind: c.link.name() })
        .collect()
}
