//! Content files: `botfiles/styles/*.style` and `botfiles/characters/*.bot`.
//!
//! Plain-text brace blocks, one statement per line:
//!
//! ```text
//! style "rusher" {
//!     description "Closes in fast and fires early."
//!     set combatRange 220        // a trait, named as in SKILL_TABLE
//!     scale fireConeDeg 1.3
//!     add initiative 0.3
//!     weapon "shotgun" 1.9       // weapon name or pickup class, bias 0..100
//!     skill 1 { scale combatRange 1.5 }
//! }
//! character "Tamsin" {
//!     description "..."
//!     inherit "rusher"           // or: style "rusher"
//!     skillBand 3 5
//!     weight 1
//!     model "sarge"
//!     set aggression 0.9
//! }
//! ```
//!
//! Trait names come from [`SKILL_TABLE`](super::SKILL_TABLE) alone: a new
//! row there is a new statement target here, with no parser change.
//!
//! Nothing is fatal. An unknown key, trait or style, a bad number, a value
//! out of range, a stray brace: each warns with file and line and skips
//! the smallest unit (the statement, or the block a bad `skill` opens).
//! Past the caps of [`limits`](super::limits) (definitions per file and in
//! all, statements per file) the rest is skipped with one warning.
//! Reading the directories is `load.rs`; the lexer, shared with the chat
//! files, is `lex.rs`.
//!
//! | file | holds |
//! |---|---|
//! | `model.rs` | what a file becomes: [`Content`], [`Style`], [`Character`], [`Layer`], [`Stmt`], [`Warning`], and resolution |
//! | `checks.rs` | [`Content::finish`]: references checked once every file is in |
//! | `parse.rs` | the statement parser over the shared lexer ([`Content::add_text`]) |

mod checks;
mod model;
mod parse;

pub use model::{
    Character, Content, Layer, MAX_INHERIT_DEPTH, MAX_SCALE, MAX_WEAPON_BIAS, MAX_WEAPONS_PER_LAYER, Op, Stmt, Style, Warning,
    skill_block, weapon_key, weapon_number,
};
