//! What a player presses in one command, before it gets a tick.

use quarry_net::usercmd::WireUserCmd;

/// Button bits for [`Controls::buttons`], the same values as the
/// simulation's `quarry_sim::Buttons` (a test checks they match).
pub mod buttons {
    /// Fire the selected weapon (or respawn when dead).
    pub const ATTACK: u16 = 1;
    /// Jump; the server jumps on a fresh press only.
    pub const JUMP: u16 = 1 << 1;
    /// Crouch.
    pub const CROUCH: u16 = 1 << 2;
    /// Walk (slower, quiet).
    pub const WALK: u16 = 1 << 3;
    /// Use (doors, buttons).
    pub const USE: u16 = 1 << 4;
    /// Drop the flag being carried (where the server allows it).
    pub const DROP: u16 = 1 << 5;

    /// Every button with its script name, in bit order.
    pub const NAMED: [(&str, u16); 6] = [
        ("attack", ATTACK),
        ("jump", JUMP),
        ("crouch", CROUCH),
        ("walk", WALK),
        ("use", USE),
        ("drop", DROP),
    ];

    /// The bit for a button name (`attack`, `jump`, `crouch`, `walk`, `use`, `drop`).
    pub fn by_name(name: &str) -> Option<u16> {
        NAMED.iter().find(|(n, _)| *n == name).map(|&(_, b)| b)
    }

    /// The names of the buttons in `bits`, joined by `+` (`-` for none).
    pub fn describe(bits: u16) -> String {
        let names: Vec<&str> = NAMED
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|&(n, _)| n)
            .collect();
        if names.is_empty() {
            "-".into()
        } else {
            names.join("+")
        }
    }
}

/// One tick of input without its tick number: view angles, moves,
/// buttons, weapon. [`crate::Client::send_cmd`] stamps the tick.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Controls {
    /// View pitch in degrees (positive looks down).
    pub pitch: f32,
    /// View yaw in degrees, counter-clockwise from +X.
    pub yaw: f32,
    /// Forward (+) / back (-), -127..=127.
    pub forward: i8,
    /// Right (+) / left (-), -127..=127.
    pub right: i8,
    /// Up (+, jump/swim up) / down (-), -127..=127.
    pub up: i8,
    /// [`buttons`] bits held.
    pub buttons: u16,
    /// Weapon wanted, 0 = keep the current one.
    pub weapon: u8,
}

impl Controls {
    /// The wire command for `tick`.
    pub fn to_wire(self, tick: u32) -> WireUserCmd {
        WireUserCmd {
            tick,
            pitch: self.pitch,
            yaw: self.yaw,
            forward: self.forward,
            right: self.right,
            up: self.up,
            buttons: self.buttons,
            weapon: self.weapon,
        }
    }

    /// These controls with the view angles made command angles: minus
    /// the server's delta angles `[pitch, yaw]` (yaw wrapped to 0..360).
    /// Non-finite deltas (a malformed snapshot) count as none.
    pub fn without_delta(self, delta: [f32; 2]) -> Controls {
        if !delta.iter().all(|d| d.is_finite()) {
            return self;
        }
        Controls { pitch: self.pitch - delta[0], yaw: (self.yaw - delta[1]).rem_euclid(360.0), ..self }
    }

    /// Whether every button in `bits` is held.
    pub fn holds(&self, bits: u16) -> bool {
        self.buttons & bits == bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_bits_mirror_the_simulation() {
        use quarry_sim::Buttons;
        assert_eq!(buttons::ATTACK, Buttons::ATTACK.0);
        assert_eq!(buttons::JUMP, Buttons::JUMP.0);
        assert_eq!(buttons::CROUCH, Buttons::CROUCH.0);
        assert_eq!(buttons::WALK, Buttons::WALK.0);
        assert_eq!(buttons::USE, Buttons::USE.0);
        assert_eq!(buttons::DROP, Buttons::DROP.0);
        let all = buttons::NAMED.iter().fold(0, |a, (_, b)| a | b);
        assert_eq!(all, Buttons::ALL.0);
    }

    #[test]
    fn names_and_wire() {
        assert_eq!(buttons::by_name("jump"), Some(buttons::JUMP));
        assert_eq!(buttons::by_name("fly"), None);
        assert_eq!(
            buttons::describe(buttons::ATTACK | buttons::JUMP),
            "attack+jump"
        );
        assert_eq!(buttons::describe(0), "-");
        let c = Controls {
            yaw: 90.0,
            forward: 127,
            buttons: buttons::JUMP,
            weapon: 5,
            ..Controls::default()
        };
        let w = c.to_wire(42);
        assert_eq!(
            (w.tick, w.yaw, w.forward, w.buttons, w.weapon),
            (42, 90.0, 127, buttons::JUMP, 5)
        );
        assert!(c.holds(buttons::JUMP) && !c.holds(buttons::ATTACK));
        let turned = c.without_delta([0.0, 120.0]);
        assert_eq!((turned.yaw, turned.forward), (330.0, 127));
        assert_eq!(c.without_delta([f32::NAN, 1.0]), c);
    }
}
