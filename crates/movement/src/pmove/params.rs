//! Movement parameters: one table of every movement constant, as the
//! [`MoveParams`] struct pmove reads and as the rows ([`PARAMS`]) an
//! operator's settings are made from.
//!
//! The table below is the single place a constant is named: the struct
//! field, its Quake 3 default, its setting's name (`g_gravity`, `g_speed`,
//! `pm_*`), range and help text all come from one row, so they cannot
//! drift apart. Pmove reads only the struct: whoever holds the settings
//! (the sim, from its console) fills one per tick through [`PARAMS`], and
//! a predicting client fills one from what the server told it. The
//! navmesh derives its agent from the same values
//! ([`MoveParams::player_box`], [`MoveParams::step_size`],
//! [`MoveParams::max_jump_height`], [`MoveParams::min_walk_normal`]), never
//! from its own constants.

use glam::Vec3;

/// One movement parameter as an operator sets it: its setting's name,
/// default, range and help, and the [`MoveParams`] field it fills.
#[derive(Debug, Clone, Copy)]
pub struct ParamDef {
    /// The setting's name (the sim's cvar), e.g. `g_gravity`.
    pub name: &'static str,
    /// The Quake 3 value, the same number as the field's `Default`.
    pub default: f64,
    /// The smallest value the setting accepts.
    pub min: f64,
    /// The largest value the setting accepts.
    pub max: f64,
    /// What it does, with its unit; ends with a full stop.
    pub help: &'static str,
    /// The field of [`MoveParams`] the setting fills.
    pub field: fn(&mut MoveParams) -> &mut f32,
}

/// Declares [`MoveParams`], its `Default` and [`PARAMS`] from one list of
/// rows: `field: "name" = default, min..=max, "help"`.
macro_rules! move_params {
    ($($field:ident : $name:literal = $default:literal, $min:literal ..= $max:literal, $help:literal;)*) => {
        /// Every movement constant, in Quake units (distances in units,
        /// speeds in units/s, accelerations in units/s²) unless a field says
        /// otherwise. `Default` gives the Quake 3 values; live values are
        /// filled through [`PARAMS`].
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct MoveParams {
            $(
                #[doc = $help]
                #[doc = ""]
                #[doc = concat!("Cvar `", $name, "`, default ", stringify!($default), ", range ", stringify!($min), "..=", stringify!($max), ".")]
                pub $field: f32,
            )*
        }

        impl Default for MoveParams {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        /// Every movement parameter's row, in table order (the order the
        /// sim registers their cvars in).
        pub const PARAMS: [ParamDef; [$($name),*].len()] = [
            $(ParamDef { name: $name, default: $default, min: $min, max: $max, help: $help, field: |p| &mut p.$field },)*
        ];
    };
}

move_params! {
    gravity: "g_gravity" = 800.0, 0.0..=10000.0,
        "Downward acceleration of players (and anything else that falls), in units/s².";
    speed: "g_speed" = 320.0, 0.0..=5000.0,
        "Full running speed on the ground, in units/s.";
    step_size: "pm_stepsize" = 18.0, 0.0..=64.0,
        "Tallest step a player climbs (and drops down while walking) without jumping, in units.";
    jump_velocity: "pm_jumpVelocity" = 270.0, 0.0..=5000.0,
        "Upward speed a jump starts with, in units/s (jump height is v²/2g).";
    accelerate: "pm_accelerate" = 10.0, 0.0..=100.0,
        "Ground acceleration, as a multiple of the wished speed gained per second (1/s).";
    air_accelerate: "pm_airAccelerate" = 1.0, 0.0..=100.0,
        "Air acceleration (air control), as a multiple of the wished speed per second (1/s).";
    water_accelerate: "pm_waterAccelerate" = 4.0, 0.0..=100.0,
        "Swimming acceleration, as a multiple of the wished speed per second (1/s).";
    friction: "pm_friction" = 6.0, 0.0..=100.0,
        "Ground friction: the share of the speed (at least pm_stopSpeed) lost per second (1/s).";
    water_friction: "pm_waterFriction" = 1.0, 0.0..=100.0,
        "Water friction per water level (1 to 3): the share of the speed lost per second (1/s).";
    stop_speed: "pm_stopSpeed" = 100.0, 0.0..=5000.0,
        "Below this speed ground friction acts as if moving this fast, so players stop quickly, in units/s.";
    crouch_scale: "pm_crouchScale" = 0.25, 0.0..=1.0,
        "Crouched speed as a fraction of g_speed (no unit).";
    walk_scale: "pm_walkScale" = 0.5, 0.0..=1.0,
        "Speed with the walk button held as a fraction of g_speed (no unit); Quake 3 walks at 64/127 of full speed.";
    swim_scale: "pm_swimScale" = 0.5, 0.0..=1.0,
        "Swimming speed as a fraction of g_speed (no unit); wading slows in between.";
    bbox_half_width: "pm_bboxHalfWidth" = 15.0, 1.0..=64.0,
        "Half the width of the player box in x and y, in units.";
    bbox_min_z: "pm_bboxMinZ" = -24.0, -128.0..=0.0,
        "Bottom of the player box below the origin (negative), in units.";
    bbox_max_z: "pm_bboxMaxZ" = 32.0, 1.0..=128.0,
        "Top of the standing player box above the origin, in units.";
    crouch_max_z: "pm_crouchMaxZ" = 16.0, 1.0..=128.0,
        "Top of the crouched player box above the origin, in units.";
    dead_max_z: "pm_deadMaxZ" = -8.0, -127.0..=128.0,
        "Top of a dead player's box above the origin, in units (a corpse lies low).";
    view_height: "pm_viewHeight" = 26.0, -128.0..=128.0,
        "Eye height above the origin when standing, in units.";
    crouch_view_height: "pm_crouchViewHeight" = 12.0, -128.0..=128.0,
        "Eye height above the origin when crouched, in units.";
    dead_view_height: "pm_deadViewHeight" = -16.0, -128.0..=128.0,
        "Eye height above the origin when dead, in units.";
    min_walk_normal: "pm_minWalkNormal" = 0.7, 0.0..=1.0,
        "Steepest walkable ground as the smallest z of its unit normal (0.7 is about 45.6 degrees).";
    water_jump_speed: "pm_waterJumpSpeed" = 200.0, 0.0..=5000.0,
        "Forward speed of a jump out of water onto a ledge, in units/s.";
    water_jump_velocity: "pm_waterJumpVelocity" = 350.0, 0.0..=5000.0,
        "Upward speed of a jump out of water onto a ledge, in units/s.";
}

impl MoveParams {
    /// The standing player box `(mins, maxs)` relative to the origin.
    pub fn player_box(&self) -> (Vec3, Vec3) {
        self.box_with_top(self.bbox_max_z)
    }

    /// The crouched player box `(mins, maxs)`: the standing box with a lower top.
    pub fn crouch_box(&self) -> (Vec3, Vec3) {
        self.box_with_top(self.crouch_max_z)
    }

    /// A dead player's box `(mins, maxs)`: the standing box with its top at
    /// `pm_deadMaxZ`.
    pub fn dead_box(&self) -> (Vec3, Vec3) {
        self.box_with_top(self.dead_max_z)
    }

    fn box_with_top(&self, top: f32) -> (Vec3, Vec3) {
        let w = self.bbox_half_width;
        (Vec3::new(-w, -w, self.bbox_min_z), Vec3::new(w, w, top))
    }

    /// How high a standing jump lifts the origin, in units: v²/2g (45.6 with
    /// the defaults). Infinite when gravity is zero. For the navmesh's jump
    /// links; a crouch-jump reaches the same origin height.
    pub fn max_jump_height(&self) -> f32 {
        if self.gravity <= 0.0 {
            return f32::INFINITY;
        }
        self.jump_velocity * self.jump_velocity / (2.0 * self.gravity)
    }

    /// Whether ground with this unit normal can be walked on (and stood on).
    pub fn walkable(&self, normal: Vec3) -> bool {
        normal.z >= self.min_walk_normal
    }

    /// The steepest walkable slope in degrees from horizontal (45.57 with
    /// the defaults), for the navmesh.
    pub fn max_walk_slope_degrees(&self) -> f32 {
        self.min_walk_normal.clamp(0.0, 1.0).acos().to_degrees()
    }

    /// The parameters that differ from the defaults as `name value`
    /// pairs separated by spaces (`g_gravity 600 pm_jumpVelocity 300`),
    /// each value the shortest text that reads back to the same `f32`:
    /// what a server tells its clients so that their pmove moves as its own.
    pub fn to_settings_string(&self) -> String {
        let (mut ours, mut defaults) = (*self, Self::default());
        let mut parts = Vec::new();
        for row in &PARAMS {
            let value = *(row.field)(&mut ours);
            if value.to_bits() != (row.field)(&mut defaults).to_bits() {
                parts.push(format!("{} {}", row.name, value));
            }
        }
        parts.join(" ")
    }

    /// The parameters a [`to_settings_string`](Self::to_settings_string)
    /// text gives (defaults for the rest), and a message for each name
    /// not known, value not a number or out of its range (skipped).
    pub fn from_settings_string(text: &str) -> (Self, Vec<String>) {
        let mut params = Self::default();
        let mut problems = Vec::new();
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.chunks(2) {
            let [name, value] = pair else {
                problems.push(format!("\"{}\" has no value", pair[0]));
                continue;
            };
            let Some(row) = PARAMS.iter().find(|r| r.name.eq_ignore_ascii_case(name)) else {
                problems.push(format!("unknown movement setting \"{name}\""));
                continue;
            };
            match value.parse::<f32>() {
                Ok(v) if v.is_finite() && (row.min..=row.max).contains(&f64::from(v)) => *(row.field)(&mut params) = v,
                _ => problems.push(format!("{name}: \"{value}\" is not a number from {} to {}", row.min, row.max)),
            }
        }
        (params.consistent(), problems)
    }

    /// These parameters with contradictions removed: non-finite values take
    /// their default, the crouch and dead box tops lie between the box
    /// bottom (plus one unit) and the standing top, and every view height
    /// lies inside its box. Pmove calls this itself; values within each
    /// cvar's range never make it panic.
    #[must_use]
    pub fn consistent(mut self) -> Self {
        let defaults = Self::default();
        self.replace_non_finite(&defaults);
        self.bbox_half_width = self.bbox_half_width.max(1.0);
        self.bbox_min_z = self.bbox_min_z.min(0.0);
        self.bbox_max_z = self.bbox_max_z.max(self.bbox_min_z + 1.0);
        self.crouch_max_z = self
            .crouch_max_z
            .clamp(self.bbox_min_z + 1.0, self.bbox_max_z);
        self.dead_max_z = self
            .dead_max_z
            .clamp(self.bbox_min_z + 1.0, self.bbox_max_z);
        self.view_height = self.view_height.clamp(self.bbox_min_z, self.bbox_max_z);
        self.crouch_view_height = self
            .crouch_view_height
            .clamp(self.bbox_min_z, self.crouch_max_z);
        self.dead_view_height = self
            .dead_view_height
            .clamp(self.bbox_min_z, self.dead_max_z);
        self.min_walk_normal = self.min_walk_normal.clamp(0.0, 1.0);
        for scale in [
            &mut self.crouch_scale,
            &mut self.walk_scale,
            &mut self.swim_scale,
        ] {
            *scale = scale.clamp(0.0, 1.0);
        }
        for v in [
            &mut self.gravity,
            &mut self.speed,
            &mut self.step_size,
            &mut self.jump_velocity,
            &mut self.accelerate,
            &mut self.air_accelerate,
            &mut self.water_accelerate,
            &mut self.friction,
            &mut self.water_friction,
            &mut self.stop_speed,
            &mut self.water_jump_speed,
            &mut self.water_jump_velocity,
        ] {
            *v = v.max(0.0);
        }
        self
    }

    fn replace_non_finite(&mut self, defaults: &Self) {
        let pairs = [
            (&mut self.gravity, defaults.gravity),
            (&mut self.speed, defaults.speed),
            (&mut self.step_size, defaults.step_size),
            (&mut self.jump_velocity, defaults.jump_velocity),
            (&mut self.accelerate, defaults.accelerate),
            (&mut self.air_accelerate, defaults.air_accelerate),
            (&mut self.water_accelerate, defaults.water_accelerate),
            (&mut self.friction, defaults.friction),
            (&mut self.water_friction, defaults.water_friction),
            (&mut self.stop_speed, defaults.stop_speed),
            (&mut self.crouch_scale, defaults.crouch_scale),
            (&mut self.walk_scale, defaults.walk_scale),
            (&mut self.swim_scale, defaults.swim_scale),
            (&mut self.bbox_half_width, defaults.bbox_half_width),
            (&mut self.bbox_min_z, defaults.bbox_min_z),
            (&mut self.bbox_max_z, defaults.bbox_max_z),
            (&mut self.crouch_max_z, defaults.crouch_max_z),
            (&mut self.dead_max_z, defaults.dead_max_z),
            (&mut self.view_height, defaults.view_height),
            (&mut self.crouch_view_height, defaults.crouch_view_height),
            (&mut self.dead_view_height, defaults.dead_view_height),
            (&mut self.min_walk_normal, defaults.min_walk_normal),
            (&mut self.water_jump_speed, defaults.water_jump_speed),
            (&mut self.water_jump_velocity, defaults.water_jump_velocity),
        ];
        for (v, d) in pairs {
            if !v.is_finite() {
                *v = d;
            }
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_settings_a_server_tells_read_back_exactly() {
        assert_eq!(MoveParams::default().to_settings_string(), "");
        let p = MoveParams { gravity: 600.0, jump_velocity: 301.25, speed: 0.1 + 319.9, ..MoveParams::default() };
        let text = p.to_settings_string();
        let (back, problems) = MoveParams::from_settings_string(&text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(back, p.consistent(), "{text}");
        let (fallback, problems) = MoveParams::from_settings_string("g_gravity 1e30 nonsense 3 g_speed");
        assert_eq!(fallback, MoveParams::default());
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    use super::*;

    #[test]
    fn defaults_are_quake3() {
        let p = MoveParams::default();
        assert_eq!(
            (p.gravity, p.speed, p.step_size, p.jump_velocity),
            (800.0, 320.0, 18.0, 270.0)
        );
        assert_eq!(
            p.player_box(),
            (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0))
        );
        assert_eq!(p.crouch_box().1.z, 16.0);
        assert!((p.max_jump_height() - 45.5625).abs() < 1e-4);
        assert!((p.max_walk_slope_degrees() - 45.57).abs() < 0.01);
        assert!(p.walkable(Vec3::Z) && !p.walkable(Vec3::new(0.8, 0.0, 0.6)));
        assert_eq!(p.consistent(), p, "the defaults are consistent");
    }

    #[test]
    fn table_rows_match_the_struct() {
        assert_eq!(PARAMS.len(), 24);
        let defaults = MoveParams::default();
        let mut filled = MoveParams::default();
        for (i, def) in PARAMS.iter().enumerate() {
            assert!(def.help.ends_with('.') && def.help.len() > 20, "{}", def.name);
            assert!(def.min <= def.default && def.default <= def.max, "{}", def.name);
            let mut p = defaults;
            assert_eq!(*(def.field)(&mut p), def.default as f32, "{}: the row's default is the field's", def.name);
            *(def.field)(&mut filled) = i as f32 + 1000.0;
        }
        // Every row fills a field of its own.
        let mut seen: Vec<f32> = PARAMS.iter().map(|def| *(def.field)(&mut filled)).collect();
        seen.sort_by(f32::total_cmp);
        seen.dedup();
        assert_eq!(seen.len(), PARAMS.len());
    }

    #[test]
    fn contradictions_are_resolved() {
        let p = MoveParams {
            crouch_max_z: 100.0,
            bbox_max_z: 10.0,
            view_height: 50.0,
            speed: f32::NAN,
            ..MoveParams::default()
        };
        let c = p.consistent();
        assert_eq!(c.crouch_max_z, 10.0);
        assert_eq!(c.view_height, 10.0);
        assert_eq!(c.speed, 320.0);
    }
}
