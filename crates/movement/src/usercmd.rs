//! The user command: the one unit of input, identical for remote players and
//! bots. Every command that drives a player goes through the input queue as
//! one of these; nothing downstream knows who wrote it.

use serde::{Deserialize, Serialize};

/// Buttons held during a command, as bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Buttons(pub u16);

impl Buttons {
    /// Fire the selected weapon (or respawn when dead).
    pub const ATTACK: Self = Self(1);
    /// Jump; fires on a fresh press only (holding it does not re-jump).
    pub const JUMP: Self = Self(1 << 1);
    /// Crouch: a lower box and slower movement.
    pub const CROUCH: Self = Self(1 << 2);
    /// Walk: slower, quiet movement.
    pub const WALK: Self = Self(1 << 3);
    /// Use (doors, buttons).
    pub const USE: Self = Self(1 << 4);
    /// Drop: a flag carrier drops the flag in front of it, where
    /// `g_flagDrop` allows (a fresh press; Xonotic's drop key).
    pub const DROP: Self = Self(1 << 5);
    /// Every defined button; other bits are cleared on sanitising.
    pub const ALL: Self = Self(0b11_1111);

    /// Every defined button with the name scripts and consoles give it,
    /// in bit order.
    pub const NAMED: [(&'static str, Self); 6] = [
        ("attack", Self::ATTACK),
        ("jump", Self::JUMP),
        ("crouch", Self::CROUCH),
        ("walk", Self::WALK),
        ("use", Self::USE),
        ("drop", Self::DROP),
    ];

    /// Whether every button in `other` is held.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds buttons.
    #[must_use]
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Releases buttons.
    #[must_use]
    pub const fn without(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// The button a name in [`Buttons::NAMED`] stands for.
    pub fn by_name(name: &str) -> Option<Self> {
        Self::NAMED.iter().find(|(n, _)| *n == name).map(|&(_, b)| b)
    }
}

impl std::ops::BitOr for Buttons {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

/// One tick of input for one client slot.
///
/// Angles are in degrees: `pitch` positive looks down (Quake convention),
/// `yaw` counter-clockwise from +X. After sanitising both are whole
/// [`ANGLE_UNIT`]s (1/65536 of a turn, Quake 3's `ANGLE2SHORT`), so a
/// command's angles are two 16-bit numbers in a recording.
/// Moves are -127..=127 where 127 is full speed forward/right/up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct UserCmd {
    /// The server tick this command is meant for; the queue drops stale and
    /// duplicate ticks.
    pub tick: u32,
    /// View pitch in degrees, -89..=89 after sanitising.
    pub pitch: f32,
    /// View yaw in degrees, wrapped to 0..360 after sanitising.
    pub yaw: f32,
    /// Forward (+) / back (-) move.
    pub forward: i8,
    /// Right (+) / left (-) move.
    pub right: i8,
    /// Up (+, swim up) / down (-) move.
    pub up: i8,
    /// Buttons held.
    pub buttons: Buttons,
    /// The weapon the player wants selected (a weapon number; 0 = keep current).
    pub weapon: u8,
}

/// The largest pitch a client or a bot should look at, in degrees
/// (straight up or down would make the view basis degenerate). A
/// command's own pitch is an angle like its yaw, wrapped to -180..180: the
/// view is the command's angles plus the player's delta angles, held
/// within ±90 by pmove, so a command's pitch may lie beyond this by as
/// much as the delta (Quake 3's commands carry their angles as shorts).
pub const MAX_PITCH: f32 = 89.0;

/// The step a command's angles are rounded to: 1/65536 of a turn, in
/// degrees (0.0055°, 0.2 units of aim error at 2,000 units). Exactly
/// representable, so [`units_to_angle`] is exact and the round trip through
/// [`angle_to_units`] is the identity.
pub const ANGLE_UNIT: f32 = 360.0 / 65536.0;

/// [`MAX_PITCH`] in whole angle units, rounded down so a rounded pitch is
/// never beyond it.
pub const MAX_PITCH_UNITS: i32 = 16_201;

/// An angle in degrees as whole [`ANGLE_UNIT`]s, rounded to the nearest.
/// Not wrapped: callers wrap or clamp first.
#[must_use]
pub fn angle_to_units(deg: f32) -> i32 {
    (deg / ANGLE_UNIT).round() as i32
}

/// An angle in degrees wrapped to -180..180 (left as it is when already
/// within: its bits do not change).
#[must_use]
pub fn wrap_half_turn(deg: f32) -> f32 {
    if (-180.0..180.0).contains(&deg) {
        return deg;
    }
    let wrapped = (deg + 180.0).rem_euclid(360.0) - 180.0;
    // rem_euclid may round up to the whole turn.
    if wrapped >= 180.0 { -180.0 } else { wrapped }
}

/// Whole [`ANGLE_UNIT`]s as degrees (exact).
#[must_use]
pub fn units_to_angle(units: i32) -> f32 {
    units as f32 * ANGLE_UNIT
}

/// Why a command was changed on its way in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sanitised {
    /// Nothing needed changing.
    Clean,
    /// Something was out of range or not finite and was clamped.
    Clamped,
}

impl UserCmd {
    /// Clamps a command from outside into the ranges the simulation assumes:
    /// non-finite angles become 0, yaw is wrapped to 0..360 and pitch to
    /// -180..180 (both are angles; wrapping is normal, not a repair), `-128`
    /// moves become `-127`, unknown buttons cleared. Returns whether anything
    /// had to be repaired, so the caller can count bad input.
    pub fn sanitise(&mut self) -> Sanitised {
        let before = *self;
        if !self.pitch.is_finite() {
            self.pitch = 0.0;
        }
        if !self.yaw.is_finite() {
            self.yaw = 0.0;
        }
        self.pitch = wrap_half_turn(self.pitch);
        if !(0.0..360.0).contains(&self.yaw) {
            self.yaw = self.yaw.rem_euclid(360.0);
            if self.yaw >= 360.0 {
                self.yaw = 0.0;
            }
        }
        for m in [&mut self.forward, &mut self.right, &mut self.up] {
            *m = (*m).max(-127);
        }
        self.buttons = Buttons(self.buttons.0 & Buttons::ALL.0);
        // Angles that only wrapped (a yaw of 370 -> 10) are normal client
        // behaviour.
        let wrapped_only = before.pitch.is_finite()
            && before.forward == self.forward
            && before.right == self.right
            && before.up == self.up
            && before.buttons == self.buttons
            && before.yaw.is_finite();
        // Rounding to whole angle units is the command's precision, not a
        // repair: it is applied after the check.
        self.pitch = units_to_angle(i32::from(wrap_pitch_units(angle_to_units(self.pitch))));
        self.yaw = units_to_angle(angle_to_units(self.yaw) & 0xffff);
        if wrapped_only { Sanitised::Clean } else { Sanitised::Clamped }
    }

    /// The yaw in whole angle units, 0..65536 (exact once sanitised).
    #[must_use]
    pub fn yaw_units(&self) -> u16 {
        (angle_to_units(self.yaw) & 0xffff) as u16
    }

    /// The pitch in whole angle units, -32768..32768 (exact once sanitised).
    #[must_use]
    pub fn pitch_units(&self) -> i16 {
        wrap_pitch_units(angle_to_units(self.pitch))
    }
}

/// Angle units wrapped to a signed half turn either way (-180..180): the
/// low 16 bits, as Quake 3's `ANGLE2SHORT`.
fn wrap_pitch_units(units: i32) -> i16 {
    units as u16 as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitise_clamps_bad_values() {
        let mut c = UserCmd { pitch: f32::NAN, yaw: 1e30, forward: -128, buttons: Buttons(0xffff), ..UserCmd::default() };
        assert_eq!(c.sanitise(), Sanitised::Clamped);
        assert_eq!(c.pitch, 0.0);
        assert!((0.0..360.0).contains(&c.yaw));
        assert_eq!(c.forward, -127);
        assert_eq!(c.buttons, Buttons::ALL);
        // A pitch beyond the view's limit is an angle a delta brings back
        // into view (a spawn turned the player): kept, not repaired.
        let mut c = UserCmd { pitch: 120.0, ..UserCmd::default() };
        assert_eq!(c.sanitise(), Sanitised::Clean);
        assert_eq!(c.pitch, units_to_angle(angle_to_units(120.0)));
        let mut c = UserCmd { pitch: 200.0, ..UserCmd::default() };
        assert_eq!(c.sanitise(), Sanitised::Clean);
        assert_eq!(c.pitch, units_to_angle(angle_to_units(-160.0)));
        assert_eq!(c.pitch_units(), -29_127);
    }

    #[test]
    fn angles_are_whole_units_and_rounding_is_stable() {
        for u in 0..65536 {
            let mut c = UserCmd { yaw: units_to_angle(u), ..UserCmd::default() };
            assert_eq!(c.sanitise(), Sanitised::Clean);
            assert_eq!(c.yaw.to_bits(), units_to_angle(u).to_bits(), "yaw unit {u}");
            assert_eq!(i32::from(c.yaw_units()), u);
        }
        let top = MAX_PITCH_UNITS;
        assert!(units_to_angle(top) <= MAX_PITCH && units_to_angle(top + 1) > MAX_PITCH);
        for u in -32768..32768 {
            let mut c = UserCmd { pitch: units_to_angle(u), ..UserCmd::default() };
            assert_eq!(c.sanitise(), Sanitised::Clean);
            assert_eq!(i32::from(c.pitch_units()), u, "pitch unit {u}");
        }
        // Just under a full turn rounds to 0, not 360.
        let mut c = UserCmd { yaw: 359.999, pitch: 10.001, ..UserCmd::default() };
        assert_eq!(c.sanitise(), Sanitised::Clean);
        assert_eq!(c.yaw, 0.0);
        assert_eq!(c.pitch, units_to_angle(angle_to_units(10.001)));
    }

    #[test]
    fn every_button_has_one_name() {
        let all = Buttons::NAMED.iter().fold(Buttons::default(), |a, &(_, b)| a.with(b));
        assert_eq!(all, Buttons::ALL);
        assert_eq!(Buttons::by_name("jump"), Some(Buttons::JUMP));
        assert_eq!(Buttons::by_name("fly"), None);
        let held = Buttons::ATTACK | Buttons::JUMP;
        assert_eq!(held.without(Buttons::JUMP), Buttons::ATTACK);
        assert!(held.contains(Buttons::JUMP) && !held.contains(Buttons::WALK));
    }

    #[test]
    fn wrapping_yaw_is_clean() {
        let mut c = UserCmd { yaw: -90.0, forward: 127, ..UserCmd::default() };
        assert_eq!(c.sanitise(), Sanitised::Clean);
        assert_eq!(c.yaw, 270.0);
    }
}
