//! [`ObjectiveReport`]: what objective play looked like over a match —
//! how bot time split over the roles, and the objective events bots made
//! happen (flag takes, captures, returns, carrier kills, thaws), plus how
//! rounds ended.

use std::fmt;

use quarry_sim::events::GameEvent;
use quarry_sim::flags::FlagEventKind;
use quarry_sim::modes::RoundEndReason;
use quarry_sim::{SlotId, Team};

use super::Role;
use crate::view::BotView;

/// Bot-ticks spent in one role.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RoleTicks {
    /// The role.
    pub role: Role,
    /// Ticks bots spent in it (one per bot per tick).
    pub ticks: u64,
    /// Its share of all counted bot-ticks, percent (filled by
    /// [`ObjectiveReport::fill_shares`]).
    pub percent: f64,
}

/// The objective figures of a match (`--json` friendly).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ObjectiveReport {
    /// What objective play was on (the `botlist` line).
    pub mode: String,
    /// Bot-ticks per role, in [`Role::ALL`] order, counted while
    /// objectives were live.
    pub roles: Vec<RoleTicks>,
    /// Times a bot's role changed from one tick to the next (while it
    /// stayed alive and in play): low means roles do not flap.
    pub role_changes: u64,
    /// Ticks per second of the match (for per-minute figures).
    pub hz: u32,
    /// Flags bots took (from a base or the field).
    pub flag_takes: u32,
    /// Captures by bots: (red, blue).
    pub captures: (u32, u32),
    /// Own flags bots returned by touch.
    pub returns: u32,
    /// Enemy flag carriers bots killed (interceptions that landed).
    pub carrier_kills: u32,
    /// Frozen teammates bots thawed.
    pub thaws: u32,
    /// Rounds that ended with a team all down.
    pub rounds_eliminated: u32,
    /// Rounds that ended by the round time limit.
    pub rounds_timed_out: u32,
}

impl ObjectiveReport {
    /// An empty report for the provider described by `mode`.
    pub fn new(mode: String) -> Self {
        Self {
            mode,
            roles: Role::ALL.iter().map(|&role| RoleTicks { role, ticks: 0, percent: 0.0 }).collect(),
            role_changes: 0,
            hz: 60,
            flag_takes: 0,
            captures: (0, 0),
            returns: 0,
            carrier_kills: 0,
            thaws: 0,
            rounds_eliminated: 0,
            rounds_timed_out: 0,
        }
    }

    /// Counts one bot-tick in `role`.
    pub fn count_role(&mut self, role: Role) {
        if let Some(r) = self.roles.get_mut(role.index()) {
            r.ticks += 1;
        }
    }

    /// Fills each role's `percent` from the tick counts.
    pub fn fill_shares(&mut self) {
        let shares: Vec<f64> = self.roles.iter().map(|r| 100.0 * self.share(r.role)).collect();
        for (r, p) in self.roles.iter_mut().zip(shares) {
            r.percent = p;
        }
    }

    /// Role changes per bot per minute of counted role time.
    pub fn role_changes_per_bot_minute(&self) -> f64 {
        let ticks: u64 = self.roles.iter().map(|r| r.ticks).sum();
        let minutes = ticks as f64 / f64::from(self.hz.max(1)) / 60.0;
        if minutes > 0.0 { self.role_changes as f64 / minutes } else { 0.0 }
    }

    /// The share of counted bot-ticks spent in `role`, 0..=1.
    pub fn share(&self, role: Role) -> f64 {
        let total: u64 = self.roles.iter().map(|r| r.ticks).sum();
        let ticks = self.roles.get(role.index()).map_or(0, |r| r.ticks);
        if total == 0 { 0.0 } else { ticks as f64 / total as f64 }
    }

    /// Whether anything was counted (roles or events).
    pub fn is_empty(&self) -> bool {
        self.roles.iter().all(|r| r.ticks == 0)
            && self.flag_takes + self.returns + self.carrier_kills + self.thaws == 0
            && self.captures == (0, 0)
            && self.rounds_eliminated + self.rounds_timed_out == 0
    }
}

impl fmt::Display for ObjectiveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.roles.iter().all(|r| r.ticks == 0) && self.flag_takes + self.thaws == 0 {
            // No objective play (a type without one, or never live): the mode line says it all.
            return write!(f, "{}", self.mode);
        }
        writeln!(f, "{}", self.mode)?;
        let shares: Vec<String> = self
            .roles
            .iter()
            .filter(|r| r.ticks > 0)
            .map(|r| format!("{} {:.1}%", r.role.name(), 100.0 * self.share(r.role)))
            .collect();
        if !shares.is_empty() {
            writeln!(
                f,
                "  role time: {}; role changes {} ({:.1} per bot-minute)",
                shares.join(", "),
                self.role_changes,
                self.role_changes_per_bot_minute()
            )?;
        }
        write!(
            f,
            "  by bots: flag takes {}, captures {} (red {}, blue {}), returns {}, carrier kills {}, thaws {}",
            self.flag_takes,
            self.captures.0 + self.captures.1,
            self.captures.0,
            self.captures.1,
            self.returns,
            self.carrier_kills,
            self.thaws
        )?;
        if self.rounds_eliminated + self.rounds_timed_out > 0 {
            write!(
                f,
                "\n  rounds: {} won by elimination, {} timed out",
                self.rounds_eliminated, self.rounds_timed_out
            )?;
        }
        Ok(())
    }
}

/// Reads each tick's events into an [`ObjectiveReport`].
#[derive(Debug, Clone, Default)]
pub struct EventCounter {
    /// The tick last observed (a view seen twice counts once).
    last_tick: Option<u32>,
}

impl EventCounter {
    /// Counts the objective events of `view`'s tick done by `bots`.
    pub fn observe(&mut self, view: &BotView<'_>, bots: &[SlotId], report: &mut ObjectiveReport) {
        if self.last_tick == Some(view.clock.tick) {
            return;
        }
        self.last_tick = Some(view.clock.tick);
        report.hz = view.clock.hz;
        let is_bot = |s: Option<SlotId>| s.is_some_and(|s| bots.contains(&s));
        // Carriers who dropped a flag this tick (they died carrying it).
        let droppers: Vec<SlotId> = view
            .events
            .iter()
            .filter_map(|e| match e {
                GameEvent::Flag {
                    kind: FlagEventKind::Dropped,
                    slot: Some(s),
                    ..
                } => Some(*s),
                _ => None,
            })
            .collect();
        for ev in &view.events {
            match ev {
                GameEvent::Flag { kind, slot, .. } if is_bot(*slot) => match kind {
                    FlagEventKind::Taken => report.flag_takes += 1,
                    FlagEventKind::Returned => report.returns += 1,
                    FlagEventKind::Captured => {
                        let team = slot.and_then(|s| view.player(s)).map(|p| p.team);
                        match team {
                            Some(Team::Red) => report.captures.0 += 1,
                            Some(Team::Blue) => report.captures.1 += 1,
                            _ => {}
                        }
                    }
                    FlagEventKind::Dropped => {}
                },
                GameEvent::Kill {
                    killer: Some(k), victim, ..
                } if k != victim && bots.contains(k) && droppers.contains(victim) => {
                    report.carrier_kills += 1;
                }
                GameEvent::Thawed { by, .. } if is_bot(*by) => report.thaws += 1,
                GameEvent::RoundEnd { reason, .. } => match reason {
                    RoundEndReason::Elimination => report.rounds_eliminated += 1,
                    RoundEndReason::Timeout => report.rounds_timed_out += 1,
                },
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use quarry_sim::events::MeansOfDeath;
    use quarry_sim::rules::GameType;

    use super::*;
    use crate::objective::testkit::{Kit, player};

    #[test]
    fn events_by_bots_are_counted_once() {
        let kit = Kit::new();
        let mut view = kit.view(
            GameType::Ctf,
            vec![player(0, Team::Red, Vec3::ZERO), player(5, Team::Blue, Vec3::X * 100.0)],
        );
        view.events = vec![
            GameEvent::Flag { kind: FlagEventKind::Captured, team: Team::Blue, slot: Some(SlotId(0)) },
            GameEvent::Flag { kind: FlagEventKind::Dropped, team: Team::Red, slot: Some(SlotId(5)) },
            GameEvent::Kill { killer: Some(SlotId(0)), victim: SlotId(5), means: MeansOfDeath::Weapon(7) },
            GameEvent::Flag { kind: FlagEventKind::Taken, team: Team::Red, slot: Some(SlotId(9)) },
        ];
        let mut r = ObjectiveReport::new("objective: ctf".into());
        let mut c = EventCounter::default();
        c.observe(&view, &[SlotId(0), SlotId(5)], &mut r);
        c.observe(&view, &[SlotId(0), SlotId(5)], &mut r);
        assert_eq!(r.captures, (1, 0));
        assert_eq!(r.carrier_kills, 1);
        assert_eq!(r.flag_takes, 0, "slot 9 is no bot");
        r.count_role(Role::Attack);
        r.count_role(Role::Attack);
        r.count_role(Role::Defend);
        assert!((r.share(Role::Attack) - 2.0 / 3.0).abs() < 1e-9);
        r.fill_shares();
        assert!((r.roles[Role::Defend.index()].percent - 100.0 / 3.0).abs() < 1e-9);
        let text = r.to_string();
        assert!(text.contains("attack 66.7%") && text.contains("captures 1 (red 1, blue 0)"), "{text}");
    }
}
