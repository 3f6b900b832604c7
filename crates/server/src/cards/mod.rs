//! Match cards: an authored ladder of matches (`config/cards/NAME.toml`)
//! that a player climbs on a live server and that doubles as a repeatable
//! benchmark of the bots when played headless.
//!
//! | file | what it does |
//! |---|---|
//! | [`manifest`] | the card: parse with spans, check maps, game types, limits, characters, teams and slots; file:line errors; the skill formula |
//! | [`progress`] | progression rules (open matches, the boss, the next tier, completion) and the per-player progress file, written atomically |
//! | [`outcome`] | the winner and a player's place, from a finished match's scoreboard |
//! | [`roster`] | a card match on a server: its settings as console commands, its bots through the bot manager |
//! | `crate::modes::card` | `card NAME --as CHARACTER`: every match headless with a bot standing in for the player, and the results table |
//! | [`live`] | `--card NAME --match T.M`: one match on a live server, waiting for its player, recording their result |
//! | [`commands`] | `g_cardDifficulty`, `cardinfo`, `cardreset` |
//!
//! A card fixes who plays and how well: each bot's character and skill
//! (tier base + `g_cardDifficulty` + its offset, clamped to 1-5), the map,
//! game type and limits, so the same card at the same difficulty is the
//! same challenge everywhere; the headless run also fixes every match's
//! seed (from `--seed`, default 0), so it replays exactly. What a card
//! leaves to the server's config (`bot_tactical`, `g_friendlyFire`, tick
//! rate, ...) is the operator's, as in any match.
//!
//! What this module must not do: contain game rules (the match is an
//! ordinary match, its bots ordinary bots added the way `addbot` adds them),
//! or block the tick thread on the progress file (a live result is written
//! on a thread of its own; shutdown waits for it).

pub mod commands;
pub mod live;
pub mod manifest;
pub mod outcome;
pub mod progress;
pub mod roster;


pub use commands::register;
pub use manifest::{Card, CardContext, CardError, CardMatch, CardProblem, MatchId, effective_skill};
pub use progress::{MatchStatus, Progress, ProgressBook, ProgressError, ProgressStore};

/// The characters under a botfiles directory, as the cards name them.
pub fn character_names(botfiles: &std::path::Path) -> Vec<String> {
    let (content, _warnings) = quarry_bots::load_botfiles(botfiles);
    content.characters.iter().map(|c| c.name.clone()).collect()
}
