//! What one move reports to its caller, the sim or a predicting client
//! ([`MoveOutput`]): events to publish (the Quake 3 `EV_*` a pmove adds to
//! the player state) and where the box ended.

use glam::Vec3;
use quarry_map::{Contents, EntityId};

/// How hard a landing was (Quake 3 `PM_CrashLand`: thresholds on the
/// "delta" `v² / 10000` of the vertical impact speed `v`, doubled when
/// crouched, halved at water level 1, quartered at 2, nothing at 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FallSeverity {
    /// Delta over 7: a landing sound, no damage (Quake 3 `EV_FALL_SHORT`).
    Short,
    /// Delta over 40: Quake 3 deals 5 damage (`EV_FALL_MEDIUM`).
    Medium,
    /// Delta over 60: Quake 3 deals 10 damage (`EV_FALL_FAR`).
    Far,
}

impl FallSeverity {
    /// The severity of a landing with Quake 3 fall delta `delta`, if any.
    pub fn from_delta(delta: f32) -> Option<Self> {
        match delta {
            d if d > 60.0 => Some(Self::Far),
            d if d > 40.0 => Some(Self::Medium),
            d if d > 7.0 => Some(Self::Short),
            _ => None,
        }
    }

    /// Quake 3's falling damage for this severity.
    pub fn damage(self) -> i32 {
        match self {
            Self::Short => 0,
            Self::Medium => 5,
            Self::Far => 10,
        }
    }
}

/// Something a move did that the sim may publish (sounds, damage, animation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MoveEvent {
    /// A jump started.
    Jumped,
    /// A jump out of water onto a ledge started.
    WaterJumped,
    /// Landed on walkable ground after being airborne; `impact_speed` is the
    /// downward speed at impact, units/s (positive).
    Landed {
        /// Downward speed at impact, units/s.
        impact_speed: f32,
    },
    /// A landing hard enough for a sound and maybe damage; follows `Landed`
    /// in the same move. Falling damage is the sim's (see
    /// [`FallSeverity::damage`]).
    Fall(FallSeverity),
    /// A footstep while running on the ground (walking and crouching are silent).
    Footstep,
    /// A splash while moving through shallow liquid (level 1).
    FootSplash,
    /// A swim stroke at the surface (level 2).
    Swim,
    /// Climbed a step of this height (units, more than 2).
    SteppedUp {
        /// Height climbed, units.
        height: f32,
    },
    /// Snapped down to lower ground while walking (stairs down, units, more than 2).
    SteppedDown {
        /// Height dropped, units.
        height: f32,
    },
    /// Went from no liquid to some.
    WaterEntered,
    /// Went from some liquid to none.
    WaterLeft,
    /// The head went under.
    HeadUnder,
    /// The head came out.
    HeadClear,
}

/// How many events one call reports at most; more are dropped (a move
/// makes at most nine, and [`pmove`](super::pmove) runs at most four pieces).
pub const MAX_EVENTS: usize = 16;

/// How many touched entities one call reports at most (Quake 3 `MAXTOUCH`
/// is 32; a move makes at most a dozen traces).
pub const MAX_TOUCHED: usize = 8;

/// What one call of [`pmove`](super::pmove) did, for the sim.
///
/// Speeds are units/s, heights units, the box is relative to the origin.
/// The lasting state is in [`MoveState`](super::MoveState).
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use = "a move's events (jumps, landings, liquids) must reach the sim"]
pub struct MoveOutput {
    events: [MoveEvent; MAX_EVENTS],
    event_count: u8,
    touched: [Option<EntityId>; MAX_TOUCHED],
    touched_count: u8,
    /// The liquid at the feet after the move (empty if none): slime and lava hurt.
    pub liquid: Contents,
    /// Water level after the move, 0-3.
    pub water_level: u8,
    /// The box after the move.
    pub mins: Vec3,
    /// See `mins`.
    pub maxs: Vec3,
    /// The state had non-finite or absurd values and was repaired before moving.
    pub sanitised: bool,
    /// The box started in solid and was nudged out.
    pub unstuck: bool,
    /// The box is in solid and no free spot within `pm_stepsize` was found;
    /// the sim should move the player (respawn it, or kill it as crushed).
    pub stuck: bool,
    /// Traces this call cost (for benchmarks and tests of the trace budget).
    pub traces: u32,
}

impl Default for MoveOutput {
    fn default() -> Self {
        Self {
            events: [MoveEvent::Jumped; MAX_EVENTS],
            event_count: 0,
            touched: [None; MAX_TOUCHED],
            touched_count: 0,
            liquid: Contents::empty(),
            water_level: 0,
            mins: Vec3::ZERO,
            maxs: Vec3::ZERO,
            sanitised: false,
            unstuck: false,
            stuck: false,
            traces: 0,
        }
    }
}

impl MoveOutput {
    /// The events of the move, in the order they happened.
    pub fn events(&self) -> &[MoveEvent] {
        &self.events[..usize::from(self.event_count)]
    }

    /// Whether an event equal to `event` happened (for unit-like events).
    pub fn has(&self, event: MoveEvent) -> bool {
        self.events().contains(&event)
    }

    /// Whether a jump (from the ground) started.
    pub fn jumped(&self) -> bool {
        self.has(MoveEvent::Jumped)
    }

    /// The impact speed of a landing, if the move landed.
    pub fn landed(&self) -> Option<f32> {
        self.events().iter().find_map(|e| match e {
            MoveEvent::Landed { impact_speed } => Some(*impact_speed),
            _ => None,
        })
    }

    /// The fall severity of a landing, if it was hard enough.
    pub fn fall(&self) -> Option<FallSeverity> {
        self.events().iter().find_map(|e| match e {
            MoveEvent::Fall(s) => Some(*s),
            _ => None,
        })
    }

    /// The height of a step-up, if the move climbed one.
    pub fn stepped_up(&self) -> Option<f32> {
        self.events().iter().find_map(|e| match e {
            MoveEvent::SteppedUp { height } => Some(*height),
            _ => None,
        })
    }

    /// Brush entities (movers, `func_wall`s) the box bumped into or stood on.
    pub fn touched(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.touched
            .iter()
            .take(usize::from(self.touched_count))
            .flatten()
            .copied()
    }

    /// Records an event; drops it when the list is full.
    pub(super) fn push(&mut self, event: MoveEvent) {
        let n = usize::from(self.event_count);
        if let Some(slot) = self.events.get_mut(n) {
            *slot = event;
            self.event_count += 1;
        }
    }

    /// Records a touched entity once; drops it when the list is full.
    pub(super) fn touch(&mut self, entity: Option<EntityId>) {
        let Some(e) = entity else { return };
        let n = usize::from(self.touched_count);
        if n >= MAX_TOUCHED || self.touched[..n].contains(&Some(e)) {
            return;
        }
        self.touched[n] = Some(e);
        self.touched_count += 1;
    }

    /// Combines the outputs of two consecutive pieces of one call: events
    /// and touches in order, flags or-ed, the box and liquid of the last.
    pub(super) fn then(self, next: MoveOutput) -> MoveOutput {
        let mut out = MoveOutput {
            events: self.events,
            event_count: self.event_count,
            ..next
        };
        for &e in next.events() {
            out.push(e);
        }
        out.touched = self.touched;
        out.touched_count = self.touched_count;
        for e in next.touched() {
            out.touch(Some(e));
        }
        out.sanitised |= self.sanitised;
        out.unstuck |= self.unstuck;
        out.traces += self.traces;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_thresholds_are_quake3() {
        assert_eq!(FallSeverity::from_delta(7.0), None);
        assert_eq!(FallSeverity::from_delta(7.1), Some(FallSeverity::Short));
        assert_eq!(FallSeverity::from_delta(41.0), Some(FallSeverity::Medium));
        assert_eq!(
            FallSeverity::from_delta(61.0).map(FallSeverity::damage),
            Some(10)
        );
    }

    #[test]
    fn lists_cap_dedup_and_combine() {
        let mut a = MoveOutput::default();
        for i in 0..20 {
            a.touch(Some(EntityId(i % 10)));
            a.touch(None);
            a.push(MoveEvent::Footstep);
        }
        assert_eq!(a.touched().count(), MAX_TOUCHED);
        assert_eq!(a.events().len(), MAX_EVENTS);
        let mut b = MoveOutput::default();
        b.push(MoveEvent::Jumped);
        b.touch(Some(EntityId(3)));
        b.traces = 2;
        let mut c = MoveOutput::default();
        c.push(MoveEvent::Landed {
            impact_speed: 500.0,
        });
        c.touch(Some(EntityId(4)));
        c.water_level = 2;
        c.traces = 3;
        let d = b.then(c);
        assert_eq!(
            d.events(),
            &[
                MoveEvent::Jumped,
                MoveEvent::Landed {
                    impact_speed: 500.0
                }
            ]
        );
        assert_eq!(
            d.touched().collect::<Vec<_>>(),
            vec![EntityId(3), EntityId(4)]
        );
        assert_eq!((d.water_level, d.traces), (2, 5));
        assert!(d.jumped() && d.landed() == Some(500.0));
    }
}
