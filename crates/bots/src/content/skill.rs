//! The skill curve: 58 behaviour traits, one row each, with a value for each
//! of the five skill levels and a clamp range. This table alone makes a
//! complete bot; styles and characters (a later layer) only bias it.
//!
//! The table is the single place a trait is named: the [`Traits`] field,
//! its content-file name (`reactionMsec`), group, clamp range, five levels,
//! its shape and help text all come from one row of the `skill_table!`
//! invocation below, so struct and table cannot drift apart.
//!
//! Levels are numbered 1 to 5. A fractional level interpolates linearly
//! between the two rows around it (2.5 is halfway between rows 2 and 3;
//! 5.0 is exactly row 5). Every value is clamped to its range after
//! interpolation, and a NaN becomes the range minimum.
//!
//! Shapes say how a trait may move with skill, and tests pin them:
//! - [`TraitShape::Flat`]: taste, not competence (preferred range,
//!   aggression, chattiness…). Equal in every row; a style sets them.
//! - [`TraitShape::Up`] / [`TraitShape::Down`]: accuracy traits. Strictly
//!   better at each level, in the stated direction (more sight range, less
//!   reaction time).
//! - [`TraitShape::Shaped`]: moves with skill for a reason other than
//!   accuracy (low skill fires longer bursts and suppresses more).
//!
//! Units: milliseconds where the name ends in `msec`, degrees for angles,
//! Quake units for distances, plain fractions otherwise.

/// How many skill levels the table has.
pub const SKILL_LEVELS: usize = 5;
/// The narrowest fire gate, degrees (a hand cannot hold finer).
pub const MIN_FIRE_GATE_DEG: f32 = 0.25;
/// The lowest skill level.
pub const MIN_SKILL: f32 = 1.0;
/// The highest skill level.
pub const MAX_SKILL: f32 = 5.0;

/// What part of a bot a trait tunes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraitGroup {
    /// Noticing enemies and the delay before reacting.
    Vision,
    /// Turning the view and tracking a target.
    Aim,
    /// Deciding to pull the trigger.
    Trigger,
    /// Occasional deliberate errors.
    Mistakes,
    /// Movement while fighting and choosing where to go.
    Movement,
    /// Personality in a fight.
    Tactics,
    /// How often a decision is the right one.
    Decisions,
    /// Chat (used by the chat layer).
    Chat,
}

/// How a trait moves across the five levels (pinned by tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraitShape {
    /// Equal at every level.
    Flat,
    /// Strictly larger at each higher level (larger is better).
    Up,
    /// Strictly smaller at each higher level (smaller is better).
    Down,
    /// Varies with skill, but is not an accuracy measure.
    Shaped,
}

/// One row of the table.
#[derive(Clone, Copy)]
pub struct TraitRow {
    /// The name used in content files and debug output (`reactionMsec`).
    pub name: &'static str,
    /// What it tunes.
    pub group: TraitGroup,
    /// How it moves with skill.
    pub shape: TraitShape,
    /// Smallest allowed value.
    pub min: f32,
    /// Largest allowed value.
    pub max: f32,
    /// The value at levels 1 to 5.
    pub levels: [f32; SKILL_LEVELS],
    /// What it means.
    pub help: &'static str,
    /// Reads the field of a [`Traits`].
    pub get: fn(&Traits) -> f32,
    /// Writes the field of a [`Traits`].
    pub set: fn(&mut Traits, f32),
}

impl std::fmt::Debug for TraitRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraitRow")
            .field("name", &self.name)
            .field("levels", &self.levels)
            .finish_non_exhaustive()
    }
}

macro_rules! skill_table {
    ($($field:ident : $name:literal, $group:ident, $shape:ident, $min:literal ..= $max:literal,
        [$l1:literal, $l2:literal, $l3:literal, $l4:literal, $l5:literal], $help:literal;)*) => {
        /// Every behaviour trait of one bot, resolved once per life.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Traits {
            $(
                #[doc = $help]
                #[doc = ""]
                #[doc = concat!("Content name `", $name, "`, range ", stringify!($min), "..=", stringify!($max), ".")]
                pub $field: f32,
            )*
        }

        /// The skill table, in content order.
        pub static SKILL_TABLE: &[TraitRow] = &[
            $(TraitRow {
                name: $name,
                group: TraitGroup::$group,
                shape: TraitShape::$shape,
                min: $min,
                max: $max,
                levels: [$l1, $l2, $l3, $l4, $l5],
                help: $help,
                get: |t| t.$field,
                set: |t, v| t.$field = v,
            },)*
        ];

        impl Traits {
            /// Every field at zero (a blank to fill from the table).
            const ZERO: Traits = Traits { $($field: 0.0,)* };
        }
    };
}

skill_table! {
    sight_range: "sightRange", Vision, Up, 128.0..=8192.0, [1200.0, 1700.0, 2200.0, 2600.0, 3000.0],
        "Farthest distance at which an enemy can be noticed, units.";
    fov: "fov", Vision, Up, 60.0..=360.0, [130.0, 145.0, 155.0, 170.0, 180.0],
        "Full width of the cone in which enemies are noticed, degrees.";
    reaction_msec: "reactionMsec", Vision, Down, 0.0..=2000.0, [460.0, 390.0, 320.0, 220.0, 140.0],
        "Delay from a fresh sighting to being allowed to fire, ms.";
    reaction_variance_msec: "reactionVarianceMsec", Vision, Down, 0.0..=1000.0, [180.0, 150.0, 120.0, 80.0, 45.0],
        "Uniform +/- jitter on the reaction delay, rolled per acquisition, ms.";
    reacquire_msec: "reacquireMsec", Vision, Up, 0.0..=4000.0, [150.0, 250.0, 400.0, 550.0, 700.0],
        "An enemy out of sight longer than this is a fresh sighting when seen again, ms.";
    reacquire_fraction: "reacquireFraction", Vision, Down, 0.0..=1.0, [1.0, 0.85, 0.7, 0.55, 0.4],
        "Share of the reaction delay paid when re-acquiring within the window.";
    peripheral_angle: "peripheralAngle", Vision, Up, 5.0..=180.0, [60.0, 65.0, 70.0, 75.0, 80.0],
        "Off-centre angle at which the peripheral reaction penalty is full, degrees.";
    peripheral_penalty_msec: "peripheralPenaltyMsec", Vision, Down, 0.0..=2000.0, [340.0, 290.0, 240.0, 160.0, 90.0],
        "Extra reaction delay at the peripheral angle, rising linearly from 0 at the centre, ms.";
    notice_chance: "noticeChance", Vision, Up, 0.0..=1.0, [0.3, 0.42, 0.55, 0.7, 0.85],
        "Chance per look of noticing an enemy in view who is not the target, close and dead ahead (less far off and to the side; one that fires or runs is always noticed).";
    turn_speed: "turnSpeed", Aim, Up, 20.0..=2000.0, [170.0, 280.0, 420.0, 640.0, 900.0],
        "Fastest the view turns, degrees/s.";
    turn_accel: "turnAccel", Aim, Up, 50.0..=40000.0, [750.0, 1350.0, 2400.0, 4800.0, 9000.0],
        "Turn acceleration, degrees/s^2; turnAccel/turnSpeed is the natural frequency of the view spring.";
    turn_damping: "turnDamping", Aim, Up, 0.1..=3.0, [0.42, 0.55, 0.7, 0.9, 1.1],
        "Damping ratio of the view spring (below 1 overshoots).";
    aim_track_time_const: "aimTrackTimeConst", Aim, Down, 0.01..=2.0, [0.4, 0.3, 0.22, 0.17, 0.12],
        "Time constant of the lag of the believed target position behind the real one, s.";
    aim_tremor_deg: "aimTremorDeg", Aim, Down, 0.0..=30.0, [6.0, 4.6, 3.4, 2.6, 2.0],
        "Amplitude of the continuous two-octave hand tremor, degrees.";
    aim_tremor_rate_hz: "aimTremorRateHz", Aim, Shaped, 0.05..=10.0, [0.6, 0.8, 1.1, 1.4, 1.8],
        "Base frequency of the tremor, Hz.";
    aim_track_error: "aimTrackError", Aim, Down, 0.0..=20.0, [11.0, 9.0, 7.5, 6.0, 5.0],
        "Lag across the view per 100 degrees/s of target angular speed, degrees.";
    aim_settle_msec: "aimSettleMsec", Aim, Down, 0.0..=2000.0, [240.0, 200.0, 170.0, 110.0, 60.0],
        "Time the aim must stay inside the fire cone before shooting, ms.";
    aim_lead: "aimLead", Aim, Up, 0.0..=1.5, [0.5, 0.65, 0.8, 0.9, 0.97],
        "Fraction of the correct projectile lead applied.";
    aim_lead_error: "aimLeadError", Aim, Down, 0.0..=2.0, [0.5, 0.42, 0.35, 0.3, 0.25],
        "Random +/- fraction applied to the lead, rolled per engagement, burst and shot.";
    aim_error_deg: "aimErrorDeg", Aim, Down, 0.0..=45.0, [13.0, 10.0, 8.0, 6.5, 5.5],
        "Size of the hand's aim error on acquiring a target (past it on large turns, short on small ones), degrees.";
    aim_correct_msec: "aimCorrectMsec", Aim, Down, 20.0..=1000.0, [240.0, 200.0, 170.0, 150.0, 130.0],
        "Interval between corrections of the aim error (one per hand reaction), ms.";
    aim_correct_share: "aimCorrectShare", Aim, Up, 0.0..=0.9, [0.35, 0.42, 0.48, 0.52, 0.56],
        "Mean share of the aim error removed at each correction; each is drawn between half and 1.5 times this.";
    aim_pursuit_error: "aimPursuitError", Aim, Down, 0.0..=50.0, [26.0, 23.0, 20.0, 18.0, 16.0],
        "Spread of each correction while following a moving target: +/- degrees per 100 degrees/s of its angular speed.";
    aim_retarget_msec: "aimRetargetMsec", Aim, Down, 0.0..=2000.0, [320.0, 270.0, 235.0, 215.0, 200.0],
        "Time to notice that the target changed its motion (a turn over 30 degrees, a stop, a start); until then the aim follows the old motion, ms.";
    aim_slack: "aimSlack", Aim, Down, 0.0..=1.0, [0.9, 0.8, 0.7, 0.6, 0.5],
        "Share of the target's angular radius within which the hand leaves its error uncorrected (an error that still hits is not worth a correction).";
    fire_cone_deg: "fireConeDeg", Trigger, Down, 0.25..=45.0, [14.0, 10.0, 6.5, 4.0, 2.0],
        "Widest the fire gate gets (close targets), before initiative scaling, degrees.";
    fire_gate_scale: "fireGateScale", Trigger, Down, 0.2..=10.0, [2.6, 1.9, 1.35, 1.1, 0.9],
        "The fire gate as a multiple of the target's angular radius, before initiative scaling: low skill fires early and wide.";
    hold_fire_turn_rate: "holdFireTurnRate", Trigger, Down, 10.0..=4000.0, [1000.0, 700.0, 500.0, 340.0, 220.0],
        "No firing while the view slews faster than this, degrees/s.";
    burst_min_msec: "burstMinMsec", Trigger, Shaped, 30.0..=4000.0, [480.0, 380.0, 300.0, 210.0, 140.0],
        "Shortest burst of an automatic weapon, ms.";
    burst_max_msec: "burstMaxMsec", Trigger, Shaped, 30.0..=8000.0, [1400.0, 1000.0, 700.0, 460.0, 300.0],
        "Longest burst of an automatic weapon, ms.";
    burst_pause_msec: "burstPauseMsec", Trigger, Shaped, 0.0..=2000.0, [220.0, 180.0, 140.0, 110.0, 80.0],
        "Rest between bursts, ms.";
    mistake_chance: "mistakeChance", Mistakes, Down, 0.0..=1.0, [0.45, 0.32, 0.2, 0.1, 0.03],
        "Probability that a mistake roll produces a mistake.";
    mistake_msec: "mistakeMsec", Mistakes, Down, 50.0..=5000.0, [900.0, 750.0, 600.0, 450.0, 300.0],
        "How long a mistake lasts, and the interval between rolls in a fight, ms.";
    strafe_chance: "strafeChance", Movement, Shaped, 0.0..=1.0, [0.15, 0.3, 0.45, 0.58, 0.7],
        "Weight of sideways strafing in a fight.";
    dodge_react_msec: "dodgeReactMsec", Movement, Down, 0.0..=3000.0, [900.0, 700.0, 500.0, 320.0, 180.0],
        "Delay between being hit and starting a dodge, ms.";
    jump_chance: "jumpChance", Movement, Shaped, 0.0..=1.0, [0.05, 0.12, 0.22, 0.34, 0.45],
        "Chance that a dodge includes jumps.";
    combat_range: "combatRange", Movement, Flat, 32.0..=4096.0, [500.0, 500.0, 500.0, 500.0, 500.0],
        "Preferred fighting distance, units (a style sets it).";
    range_discipline: "rangeDiscipline", Movement, Shaped, 0.0..=1.0, [0.2, 0.35, 0.5, 0.68, 0.85],
        "How strongly the preferred range is kept; also how far it moves toward the weapon's own range.";
    aggression: "aggression", Movement, Flat, 0.0..=1.0, [0.5, 0.5, 0.5, 0.5, 0.5],
        "Willingness to close in versus back off.";
    patience: "patience", Movement, Flat, 0.0..=1.0, [0.5, 0.5, 0.5, 0.5, 0.5],
        "Above 0.5: waits in place at the end of a roam.";
    retreat_health: "retreatHealth", Movement, Shaped, 0.0..=1.0, [0.15, 0.2, 0.25, 0.3, 0.35],
        "Fraction of maximum health below which the bot wants health.";
    pursuit: "pursuit", Movement, Shaped, 0.0..=2.0, [0.3, 0.42, 0.55, 0.68, 0.8],
        "Scales enemy memory, chase prediction and the priority of chasing.";
    item_focus: "itemFocus", Movement, Shaped, 0.0..=2.0, [0.25, 0.38, 0.5, 0.65, 0.8],
        "Scales the radius in which items are considered.";
    initiative: "initiative", Tactics, Shaped, 0.0..=1.0, [0.8, 0.7, 0.58, 0.5, 0.5],
        "Acceptance of imperfect shots: scales reaction, fire cone, slew gate and settle time.";
    target_stickiness: "targetStickiness", Tactics, Flat, 0.0..=1.0, [0.5, 0.5, 0.5, 0.5, 0.5],
        "Margin another enemy must win by to take over as the target.";
    opportunism: "opportunism", Tactics, Flat, 0.0..=1.0, [1.0, 1.0, 1.0, 1.0, 1.0],
        "Weight of a target's remaining health in choosing it.";
    vengefulness: "vengefulness", Tactics, Flat, 0.0..=1.0, [0.0, 0.0, 0.0, 0.0, 0.0],
        "Preference for whoever killed the bot last.";
    suppression_msec: "suppressionMsec", Tactics, Shaped, 0.0..=2000.0, [1200.0, 700.0, 250.0, 0.0, 0.0],
        "Keeps firing at the believed position this long after losing sight, ms.";
    strafe_rhythm_msec: "strafeRhythmMsec", Tactics, Flat, 100.0..=3000.0, [400.0, 400.0, 400.0, 400.0, 400.0],
        "Base interval between strafe direction changes, ms.";
    strafe_rhythm_variance_msec: "strafeRhythmVarianceMsec", Tactics, Flat, 0.0..=3000.0, [800.0, 800.0, 800.0, 800.0, 800.0],
        "Random extra on the strafe interval, ms.";
    weapon_switch_msec: "weaponSwitchMsec", Tactics, Flat, 100.0..=3000.0, [500.0, 500.0, 500.0, 500.0, 500.0],
        "Interval between weapon re-evaluations, ms.";
    investigate_range: "investigateRange", Tactics, Flat, 0.0..=4096.0, [1600.0, 1600.0, 1600.0, 1600.0, 1600.0],
        "Farthest noise or report the bot may go to look into, units (an ambusher keeps it short).";
    teamwork: "teamwork", Tactics, Flat, 0.0..=1.0, [0.85, 0.85, 0.85, 0.85, 0.85],
        "Chance to take a teammate's order (rolled per order) and to pass on what it learns.";
    aim_height: "aimHeight", Tactics, Flat, -0.4..=0.4, [0.0, 0.0, 0.0, 0.0, 0.0],
        "Personal vertical aim bias, as a fraction of the target's height.";
    weapon_skill: "weaponSkill", Decisions, Up, 0.0..=1.0, [0.2, 0.38, 0.55, 0.75, 0.92],
        "Chance of a range-correct weapon choice; also raises the aim point.";
    target_selection: "targetSelection", Decisions, Up, 0.0..=1.0, [0.25, 0.4, 0.55, 0.72, 0.88],
        "Chance per engagement of choosing the best-scored enemy rather than the nearest.";
    chatiness: "chatiness", Chat, Flat, 0.0..=1.0, [0.5, 0.5, 0.5, 0.5, 0.5],
        "Chance that an event or a reply produces a chat line.";
    chat_delay_scale: "chatDelayScale", Chat, Shaped, 0.1..=5.0, [1.6, 1.35, 1.1, 0.9, 0.75],
        "Multiplier on the whole typing delay.";
}

impl TraitRow {
    /// The value at a (possibly fractional) skill level, interpolated and clamped.
    pub fn at(&self, level: f32) -> f32 {
        let level = if level.is_nan() {
            MIN_SKILL
        } else {
            level.clamp(MIN_SKILL, MAX_SKILL)
        };
        // Lower row index 0..=3; a level of exactly 5 lands on row 5 with fraction 1.
        let lower = ((level.floor() as usize).saturating_sub(1)).min(SKILL_LEVELS - 2);
        let frac = (level - (lower as f32 + 1.0)).clamp(0.0, 1.0);
        let (a, b) = (self.levels[lower], self.levels[lower + 1]);
        self.clamp(a + (b - a) * frac)
    }

    /// `v` within the row's range; NaN becomes the minimum.
    pub fn clamp(&self, v: f32) -> f32 {
        if v.is_nan() {
            self.min
        } else {
            v.clamp(self.min, self.max)
        }
    }
}

impl Traits {
    /// The plain skill curve at `level` (1..=5, fractional allowed; out of
    /// range and NaN are clamped).
    pub fn at_skill(level: f32) -> Self {
        let mut t = Self::ZERO;
        for row in SKILL_TABLE {
            (row.set)(&mut t, row.at(level));
        }
        t
    }

    /// Clamps every field to its range (NaN to the minimum). Content layers
    /// call this after applying their statements.
    pub fn clamp_all(&mut self) {
        for row in SKILL_TABLE {
            let v = row.clamp((row.get)(self));
            (row.set)(self, v);
        }
        if self.burst_max_msec < self.burst_min_msec {
            self.burst_max_msec = self.burst_min_msec;
        }
    }

    /// The row of a trait by content name (case-insensitive).
    pub fn row(name: &str) -> Option<&'static TraitRow> {
        SKILL_TABLE.iter().find(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// Reads a trait by content name.
    pub fn get(&self, name: &str) -> Option<f32> {
        Self::row(name).map(|r| (r.get)(self))
    }

    /// Writes a trait by content name, clamped; `false` for an unknown name.
    pub fn set(&mut self, name: &str, value: f32) -> bool {
        let Some(r) = Self::row(name) else { return false };
        (r.set)(self, r.clamp(value));
        true
    }

    /// Half-angle of the fire gate after initiative scaling, degrees.
    pub fn effective_fire_cone_deg(&self) -> f32 {
        self.fire_cone_deg * (0.5 + self.initiative)
    }

    /// Half-angle of the fire gate for a target of `radius` units at
    /// `distance`, degrees: its angular radius times `fireGateScale` and
    /// initiative, at least [`MIN_FIRE_GATE_DEG`], at most the effective
    /// `fireConeDeg`. A farther target is a smaller gate.
    pub fn fire_gate_deg(&self, distance: f32, radius: f32) -> f32 {
        let angular = (radius.max(0.0) / distance.max(1.0)).atan().to_degrees();
        let gate = angular * self.fire_gate_scale * (0.5 + self.initiative);
        gate.clamp(MIN_FIRE_GATE_DEG, self.effective_fire_cone_deg().max(MIN_FIRE_GATE_DEG))
    }

    /// The slew rate above which the bot holds fire, after initiative, degrees/s.
    pub fn effective_hold_fire_rate(&self) -> f32 {
        self.hold_fire_turn_rate * (0.5 + self.initiative)
    }

    /// Time on target before firing, after initiative, ms.
    pub fn effective_settle_msec(&self) -> f32 {
        self.aim_settle_msec * (2.0 - 2.0 * self.initiative)
    }

    /// Multiplier on reaction delays from initiative.
    pub fn reaction_scale(&self) -> f32 {
        (1.5 - self.initiative).max(0.0)
    }

    /// How old the noticed enemies are that the bot acts on (the reaction
    /// ring's lag), ms: half the base reaction; the rest of the reaction
    /// delay is paid before the first shot.
    pub fn attention_lag_ms(&self) -> f32 {
        0.5 * self.reaction_msec * self.reaction_scale()
    }

    /// How long an unseen enemy is remembered, ms.
    pub fn enemy_memory_msec(&self) -> f32 {
        3000.0 * (0.5 + self.pursuit)
    }

    /// Radius in which items are considered, units.
    pub fn item_search_radius(&self) -> f32 {
        2500.0 * (0.5 + self.item_focus)
    }
}

/// The skill a bot plays at: `level` moved by `variance` times the bot's
/// own roll `unit` (in -1..=1, fixed for the bot's life), clamped to 1..=5.
pub fn effective_skill(level: f32, variance: f32, unit: f32) -> f32 {
    let level = if level.is_finite() { level } else { 3.0 };
    let variance = if variance.is_finite() {
        variance.clamp(0.0, 2.0)
    } else {
        0.0
    };
    (level + unit.clamp(-1.0, 1.0) * variance).clamp(MIN_SKILL, MAX_SKILL)
}

/// Parses a skill level as typed (`addbot Name 2.5`): a number in 1..=5.
pub fn parse_skill(text: &str) -> Option<f32> {
    let v: f32 = text.trim().parse().ok()?;
    (v.is_finite() && (MIN_SKILL..=MAX_SKILL).contains(&v)).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCURACY: [&str; 32] = [
        "sightRange",
        "fov",
        "reactionMsec",
        "reactionVarianceMsec",
        "reacquireMsec",
        "reacquireFraction",
        "peripheralAngle",
        "peripheralPenaltyMsec",
        "noticeChance",
        "turnSpeed",
        "turnAccel",
        "turnDamping",
        "aimTrackTimeConst",
        "aimTremorDeg",
        "aimTrackError",
        "aimSettleMsec",
        "aimLead",
        "aimLeadError",
        "aimErrorDeg",
        "aimCorrectMsec",
        "aimCorrectShare",
        "aimPursuitError",
        "aimRetargetMsec",
        "aimSlack",
        "fireConeDeg",
        "fireGateScale",
        "holdFireTurnRate",
        "mistakeChance",
        "mistakeMsec",
        "dodgeReactMsec",
        "weaponSkill",
        "targetSelection",
    ];
    const FLAT: [&str; 13] = [
        "combatRange",
        "aggression",
        "patience",
        "targetStickiness",
        "opportunism",
        "vengefulness",
        "strafeRhythmMsec",
        "strafeRhythmVarianceMsec",
        "weaponSwitchMsec",
        "aimHeight",
        "investigateRange",
        "teamwork",
        "chatiness",
    ];

    #[test]
    fn table_has_58_unique_rows_inside_their_ranges() {
        assert_eq!(SKILL_TABLE.len(), 58);
        let mut names: Vec<&str> = SKILL_TABLE.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 58, "duplicate trait names");
        for r in SKILL_TABLE {
            assert!(r.min < r.max, "{}", r.name);
            for v in r.levels {
                assert!(
                    (r.min..=r.max).contains(&v),
                    "{} level {v} outside {}..={}",
                    r.name,
                    r.min,
                    r.max
                );
            }
        }
    }

    #[test]
    fn get_and_set_reach_their_own_field() {
        // Writing a distinct value through each row and reading all rows back
        // proves every row maps to its own field.
        let mut t = Traits::ZERO;
        for (i, r) in SKILL_TABLE.iter().enumerate() {
            (r.set)(&mut t, i as f32 + 0.5);
        }
        for (i, r) in SKILL_TABLE.iter().enumerate() {
            assert_eq!((r.get)(&t), i as f32 + 0.5, "{}", r.name);
        }
    }

    #[test]
    fn flat_traits_stay_flat() {
        for name in FLAT {
            let r = Traits::row(name).expect("flat trait exists");
            assert_eq!(r.shape, TraitShape::Flat, "{name}");
        }
        for r in SKILL_TABLE.iter().filter(|r| r.shape == TraitShape::Flat) {
            assert!(FLAT.contains(&r.name), "{} is flat but not listed", r.name);
            assert!(r.levels.iter().all(|&v| v == r.levels[0]), "{} varies", r.name);
            for s in [1.0, 1.7, 2.5, 3.3, 4.9, 5.0] {
                assert_eq!(r.at(s), r.levels[0], "{} at {s}", r.name);
            }
        }
    }

    #[test]
    fn accuracy_traits_improve_strictly_and_through_fractions() {
        for name in ACCURACY {
            let r = Traits::row(name).expect("accuracy trait exists");
            assert!(
                matches!(r.shape, TraitShape::Up | TraitShape::Down),
                "{name} has shape {:?}",
                r.shape
            );
        }
        for r in SKILL_TABLE
            .iter()
            .filter(|r| matches!(r.shape, TraitShape::Up | TraitShape::Down))
        {
            assert!(ACCURACY.contains(&r.name), "{} is pinned but not listed", r.name);
            let better = |a: f32, b: f32| if r.shape == TraitShape::Up { b > a } else { b < a };
            for w in r.levels.windows(2) {
                assert!(better(w[0], w[1]), "{} not strictly monotonic: {:?}", r.name, r.levels);
            }
            // Fractional levels move the same way.
            let mut prev = r.at(1.0);
            for step in 1..=40 {
                let s = 1.0 + step as f32 * 0.1;
                let v = r.at(s);
                assert!(better(prev, v), "{} at {s}: {prev} -> {v}", r.name);
                prev = v;
            }
        }
    }

    #[test]
    fn fractional_levels_interpolate_between_rows() {
        let r = Traits::row("reactionMsec").expect("row");
        assert_eq!(r.at(1.0), 460.0);
        assert_eq!(r.at(5.0), 140.0);
        assert!((r.at(2.5) - 355.0).abs() < 1e-3);
        assert!((r.at(4.25) - 200.0).abs() < 1e-3);
        assert_eq!(r.at(0.0), 460.0, "below 1 clamps");
        assert_eq!(r.at(9.0), 140.0, "above 5 clamps");
        assert_eq!(r.at(f32::NAN), 460.0);
        let t = Traits::at_skill(3.0);
        assert_eq!(t.sight_range, 2200.0);
        assert_eq!(t.aim_lead, 0.8);
    }

    #[test]
    fn derived_values_match_the_reference_table() {
        // Skill 1: cone 14 * 1.3, settle 240 * 0.4; skill 5: cone 2, settle 60.
        let s1 = Traits::at_skill(1.0);
        assert!((s1.effective_fire_cone_deg() - 18.2).abs() < 1e-3);
        assert!((s1.effective_settle_msec() - 96.0).abs() < 1e-3);
        let s5 = Traits::at_skill(5.0);
        assert!((s5.effective_fire_cone_deg() - 2.0).abs() < 1e-3);
        assert!((s5.effective_hold_fire_rate() - 220.0).abs() < 1e-3);
        assert!((s5.enemy_memory_msec() - 3900.0).abs() < 1e-2);
    }

    #[test]
    fn clamp_all_and_named_access() {
        let mut t = Traits::at_skill(3.0);
        t.fov = 1000.0;
        t.turn_speed = f32::NAN;
        t.burst_max_msec = 10.0;
        t.clamp_all();
        assert_eq!(t.fov, 360.0);
        assert_eq!(t.turn_speed, 20.0);
        assert_eq!(t.burst_max_msec, t.burst_min_msec);
        assert!(t.set("AIMLEAD", 9.0));
        assert_eq!(t.get("aimLead"), Some(1.5));
        assert!(!t.set("noSuchTrait", 1.0));
    }

    #[test]
    fn effective_skill_and_parsing() {
        assert_eq!(effective_skill(3.0, 0.0, 0.9), 3.0);
        assert_eq!(effective_skill(3.0, 1.0, -0.5), 2.5);
        assert_eq!(effective_skill(4.5, 2.0, 1.0), 5.0);
        assert_eq!(effective_skill(f32::NAN, f32::NAN, 0.0), 3.0);
        assert_eq!(parse_skill("2.5"), Some(2.5));
        assert_eq!(parse_skill("5"), Some(5.0));
        assert_eq!(parse_skill("6"), None);
        assert_eq!(parse_skill("hard"), None);
        assert_eq!(parse_skill("NaN"), None);
    }
}
