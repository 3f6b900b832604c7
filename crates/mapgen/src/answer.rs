//! A generated map's answer: each goal, whether bots should reach it, and
//! through which mechanisms in order.

use serde::Serialize;

/// Whether a goal is meant to be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Expect {
    /// Reachable by design, by what bots are expected to do.
    Reachable,
    /// Reachable only by a trick bots are not expected to do (a rocket jump).
    Trick,
    /// Unreachable: nothing leads there.
    Unreachable,
}

/// One step a player takes on the way to a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mechanism {
    /// Presses a button by walking into it.
    Button,
    /// Presses a button by shooting it.
    ShootButton,
    /// Walks into a trigger volume.
    Trigger,
    /// What fires goes through a relay (with a delay).
    Relay,
    /// A counter that fires after several buttons.
    Counter,
    /// Picks up a key and opens its door.
    Key,
    /// Shoots a door open.
    ShootDoor,
    /// Crouches through a low passage.
    Crouch,
    /// Rides a lift.
    Lift,
    /// Takes a teleporter.
    Teleporter,
    /// Walks up more than a jump: a flight of stairs or a ramp.
    Climb,
    /// Jumps: up onto a ledge higher than a step, or across a gap.
    Jump,
    /// Swims, or walks under water.
    Swim,
    /// Is thrown by a jump pad.
    JumpPad,
    /// Drops off a ledge too high to climb back.
    Drop,
}

/// One goal of a map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Goal {
    /// The item's class.
    pub class: String,
    /// Where the map places it.
    pub origin: [i32; 3],
    /// Whether bots should reach it.
    pub expect: Expect,
    /// The mechanisms on the way from the spawn points, in order.
    pub via: Vec<Mechanism>,
}

/// What a generated map asks and its answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The map's name.
    pub map: String,
    /// The part it was built around.
    pub part: String,
    /// The seed it was built from.
    pub seed: u64,
    /// Its goals.
    pub goals: Vec<Goal>,
}
