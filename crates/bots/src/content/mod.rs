//! What a bot is like: the resolved trait set each bot plays with.
//!
//! Resolution happens once per life (so a changed `bot_skill` lands on the
//! next spawn) through a [`TraitSource`]. The built-in source is the plain
//! skill curve ([`SkillCurve`], `skill.rs`). Styles and characters from
//! `botfiles/` (`files.rs`: grammar, loader, resolution order) plug in as
//! [`ContentTraitSource`] (`source.rs`: character picking; `load.rs`: reading
//! the directories; `limits.rs`: how much is read), which starts from
//! the curve and biases it. Chat banks (`botfiles/chats/*.chat`) load with
//! the rest into [`Content::chats`] and are joined to characters by name;
//! the grammar and the chat logic live in [`crate::chat`]. Every other
//! layer reads only the resolved [`Resolved`].

pub mod files;
pub(crate) mod lex;
pub mod limits;
mod load;
pub mod skill;
pub mod source;

pub use files::{Character, Content, Layer, Op, Stmt, Style, Warning};
pub use load::{load_botfiles, load_botfiles_with};
pub(crate) use load::read_botfile_dir;
pub use source::{ContentError, ContentTraitSource, RosterRow};
pub use skill::{SKILL_TABLE, TraitGroup, TraitRow, TraitShape, Traits, effective_skill, parse_skill};

use quarry_sim::components::MAX_WEAPONS;

/// A per-weapon preference multiplier (1.0 neutral), by weapon number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeaponBias(pub [f32; MAX_WEAPONS]);

impl Default for WeaponBias {
    fn default() -> Self {
        Self([1.0; MAX_WEAPONS])
    }
}

impl WeaponBias {
    /// The bias of weapon `n` (1.0 for an unknown number).
    pub fn of(&self, n: u8) -> f32 {
        self.0.get(usize::from(n)).copied().unwrap_or(1.0)
    }
}

/// Who a bot is, as far as content resolution cares.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BotIdentity {
    /// Display name.
    pub name: String,
    /// The character it plays, if the content layer gave it one.
    pub character: Option<String>,
}

/// Everything a bot plays with for one life.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolved {
    /// The 57 traits.
    pub traits: Traits,
    /// Weapon preferences.
    pub weapon_bias: WeaponBias,
}

/// Turns a bot's identity and effective skill into its traits for one life.
pub trait TraitSource: Send + Sync {
    /// The traits of `who` at `skill` (1..=5, fractional allowed).
    fn resolve(&self, who: &BotIdentity, skill: f32) -> Resolved;

    /// The bot `who` left: free whatever it held (its character). The
    /// plain curve holds nothing.
    fn release(&self, _who: &BotIdentity) {}

    /// The character bot `who` plays, if the source gave it one (for
    /// `botlist` and `botcharacters`).
    fn character_of(&self, _who: &BotIdentity) -> Option<String> {
        None
    }
}

/// The plain skill curve: a complete bot with no style or character.
#[derive(Debug, Clone, Copy, Default)]
pub struct SkillCurve;

impl TraitSource for SkillCurve {
    fn resolve(&self, _who: &BotIdentity, skill: f32) -> Resolved {
        Resolved {
            traits: Traits::at_skill(skill),
            weapon_bias: WeaponBias::default(),
        }
    }
}

#[cfg(test)]
mod tests;
