//! The bot cvars and the plain settings struct the manager reads each tick.
//!
//! Operator cvars (enable, fill rules, skill, variance, think rate, cell
//! size, characters, chat) are archived, so a value set at the console
//! survives a restart; the debugging and pause switches and
//! `bot_forceCharacter` (a test tool) are not.

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};

/// Every bot setting, read live.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BotSettings {
    /// `bot_enable`: bots may be added.
    pub enable: bool,
    /// `bot_minPlayers`: top the server up to this many players with bots (0: off).
    pub min_players: usize,
    /// `bot_maxBots`: bots with no human on, fewer as humans arrive (see
    /// [`crate::manager::eased_bot_target`]); 0: off, above 0 it overrides `bot_minPlayers`.
    pub max_bots: usize,
    /// `bot_zeroAt`: how many humans ease `bot_maxBots` down to no bots (at least 1).
    pub zero_at: usize,
    /// `bot_skill`: the skill of new lives, 1..=5, fractional allowed.
    pub skill: f32,
    /// `bot_skillVariance`: per-bot spread around `bot_skill`, 0..=2.
    pub skill_variance: f32,
    /// `bot_thinkRate`: decisions per second (aim and movement still run every tick).
    pub think_rate: u32,
    /// `bot_pause`: bots send neutral commands.
    pub pause: bool,
    /// `bot_debug`: 1 events, 2 a status line per bot every 2 s.
    pub debug: u8,
    /// `bot_debugAim`: log every shot (reaction, cone, settle, lead).
    pub debug_aim: bool,
    /// `bot_navCellSize`: navmesh grid cell, units (takes effect at the next build).
    pub nav_cell_size: f32,
    /// `bot_navMaxNodes`: the navmesh node cap; past it generation stops adding
    /// ground (with a warning) but still links what it has.
    pub nav_max_nodes: usize,
    /// `bot_navBackground`: a live server builds navmeshes off the tick
    /// thread; off, on it (the first tick waits, and a seeded live match
    /// repeats exactly). Headless runs always build on the tick thread.
    pub nav_background: bool,
    /// `bot_characters`: bots take characters (name, style, voice) from the
    /// loaded content; off: the plain skill curve, pool names, silent.
    pub characters: bool,
    /// `bot_chat`: 0 silent, 1 normal, 2 chatty (halved throttles).
    pub chat: u8,
    /// `bot_chatDelay`: thinking pause before typing a line, ms.
    pub chat_delay_ms: f32,
    /// `bot_chatCPM`: typing speed, visible characters per minute.
    pub chat_cpm: f32,
    /// `bot_teamChatter`: 0 bots tell their team nothing, 1 normal, 2
    /// chatty (halved team throttles).
    pub team_chatter: u8,
    /// `bot_teamChatterTeam`: only this team's bots talk (for A/B
    /// measurements: one team with team chatter against one without).
    pub team_chatter_team: Option<quarry_sim::Team>,
    /// `bot_tactical`: 0 off; 1 force ratio and stance computed and
    /// reported; 2 fight for the stack, walk in stealth, fall back; 3 the
    /// engagement filter; 4 the weapon matchup; 5 opportunism and stance
    /// calls (see [`crate::tactics`]).
    pub tactical: u8,
    /// `bot_tacticalTeam`: only these bots use `bot_tactical`, the others
    /// play at 0 (for A/B measurements).
    pub tactical_team: Option<TacticalSide>,
    /// `bot_scriptRate`: scripted brains' calls per second.
    pub script_rate: u32,
    /// `bot_scriptMaxOps`: the operations one script call may run.
    pub script_max_ops: u64,
    /// `bot_scriptMaxMs`: the CPU time one script call may take, ms.
    pub script_max_ms: f32,
    /// `bot_scriptTickMs`: the CPU time all script calls of a tick may
    /// take, ms; calls due after it is spent wait for the next tick.
    pub script_tick_ms: f32,
}

/// Which bots `bot_tacticalTeam` gives the tactical level to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TacticalSide {
    /// One team's (`red`, `blue`).
    Team(quarry_sim::Team),
    /// Those in even slots (`half`): an A/B split inside a free-for-all.
    EvenSlots,
}

impl TacticalSide {
    /// Whether the player in `slot` on `team` is on this side.
    pub fn includes(self, slot: quarry_sim::SlotId, team: Option<quarry_sim::Team>) -> bool {
        match self {
            Self::Team(t) => team == Some(t),
            Self::EvenSlots => slot.0.is_multiple_of(2),
        }
    }
}

impl BotSettings {
    /// The chat part, for the chat director.
    pub fn chat_settings(&self) -> crate::chat::ChatSettings {
        crate::chat::ChatSettings { mode: self.chat, delay_ms: self.chat_delay_ms, cpm: self.chat_cpm }
    }
}

impl Default for BotSettings {
    fn default() -> Self {
        Self {
            enable: true,
            min_players: 0,
            max_bots: 0,
            zero_at: 8,
            skill: 3.0,
            skill_variance: 0.0,
            think_rate: 20,
            pause: false,
            debug: 0,
            debug_aim: false,
            nav_cell_size: quarry_nav::DEFAULT_CELL_SIZE,
            nav_max_nodes: quarry_nav::DEFAULT_MAX_NODES,
            nav_background: true,
            characters: true,
            chat: 1,
            chat_delay_ms: 600.0,
            chat_cpm: 900.0,
            team_chatter: 1,
            team_chatter_team: None,
            tactical: 1,
            tactical_team: None,
            script_rate: crate::script::DEFAULT_SCRIPT_RATE,
            script_max_ops: crate::script::DEFAULT_MAX_OPS,
            script_max_ms: crate::script::DEFAULT_MAX_CALL_MS,
            script_tick_ms: crate::script::DEFAULT_TICK_MS,
        }
    }
}

/// Handles of the bot cvars.
#[derive(Debug, Clone, Copy)]
pub struct BotCvars {
    enable: CvarId,
    min_players: CvarId,
    max_bots: CvarId,
    zero_at: CvarId,
    skill: CvarId,
    skill_variance: CvarId,
    think_rate: CvarId,
    pause: CvarId,
    debug: CvarId,
    debug_aim: CvarId,
    nav_cell_size: CvarId,
    nav_background: CvarId,
    nav_max_nodes: CvarId,
    characters: CvarId,
    chat: CvarId,
    chat_delay: CvarId,
    chat_cpm: CvarId,
    team_chatter: CvarId,
    team_chatter_team: CvarId,
    tactical: CvarId,
    tactical_team: CvarId,
    script_rate: CvarId,
    script_max_ops: CvarId,
    script_max_ms: CvarId,
    script_tick_ms: CvarId,
    force_character: CvarId,
}

impl BotCvars {
    /// Registers the bot cvars on `console`.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let d = BotSettings::default();
        let a = CvarFlags::ARCHIVE;
        let (lo, hi) = quarry_nav::CELL_SIZE_RANGE;
        let mut reg = |def: CvarDef| console.register_cvar(def);
        Ok(Self {
            enable: reg(CvarDef::bool("bot_enable", d.enable, "allow bots on this server").flags(a))?,
            min_players: reg(CvarDef::int(
                "bot_minPlayers",
                d.min_players as i64,
                0,
                quarry_sim::slots::MAX_SLOTS as i64,
                "top the server up to this many players with bots, one every few seconds; humans take bots' places (0: off)",
            )
            .flags(a))?,
            max_bots: reg(CvarDef::int(
                "bot_maxBots",
                d.max_bots as i64,
                0,
                quarry_sim::slots::MAX_SLOTS as i64,
                "bots with nobody on, fewer as humans arrive: bot_maxBots - humans * bot_maxBots / bot_zeroAt (rounded down, at least 0, at most the free slots), one bot joining or leaving every few seconds; 0: off, above 0 it wins over bot_minPlayers",
            )
            .flags(a))?,
            zero_at: reg(CvarDef::int(
                "bot_zeroAt",
                d.zero_at as i64,
                1,
                quarry_sim::slots::MAX_SLOTS as i64,
                "with bot_maxBots: how many humans ease the bots down to none",
            )
            .flags(a))?,
            skill: reg(CvarDef::float("bot_skill", f64::from(d.skill), 1.0, 5.0, "skill of bots, 1 (easiest) to 5 (hardest), fractions allowed; applies from each bot's next life").flags(a))?,
            skill_variance: reg(CvarDef::float(
                "bot_skillVariance",
                f64::from(d.skill_variance),
                0.0,
                2.0,
                "spread of each bot's skill around bot_skill, fixed per bot (0: all equal)",
            )
            .flags(a))?,
            think_rate: reg(CvarDef::int("bot_thinkRate", i64::from(d.think_rate), 1, 1000, "bot decisions per second (aim and movement still run every tick)").flags(a))?,
            pause: reg(CvarDef::bool("bot_pause", d.pause, "freeze bot input (bots stand still and hold fire)"))?,
            debug: reg(CvarDef::int("bot_debug", i64::from(d.debug), 0, 2, "bot debugging: 1 route events, 2 also a status line per bot every 2 s"))?,
            debug_aim: reg(CvarDef::bool("bot_debugAim", d.debug_aim, "log every bot shot: aim error, fire cone, slew, settle time and lead"))?,
            nav_cell_size: reg(CvarDef::float(
                "bot_navCellSize",
                f64::from(d.nav_cell_size),
                f64::from(lo),
                f64::from(hi),
                "navmesh grid cell in units (smaller: finer and slower to build); applies at the next build",
            )
            .flags(a))?,
            nav_max_nodes: reg(CvarDef::int(
                "bot_navMaxNodes",
                d.nav_max_nodes as i64,
                1000,
                1_000_000,
                "navmesh node cap: past it generation stops adding ground (a warning says part of the map is unnavigable); applies at the next build",
            ))?,
            nav_background: reg(CvarDef::bool(
                "bot_navBackground",
                d.nav_background,
                "a live server builds navmeshes off the tick thread (bots fight without routes for the moment it takes); 0: on the tick thread at map load, so the first tick waits for it and a seeded live match repeats exactly (headless runs always do this)",
            ))?,
            characters: reg(CvarDef::bool(
                "bot_characters",
                d.characters,
                "bots take a character from botfiles/ (its name, style and chat); 0: the plain skill curve, pool names, no chat",
            )
            .flags(a))?,
            chat: reg(CvarDef::int("bot_chat", i64::from(d.chat), 0, 2, "bot chat: 0 silent, 1 normal, 2 chatty (halved throttles and reply cooldown)").flags(a))?,
            chat_delay: reg(CvarDef::int(
                "bot_chatDelay",
                d.chat_delay_ms as i64,
                0,
                5000,
                "ms a bot thinks before typing a chat line (the whole delay is capped at 5 s)",
            )
            .flags(a))?,
            chat_cpm: reg(CvarDef::int("bot_chatCPM", d.chat_cpm as i64, 60, 6000, "bot typing speed, visible characters per minute").flags(a))?,
            team_chatter: reg(CvarDef::int(
                "bot_teamChatter",
                i64::from(d.team_chatter),
                0,
                2,
                "bots tell their team what they see and ask for escorts in team chat, in their own voice: 0 off, 1 normal, 2 chatty (halved team throttles); orders from players are taken either way",
            )
            .flags(a))?,
            team_chatter_team: reg(CvarDef::enumeration(
                "bot_teamChatterTeam",
                "",
                &["", "red", "blue"],
                "only this team's bots (red or blue) use bot_teamChatter, the other's stay silent: for measuring what team chatter is worth (empty: every team)",
            ))?,
            tactical: reg(CvarDef::int(
                "bot_tactical",
                i64::from(d.tactical),
                0,
                i64::from(crate::tactics::MAX_LEVEL),
                "how cleverly bots choose their fights, apart from bot_skill: 0 off, 1 force ratio and stance worked out and reported, 2 fight for the stack (armor x2, health x1.5 when choosing items), walk in stealth, fall back to health and take cover, 3 refuse and break off bad fights, 4 weapon matchups (switch, close in or back off, or break off), 5 stealth when alone, dropped weapons and ammo for a matchup, stance calls in team chat",
            )
            .flags(a))?,
            tactical_team: reg(CvarDef::enumeration(
                "bot_tacticalTeam",
                "",
                &["", "red", "blue", "half"],
                "only these bots use bot_tactical, the others play at 0: red or blue (one team), half (bots in even slots, for free-for-all), empty (every bot); for measuring what tactics are worth",
            ))?,
            script_rate: reg(CvarDef::int(
                "bot_scriptRate",
                i64::from(d.script_rate),
                1,
                120,
                "calls per second of scripted bot brains (botfiles/brains/*.rhai), apart from the tick rate; between calls a bot's last command repeats, like held keys",
            )
            .flags(a))?,
            script_max_ops: reg(CvarDef::int(
                "bot_scriptMaxOps",
                d.script_max_ops as i64,
                100,
                10_000_000,
                "operations one call of a scripted bot brain may run before it is stopped (that tick the bot sends no input; 5 failures in a row hand it to the native brain)",
            )
            .flags(a))?,
            script_max_ms: reg(CvarDef::float(
                "bot_scriptMaxMs",
                f64::from(d.script_max_ms),
                0.1,
                100.0,
                "ms of CPU time one call of a scripted bot brain may take before it is stopped, as at bot_scriptMaxOps (navmesh queries aside; the shipped brains take about 0.03 ms a call)",
            )
            .flags(a))?,
            script_tick_ms: reg(CvarDef::float(
                "bot_scriptTickMs",
                f64::from(d.script_tick_ms),
                0.1,
                1000.0,
                "ms of CPU time all scripted bot brains' calls may take in one tick; once spent, the calls still due wait for the next tick (those bots hold their keys)",
            )
            .flags(a))?,
            force_character: reg(CvarDef::string(
                "bot_forceCharacter",
                "",
                "every bot added from now on plays this character (a name from botcharacters; empty: normal pick)",
            ))?,
        })
    }

    /// The live values.
    pub fn read(&self, cvars: &CvarSet) -> BotSettings {
        BotSettings {
            enable: cvars.bool(self.enable),
            min_players: usize::try_from(cvars.int(self.min_players)).unwrap_or(0),
            max_bots: usize::try_from(cvars.int(self.max_bots)).unwrap_or(0),
            zero_at: usize::try_from(cvars.int(self.zero_at)).unwrap_or(8).max(1),
            skill: cvars.float(self.skill) as f32,
            skill_variance: cvars.float(self.skill_variance) as f32,
            think_rate: u32::try_from(cvars.int(self.think_rate)).unwrap_or(20).max(1),
            pause: cvars.bool(self.pause),
            debug: u8::try_from(cvars.int(self.debug)).unwrap_or(0),
            debug_aim: cvars.bool(self.debug_aim),
            nav_cell_size: cvars.float(self.nav_cell_size) as f32,
            nav_max_nodes: usize::try_from(cvars.int(self.nav_max_nodes)).unwrap_or(quarry_nav::DEFAULT_MAX_NODES),
            nav_background: cvars.bool(self.nav_background),
            characters: cvars.bool(self.characters),
            chat: u8::try_from(cvars.int(self.chat)).unwrap_or(1),
            chat_delay_ms: cvars.int(self.chat_delay) as f32,
            chat_cpm: cvars.int(self.chat_cpm) as f32,
            team_chatter: u8::try_from(cvars.int(self.team_chatter)).unwrap_or(1),
            team_chatter_team: team_named(&cvars.string(self.team_chatter_team)),
            tactical: u8::try_from(cvars.int(self.tactical)).unwrap_or(1),
            tactical_team: match cvars.string(self.tactical_team).trim().to_ascii_lowercase().as_str() {
                "half" => Some(TacticalSide::EvenSlots),
                s => team_named(s).map(TacticalSide::Team),
            },
            script_rate: u32::try_from(cvars.int(self.script_rate)).unwrap_or(crate::script::DEFAULT_SCRIPT_RATE),
            script_max_ops: u64::try_from(cvars.int(self.script_max_ops)).unwrap_or(crate::script::DEFAULT_MAX_OPS),
            script_max_ms: cvars.float(self.script_max_ms) as f32,
            script_tick_ms: cvars.float(self.script_tick_ms) as f32,
        }
    }

    /// `bot_forceCharacter` (empty: none).
    pub fn force_character(&self, cvars: &CvarSet) -> String {
        cvars.string(self.force_character).trim().to_owned()
    }
}

/// The team a cvar names (`red`, `blue`, any case), if it names one.
fn team_named(s: &str) -> Option<quarry_sim::Team> {
    match s.trim().to_ascii_lowercase().as_str() {
        "red" => Some(quarry_sim::Team::Red),
        "blue" => Some(quarry_sim::Team::Blue),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_team_cvars_take_only_a_team() {
        let mut console: Console<()> = Console::new();
        BotCvars::register(&mut console).expect("register");
        for (name, good, bad) in [("bot_teamChatterTeam", "Blue", "blu"), ("bot_tacticalTeam", "half", "evens")] {
            assert!(console.set_cvar(name, good, false, "test").is_ok(), "{name} {good}");
            let e = console.set_cvar(name, bad, false, "test").expect_err("refused");
            assert!(e.to_string().contains("red, blue"), "{name}: {e}");
            assert!(console.set_cvar(name, "", false, "test").is_ok(), "{name} empty: every team");
        }
    }

    #[test]
    fn registers_reads_and_validates() {
        let mut console: Console<()> = Console::new();
        let cvars = BotCvars::register(&mut console).expect("register");
        assert_eq!(cvars.read(console.cvars()), BotSettings::default());
        console.execute(
            &mut (),
            "set bot_skill 4.5; set bot_minPlayers 6; set bot_thinkRate 10; bot_pause 1",
            "test",
        );
        let s = cvars.read(console.cvars());
        assert_eq!((s.skill, s.min_players, s.think_rate, s.pause), (4.5, 6, 10, true));
        let errors = console.execute(&mut (), "set bot_skill 7", "test");
        assert_eq!(errors.len(), 1, "out of range is refused");
        assert!(console.cvars().find("bot_skill").is_some_and(|c| c.is_archived()));
        assert!(console.cvars().find("bot_debugAim").is_some_and(|c| !c.is_archived()));
        for archived in ["bot_chat", "bot_chatDelay", "bot_chatCPM", "bot_characters", "bot_teamChatter", "bot_tactical", "bot_maxBots", "bot_zeroAt", "bot_scriptRate", "bot_scriptMaxOps", "bot_scriptMaxMs", "bot_scriptTickMs"] {
            assert!(console.cvars().find(archived).is_some_and(|c| c.is_archived()), "{archived}");
        }
        assert!(console.cvars().find("bot_forceCharacter").is_some_and(|c| !c.is_archived()));
        console.execute(&mut (), "set bot_chat 2; set bot_chatCPM 600; set bot_teamChatter 2; set bot_forceCharacter \" Tamsin \"", "test");
        let s = cvars.read(console.cvars());
        assert_eq!((s.chat, s.chat_cpm, s.team_chatter), (2, 600.0, 2));
        assert_eq!(cvars.force_character(console.cvars()), "Tamsin");
        assert_eq!(console.execute(&mut (), "set bot_chat 3", "test").len(), 1);
        console.execute(&mut (), "set bot_maxBots 5; set bot_zeroAt 3", "test");
        let s = cvars.read(console.cvars());
        assert_eq!((s.max_bots, s.zero_at), (5, 3));
        assert_eq!(console.execute(&mut (), "set bot_zeroAt 0", "test").len(), 1, "bot_zeroAt is at least 1");
        assert_eq!(cvars.read(console.cvars()).zero_at, 3);
    }
}
