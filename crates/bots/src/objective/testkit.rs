//! Hand-built views for the objective tests: an open floor, players where
//! a test puts them, a mode state the test fills in.

use glam::Vec3;
use quarry_map::{LoadOptions, LoadedMap, load_str};
use quarry_sim::mode::{FlagInfo, FlagStatus, ModeState};
use quarry_sim::rules::GameType;
use quarry_sim::slots::MAX_SLOTS;
use quarry_sim::weapons::WeaponTable;
use quarry_sim::{Settings, Team};

use crate::view::{BotClock, BotView, PlayerSnap};

/// What a view borrows.
pub(crate) struct Kit {
    pub map: LoadedMap,
    pub settings: Settings,
    pub weapons: WeaponTable,
}

fn floor() -> String {
    let (lo, hi) = (Vec3::new(-4096.0, -4096.0, -16.0), Vec3::new(4096.0, 4096.0, 0.0));
    quarry_map::source::box_brush(lo, hi, "quarry/floor")
}

impl Kit {
    pub(crate) fn new() -> Self {
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}}}\n{{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"0 0 25\"\n}}\n",
            floor()
        );
        Self {
            map: load_str(&text, "floor.map", &LoadOptions::default()).expect("test map loads"),
            settings: Settings::default(),
            weapons: WeaponTable::quake3(),
        }
    }

    /// A live view of `players` in a `gametype` match with no flags yet.
    pub(crate) fn view(&self, gametype: GameType, players: Vec<PlayerSnap>) -> BotView<'_> {
        let mut slots = vec![None; MAX_SLOTS];
        for p in players {
            if let Some(s) = slots.get_mut(usize::from(p.slot.0)) {
                *s = Some(p);
            }
        }
        BotView {
            clock: BotClock { tick: 100, hz: 60 },
            players: slots,
            items: Vec::new(),
            projectiles: Vec::new(),
            obstacles: Vec::new(),
            events: Vec::new(),
            map: &self.map,
            settings: &self.settings,
            weapons: &self.weapons,
            sounds: crate::view::default_sounds(),
            team_game: gametype.is_team_game(),
            play_allowed: true,
            mode: ModeState {
                gametype,
                flags: Vec::new(),
                bases: Vec::new(),
                frozen: Vec::new(),
                round: None,
            },
            objectives_live: true,
        }
    }
}

/// A player standing at `origin` (on the floor), full health, a bot.
pub(crate) fn player(slot: u8, team: Team, origin: Vec3) -> PlayerSnap {
    let at = Vec3::new(origin.x, origin.y, 24.0);
    PlayerSnap { eye: Vec3::new(origin.x, origin.y, 50.0), ..PlayerSnap::standing(slot, team, at) }
}

/// A flag of `team` at home at `base` (z on the floor).
pub(crate) fn flag(team: Team, base: Vec3, status: FlagStatus, origin: Vec3) -> FlagInfo {
    FlagInfo {
        team,
        home: Vec3::new(base.x, base.y, 24.0),
        origin: Vec3::new(origin.x, origin.y, 24.0),
        status,
    }
}

/// CTF bases: red at x -2000, blue at x +2000.
pub(crate) const RED_BASE: Vec3 = Vec3::new(-2000.0, 0.0, 24.0);
/// See [`RED_BASE`].
pub(crate) const BLUE_BASE: Vec3 = Vec3::new(2000.0, 0.0, 24.0);

/// Sets both CTF flags with their statuses (origin: where they are).
pub(crate) fn ctf_flags(view: &mut BotView<'_>, red: (FlagStatus, Vec3), blue: (FlagStatus, Vec3)) {
    view.mode.flags = vec![flag(Team::Red, RED_BASE, red.0, red.1), flag(Team::Blue, BLUE_BASE, blue.0, blue.1)];
    view.mode.bases = vec![(Team::Red, RED_BASE), (Team::Blue, BLUE_BASE)];
}
