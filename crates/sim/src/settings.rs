//! The simulation's cvars and the plain settings struct the systems read.
//!
//! The server owns the console; once per tick it copies the cvars into a
//! [`Settings`] resource (cheap: a few dozen handle reads), so every system
//! reads live values without knowing about the console.

mod move_cvars;

use bevy_ecs::prelude::*;
use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_movement::pmove::MoveParams;

use crate::rules::GameType;

pub use move_cvars::MoveCvars;

/// Every live setting of a match.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Settings {
    /// Movement constants.
    pub movement: MoveParams,
    /// Game type (latched: takes effect at the next map change).
    pub gametype: GameType,
    /// Frags (or TDM team score) that end the match; 0 = none. Not used in CTF.
    pub fraglimit: i32,
    /// Minutes of live play that end the match; 0 = none.
    pub timelimit_min: f32,
    /// Captures that end a CTF match; 0 = none.
    pub capturelimit: i32,
    /// Seconds a dropped flag lies in the field before it returns home.
    pub flag_return_s: f32,
    /// Whether a carrier may drop the flag ([`crate::Buttons::DROP`]).
    pub flag_drop: bool,
    /// Whether to wait in warmup for enough players and count down. Off,
    /// the match is live from the first tick, except a game type that a
    /// missing player forfeits (Duel), which goes live, without a
    /// countdown, once its players are in.
    pub warmup: bool,
    /// Countdown seconds before the match goes live.
    pub countdown_s: f32,
    /// Seconds of intermission (scoreboard) after the match.
    pub intermission_s: f32,
    /// Seconds a dead player must wait before attack respawns them.
    pub respawn_delay_s: f32,
    /// Seconds after which a dead player respawns anyway; 0 = never.
    pub force_respawn_s: f32,
    /// Whether teammates can hurt each other.
    pub friendly_fire: bool,
    /// Refuse team switches that unbalance the teams (TDM).
    pub team_force_balance: bool,
    /// After a player leaves a team game, move one player from a team two
    /// or more larger to the smaller one.
    pub team_auto_balance: bool,
    /// Weapons stay on their spawn after pickup (for players who lack them).
    pub weapon_stay: bool,
    /// Knockback scale (Quake 3 `g_knockback`).
    pub knockback: f32,
    /// Damage multiplier of quad damage.
    pub quad_factor: f32,
    /// Whether falling hurts.
    pub falling_damage: bool,
    /// Largest rewind for lag compensation, in milliseconds.
    pub max_unlag_ms: u32,
    /// Freeze Tag: how near (units, origin to origin) a teammate must stand to thaw.
    pub thaw_radius: f32,
    /// Freeze Tag: seconds a teammate must stand near to thaw a frozen player.
    pub thaw_time_s: f32,
    /// Freeze Tag: seconds after which a frozen player thaws by itself; 0 = never.
    pub auto_thaw_s: f32,
    /// Freeze Tag and Clan Arena: seconds a round lasts at most; 0 = no limit.
    pub round_time_limit_s: f32,
    /// Freeze Tag and Clan Arena: seconds between a round's end and the next.
    pub round_pause_s: f32,
    /// Freeze Tag and Clan Arena: rounds won that end the match; 0 = none.
    pub roundlimit: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            movement: MoveParams::default(),
            gametype: GameType::Ffa,
            fraglimit: 20,
            timelimit_min: 10.0,
            capturelimit: 8,
            flag_return_s: 30.0,
            flag_drop: true,
            warmup: true,
            countdown_s: 3.0,
            intermission_s: 10.0,
            respawn_delay_s: 1.0,
            force_respawn_s: 5.0,
            friendly_fire: false,
            team_force_balance: true,
            team_auto_balance: true,
            weapon_stay: false,
            knockback: 1000.0,
            quad_factor: 3.0,
            falling_damage: true,
            max_unlag_ms: 250,
            thaw_radius: 100.0,
            thaw_time_s: 3.0,
            auto_thaw_s: 0.0,
            round_time_limit_s: 180.0,
            round_pause_s: 3.0,
            roundlimit: 10,
        }
    }
}

/// Handles of the simulation's cvars.
#[derive(Debug, Clone)]
pub struct SimCvars {
    movement: MoveCvars,
    gametype: CvarId,
    fraglimit: CvarId,
    timelimit: CvarId,
    capturelimit: CvarId,
    flag_return: CvarId,
    flag_drop: CvarId,
    warmup: CvarId,
    countdown: CvarId,
    intermission: CvarId,
    respawn_delay: CvarId,
    force_respawn: CvarId,
    friendly_fire: CvarId,
    team_force_balance: CvarId,
    team_auto_balance: CvarId,
    weapon_stay: CvarId,
    knockback: CvarId,
    quad_factor: CvarId,
    falling_damage: CvarId,
    max_unlag: CvarId,
    thaw_radius: CvarId,
    thaw_time: CvarId,
    auto_thaw: CvarId,
    round_time_limit: CvarId,
    round_pause: CvarId,
    roundlimit: CvarId,
    /// `sv_maxclients`: client slots (latched).
    pub maxclients: CvarId,
}

impl SimCvars {
    /// Registers the simulation's cvars.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let d = Settings::default();
        let movement = MoveCvars::register(console)?;
        // Every sim cvar shapes play: recordings carry it, replays set it.
        let mut reg = |def: CvarDef| console.register_cvar(def.flags(CvarFlags::PLAY));
        let si = CvarFlags::SERVER_INFO;
        Ok(Self {
            maxclients: reg(CvarDef::int("sv_maxclients", 16, 1, crate::slots::MAX_SLOTS as i64, "client slots, humans and bots together (latched: next map)").flags(CvarFlags::LATCHED | si))?,
            gametype: reg(CvarDef::enumeration("g_gametype", d.gametype.name(), GameType::NAMES, "game type: ffa, duel, tdm, ctf, 1fctf (one flag), ft (freeze tag) or ca (clan arena) (latched: next map)").flags(CvarFlags::LATCHED | si))?,
            fraglimit: reg(CvarDef::int("fraglimit", i64::from(d.fraglimit), 0, 9999, "frags (team score in TDM) that end the match; 0 = no limit; CTF and one flag end on capturelimit, freeze tag and clan arena on roundlimit instead").flags(si))?,
            timelimit: reg(CvarDef::float("timelimit", f64::from(d.timelimit_min), 0.0, 1440.0, "minutes of live play that end the match; 0 = no limit").flags(si))?,
            capturelimit: reg(CvarDef::int("capturelimit", i64::from(d.capturelimit), 0, 9999, "flag captures that end a CTF or one flag match (fraglimit does not apply to them); 0 = no limit").flags(si))?,
            flag_return: reg(CvarDef::float("g_flagReturnTime", f64::from(d.flag_return_s), 0.0, 600.0, "seconds a dropped flag lies in the field before it returns to its base"))?,
            flag_drop: reg(CvarDef::bool("g_flagDrop", d.flag_drop, "a flag carrier may drop the flag with the drop button (to hand it to a teammate): it lands in front of the carrier, who cannot take it back for 2 s; 0: a flag is dropped only by dying"))?,
            warmup: reg(CvarDef::bool("g_warmup", d.warmup, "wait for enough players, then count down before the match goes live"))?,
            countdown: reg(CvarDef::float("g_countdown", f64::from(d.countdown_s), 0.0, 60.0, "seconds of countdown before the match goes live"))?,
            intermission: reg(CvarDef::float("g_intermission", f64::from(d.intermission_s), 0.0, 120.0, "seconds the scoreboard shows after the match"))?,
            respawn_delay: reg(CvarDef::float("g_respawnDelay", f64::from(d.respawn_delay_s), 0.0, 30.0, "seconds a dead player waits before attack respawns them"))?,
            force_respawn: reg(CvarDef::float("g_forceRespawn", f64::from(d.force_respawn_s), 0.0, 120.0, "seconds after which a dead player respawns anyway; 0 = never"))?,
            friendly_fire: reg(CvarDef::bool("g_friendlyFire", d.friendly_fire, "teammates can hurt each other").flags(si))?,
            team_force_balance: reg(CvarDef::bool("g_teamForceBalance", d.team_force_balance, "refuse team switches that would unbalance the teams"))?,
            team_auto_balance: reg(CvarDef::bool("g_teamAutoBalance", d.team_auto_balance, "when a player leaves a team game and a team is two or more larger, move its latest joiner to the other team"))?,
            weapon_stay: reg(CvarDef::bool("g_weaponStay", d.weapon_stay, "weapons stay on their spawn after pickup (for players who lack them)").flags(si))?,
            knockback: reg(CvarDef::float("g_knockback", f64::from(d.knockback), 0.0, 10000.0, "knockback scale: push in units/s per point of damage, over player mass 200"))?,
            quad_factor: reg(CvarDef::float("g_quadFactor", f64::from(d.quad_factor), 1.0, 10.0, "damage multiplier of quad damage"))?,
            falling_damage: reg(CvarDef::bool("g_fallingDamage", d.falling_damage, "falling from a height hurts"))?,
            max_unlag: reg(CvarDef::int("sv_maxUnlag", i64::from(d.max_unlag_ms), 0, 1000, "largest lag-compensation rewind for remote players' hitscan, in milliseconds"))?,
            thaw_radius: reg(CvarDef::float("g_thawRadius", f64::from(d.thaw_radius), 0.0, 1000.0, "freeze tag: units from a frozen teammate within which you thaw them"))?,
            thaw_time: reg(CvarDef::float("g_thawTime", f64::from(d.thaw_time_s), 0.0, 60.0, "freeze tag: seconds a teammate must stay within g_thawRadius to thaw a frozen player (progress is kept while nobody is near)"))?,
            auto_thaw: reg(CvarDef::float("g_autoThawTime", f64::from(d.auto_thaw_s), 0.0, 600.0, "freeze tag: seconds after which a frozen player thaws by itself; 0 = never"))?,
            round_time_limit: reg(CvarDef::float("g_roundTimeLimit", f64::from(d.round_time_limit_s), 0.0, 3600.0, "freeze tag and clan arena: seconds a round lasts at most (then more players standing wins; clan arena then more health); 0 = no limit").flags(si))?,
            round_pause: reg(CvarDef::float("g_roundPause", f64::from(d.round_pause_s), 0.0, 60.0, "freeze tag and clan arena: seconds between the end of a round and the next"))?,
            roundlimit: reg(CvarDef::int("roundlimit", i64::from(d.roundlimit), 0, 999, "freeze tag and clan arena: rounds a team must win to end the match; 0 = no limit").flags(si))?,
            movement,
        })
    }

    /// Reads the live values.
    pub fn read(&self, cvars: &CvarSet) -> Settings {
        let f = |id| cvars.float(id) as f32;
        Settings {
            movement: self.movement.read(cvars),
            gametype: GameType::parse(&cvars.string(self.gametype)).unwrap_or(GameType::Ffa),
            fraglimit: cvars.int(self.fraglimit) as i32,
            timelimit_min: f(self.timelimit),
            capturelimit: cvars.int(self.capturelimit) as i32,
            flag_return_s: f(self.flag_return),
            flag_drop: cvars.bool(self.flag_drop),
            warmup: cvars.bool(self.warmup),
            countdown_s: f(self.countdown),
            intermission_s: f(self.intermission),
            respawn_delay_s: f(self.respawn_delay),
            force_respawn_s: f(self.force_respawn),
            friendly_fire: cvars.bool(self.friendly_fire),
            team_force_balance: cvars.bool(self.team_force_balance),
            team_auto_balance: cvars.bool(self.team_auto_balance),
            weapon_stay: cvars.bool(self.weapon_stay),
            knockback: f(self.knockback),
            quad_factor: f(self.quad_factor),
            falling_damage: cvars.bool(self.falling_damage),
            max_unlag_ms: cvars.int(self.max_unlag) as u32,
            thaw_radius: f(self.thaw_radius),
            thaw_time_s: f(self.thaw_time),
            auto_thaw_s: f(self.auto_thaw),
            round_time_limit_s: f(self.round_time_limit),
            round_pause_s: f(self.round_pause),
            roundlimit: cvars.int(self.roundlimit) as i32,
        }
    }
}
