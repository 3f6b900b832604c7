//! Objective play: what the game type asks of a team, turned into one
//! movement objective per bot that the normal goal selection weighs
//! ([`crate::decide`]). The layer supplies urgency only: perception,
//! target choice, aim and trigger never look at it, so a flag carrier runs
//! home through a fight and still shoots.
//!
//! Once per tick the manager calls [`ObjectiveProvider::plan`]: roles are
//! allocated once per team and cached; each bot's decision then reads its
//! row ([`ObjectiveProvider::objective`]). The allocation is a function of
//! the view, the bot slots and the previous tick's roles only (players in
//! slot order, distances, ties to the lower slot), so it is the same answer
//! whichever bot asks. Roles are reassigned with hysteresis (holders of a
//! role are preferred for it) so they do not flap from tick to tick.
//!
//! | game type | provider | roles |
//! |---|---|---|
//! | CTF, One Flag | [`ctf`] | carrier, return, intercept, escort, attack, defend |
//! | Freeze Tag | [`freeze`] | rescue (unique matching to frozen teammates), regroup, fight |
//! | Clan Arena | [`arena`] | regroup when alone, fight |
//! | FFA, Duel, TDM, anything new | [`NoObjective`] | none: bots fight, take items and roam |
//!
//! [`alloc`] holds what the planners share (team-size helpers, picking the
//! nearest free players for a role with hysteresis); [`report`] the figures.
//!
//! Objectives exist only while the match is live (not in warmup or the
//! countdown) and, in round modes, while a round is fought. Only bots are
//! role players; a human teammate is never assigned, but a human carrier
//! still gets escorts and a human enemy carrier interceptors.

pub mod alloc;
pub mod arena;
pub mod ctf;
pub mod freeze;
pub mod report;

use quarry_sim::rules::GameType;
use quarry_sim::{SlotId, Team};

use crate::decide::{Objective, ObjectiveProvider};
use crate::navigate::Navigator;
use crate::view::{BotView, PlayerSnap};

pub use alloc::{majority, opponent, role_players, support, take_cheapest, take_nearest};
pub use report::ObjectiveReport;

/// What a bot does for its team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Role {
    /// Carries a flag to where it scores.
    Carrier,
    /// Touches its own dropped flag to send it home.
    Return,
    /// Hunts the enemy flag carrier (or cuts him off at his goal).
    Intercept,
    /// Runs in formation behind a friendly carrier.
    Escort,
    /// Goes for the enemy flag (One Flag: the neutral flag).
    Attack,
    /// Holds a point of the perimeter around its base.
    Defend,
    /// Stands by a frozen teammate until it thaws.
    Rescue,
    /// Alone: moves back to its teammates.
    Regroup,
    /// Late in a round nobody is ending: goes after the nearest enemy.
    Hunt,
    /// No objective: fights, takes items, roams.
    Fight,
}

impl Role {
    /// Every role, in report order.
    pub const ALL: [Role; 10] = [
        Role::Carrier,
        Role::Return,
        Role::Intercept,
        Role::Escort,
        Role::Attack,
        Role::Defend,
        Role::Rescue,
        Role::Regroup,
        Role::Hunt,
        Role::Fight,
    ];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Role::Carrier => "carrier",
            Role::Return => "return",
            Role::Intercept => "intercept",
            Role::Escort => "escort",
            Role::Attack => "attack",
            Role::Defend => "defend",
            Role::Rescue => "rescue",
            Role::Regroup => "regroup",
            Role::Hunt => "hunt",
            Role::Fight => "fight",
        }
    }

    /// Its position in [`Role::ALL`].
    pub fn index(self) -> usize {
        Role::ALL.iter().position(|r| *r == self).unwrap_or(0)
    }

    /// An objective key of this role: the role in the high byte, `sub` (a
    /// point, a body, a formation slot) below.
    pub fn key(self, sub: u32) -> u32 {
        ((self.index() as u32 + 1) << 24) | (sub & 0x00ff_ffff)
    }

    /// The role an objective key belongs to.
    pub fn of_key(key: u32) -> Option<Role> {
        let i = (key >> 24) as usize;
        i.checked_sub(1).and_then(|i| Role::ALL.get(i).copied())
    }
}

/// A status-line name for an objective key ("defend 2", "carrier 0").
pub fn describe_key(key: u32) -> String {
    if let Some(kind) = crate::team::orders::order_of_key(key) {
        return format!("order {}", kind.name());
    }
    match Role::of_key(key) {
        Some(r) => format!("{} {}", r.name(), key & 0x00ff_ffff),
        None => format!("objective {key}"),
    }
}

/// One bot's role and the objective that goes with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assignment {
    /// The bot.
    pub slot: SlotId,
    /// Its role.
    pub role: Role,
    /// Where to go and how urgently (`None`: fight and roam).
    pub objective: Option<Objective>,
}

impl Assignment {
    /// A role with an objective.
    pub fn new(slot: SlotId, role: Role, objective: Objective) -> Self {
        Self { slot, role, objective: Some(objective) }
    }

    /// No objective: fight, items, roam.
    pub fn fight(slot: SlotId) -> Self {
        Self { slot, role: Role::Fight, objective: None }
    }
}

/// Which planner a game type uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Capture the flag.
    Ctf,
    /// One neutral flag, captured at the enemy base.
    OneFlag,
    /// Freeze Tag.
    FreezeTag,
    /// Clan Arena.
    ClanArena,
}

impl Mode {
    /// The planner for `gametype`, if it has one.
    pub fn of(gametype: GameType) -> Option<Mode> {
        match gametype {
            GameType::Ctf => Some(Mode::Ctf),
            GameType::OneFlag => Some(Mode::OneFlag),
            GameType::FreezeTag => Some(Mode::FreezeTag),
            GameType::ClanArena => Some(Mode::ClanArena),
            // FFA, Duel and TDM have none by design; a game type added
            // later fails closed until it gets a planner here.
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Mode::Ctf => "objective: ctf roles (carrier, return, intercept, escort, attack, defend)",
            Mode::OneFlag => "objective: one flag roles (carrier, intercept, escort, attack, defend)",
            Mode::FreezeTag => "objective: freeze tag (rescuers matched to frozen teammates, regroup, fight)",
            Mode::ClanArena => "objective: clan arena (fight, regroup when alone)",
        }
    }
}

/// The provider for a game type: its planner, or [`NoObjective`] (fail
/// closed) for game types without one.
pub fn provider_for(gametype: GameType) -> Box<dyn ObjectiveProvider> {
    match Mode::of(gametype) {
        Some(mode) => Box::new(ObjectiveLayer::new(mode)),
        None => Box::new(NoObjective { gametype }),
    }
}

/// The fail-closed provider: no objective, ever. Bots fall back to combat,
/// items and roaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoObjective {
    /// The game type it stands in for.
    pub gametype: GameType,
}

impl ObjectiveProvider for NoObjective {
    fn objective(&self, _view: &BotView<'_>, _me: &PlayerSnap) -> Option<Objective> {
        None
    }

    fn describe(&self) -> String {
        format!("objective: none for {}, bots fight and roam", self.gametype.name())
    }

    fn report(&self) -> Option<ObjectiveReport> {
        Some(ObjectiveReport::new(self.describe()))
    }
}

/// The objective layer of a game type with objectives: plans roles once per
/// tick, answers each bot from the plan, and counts what bots did.
#[derive(Debug, Clone)]
pub struct ObjectiveLayer {
    mode: Mode,
    /// This tick's assignments, in slot order.
    plan: Vec<Assignment>,
    /// Defence perimeters per team (CTF family), found once on the navmesh.
    perimeters: ctf::Perimeters,
    report: ObjectiveReport,
    counter: report::EventCounter,
}

impl ObjectiveLayer {
    /// The layer for `mode`.
    pub fn new(mode: Mode) -> Self {
        Self {
            mode,
            plan: Vec::new(),
            perimeters: ctf::Perimeters::default(),
            report: ObjectiveReport::new(mode.describe().to_owned()),
            counter: report::EventCounter::default(),
        }
    }

    /// This tick's assignments, in slot order.
    pub fn assignments(&self) -> &[Assignment] {
        &self.plan
    }

    /// The assignment of `slot`, if it has one this tick.
    pub fn assignment(&self, slot: SlotId) -> Option<&Assignment> {
        self.plan.iter().find(|a| a.slot == slot)
    }
}

/// Plans every team of `view` for `mode`: a pure function of its inputs
/// (the previous plan gives hysteresis), in slot order.
pub fn plan_all(
    mode: Mode,
    view: &BotView<'_>,
    bots: &[SlotId],
    prev: &[Assignment],
    perimeters: &mut ctf::Perimeters,
    nav: &mut dyn Navigator,
) -> Vec<Assignment> {
    let mut out = Vec::new();
    if !view.objectives_live {
        return out;
    }
    for team in [Team::Red, Team::Blue] {
        let players = role_players(view, bots, team);
        if players.is_empty() {
            continue;
        }
        match mode {
            Mode::Ctf | Mode::OneFlag => {
                ctf::plan_team(view, team, &players, prev, mode == Mode::OneFlag, perimeters, nav, &mut out);
            }
            Mode::FreezeTag => freeze::plan_team(view, team, &players, prev, &mut out),
            Mode::ClanArena => arena::plan_team(view, team, &players, prev, &mut out),
        }
    }
    out.sort_by_key(|a| a.slot);
    out
}

impl ObjectiveProvider for ObjectiveLayer {
    fn role(&self, slot: SlotId) -> Option<&'static str> {
        self.assignment(slot).map(|a| a.role.name())
    }

    fn plan(&mut self, view: &BotView<'_>, bots: &[SlotId], nav: &mut dyn Navigator) {
        self.counter.observe(view, bots, &mut self.report);
        let prev = std::mem::take(&mut self.plan);
        self.plan = plan_all(self.mode, view, bots, &prev, &mut self.perimeters, nav);
        for a in &self.plan {
            self.report.count_role(a.role);
            if prev.iter().any(|p| p.slot == a.slot && p.role != a.role) {
                self.report.role_changes += 1;
            }
        }
    }

    fn objective(&self, view: &BotView<'_>, me: &PlayerSnap) -> Option<Objective> {
        if !view.objectives_live {
            return None;
        }
        self.assignment(me.slot).and_then(|a| a.objective)
    }

    fn describe(&self) -> String {
        self.mode.describe().to_owned()
    }

    fn report(&self) -> Option<ObjectiveReport> {
        let mut r = self.report.clone();
        r.fill_shares();
        Some(r)
    }
}

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    #[test]
    fn helper_counts_follow_the_reference() {
        assert_eq!((0..=6).map(majority).collect::<Vec<_>>(), [0, 1, 2, 2, 3, 4, 4]);
        assert_eq!((0..=6).map(support).collect::<Vec<_>>(), [0, 1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn keys_name_their_role() {
        for r in Role::ALL {
            assert_eq!(Role::of_key(r.key(7)), Some(r));
        }
        assert_eq!(describe_key(Role::Defend.key(2)), "defend 2");
        assert_eq!(Role::of_key(5), None);
    }

    #[test]
    fn ffa_duel_tdm_fail_closed() {
        let kit = testkit::Kit::new();
        for gt in [GameType::Ffa, GameType::Duel, GameType::Tdm] {
            let mut p = provider_for(gt);
            let view = kit.view(gt, vec![testkit::player(0, Team::Free, Vec3::ZERO)]);
            let mut nav = crate::navigate::StraightNavigator::default();
            p.plan(&view, &[SlotId(0)], &mut nav);
            let me = view.player(SlotId(0)).copied().expect("player");
            assert_eq!(p.objective(&view, &me), None);
            assert_eq!(p.describe(), format!("objective: none for {}, bots fight and roam", gt.name()));
        }
        assert!(provider_for(GameType::Ctf).describe().starts_with("objective: ctf roles"));
    }
}
