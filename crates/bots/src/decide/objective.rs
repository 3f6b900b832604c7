//! The objective API: what a game-type layer ([`crate::objective`]) offers
//! goal selection, and how urgent it is.

use glam::Vec3;
use quarry_sim::SlotId;

use crate::navigate::Navigator;
use crate::view::{BotView, PlayerSnap};

/// An objective at or above this priority overrides commitments.
pub const URGENT_OBJECTIVE: f32 = 85.0;
/// An objective below this priority is a suggestion: chasing a seen enemy
/// may beat it (Clan Arena's regrouping); at or above it, a bot chases
/// nobody and fights on the way (the objective overrides the chase).
pub const SOFT_OBJECTIVE: f32 = 45.0;

/// A mode objective offered by a game-type layer (issue 9 plugs in here).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Objective {
    /// The provider's key for it (stable while it is the same objective).
    pub key: u32,
    /// Where to go.
    pub origin: Vec3,
    /// Urgency 0..=100 (capturing 100, defending ~54).
    pub priority: f32,
    /// Stay within this radius once there (defend, hold a zone).
    pub hold_radius: Option<f32>,
}

/// Gives a bot its objective for the current game type, if any (see
/// [`crate::objective`] for the game types' providers).
pub trait ObjectiveProvider: Send + Sync {
    /// Once per tick before any bot thinks: plans the teams' roles from the
    /// view. `bots` are the slots bots hold (the role players; humans are
    /// never assigned). Default: nothing to plan.
    fn plan(&mut self, _view: &BotView<'_>, _bots: &[SlotId], _nav: &mut dyn Navigator) {}

    /// The one objective `me` should pursue now.
    fn objective(&self, view: &BotView<'_>, me: &PlayerSnap) -> Option<Objective>;

    /// One line for `botlist`: what objective play is on.
    fn describe(&self) -> String {
        "objective: custom provider".to_owned()
    }

    /// The objective figures of the match so far.
    fn report(&self) -> Option<crate::objective::ObjectiveReport> {
        None
    }

    /// The role the bot in `slot` plays this tick (`attack`, `defend`,
    /// `carrier`...), for views of its mind. Default: none.
    fn role(&self, _slot: SlotId) -> Option<&'static str> {
        None
    }
}
