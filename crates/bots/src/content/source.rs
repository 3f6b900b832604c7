//! [`ContentTraitSource`]: styles and characters from `botfiles/` as a
//! [`TraitSource`].
//!
//! Each bot (by name) is bound to one character the first time its traits
//! are resolved, and keeps it for later lives. The pick prefers an unused
//! character whose skill band holds the bot's rounded skill, then any
//! character whose band holds it, then anyone, so a full roster never stops
//! a bot being added. Within a pass the pick is by `weight` (weight 0 never
//! appears) with an RNG seeded from the source seed and the bot's name,
//! so a match replays exactly.

use std::path::Path;
use std::sync::Mutex;

use quarry_sim::weapons::WeaponTable;

use super::files::{Character, Content, Warning, skill_block, weapon_number};
use super::load::load_botfiles_with;
use super::{BotIdentity, Resolved, TraitSource, WeaponBias};
use crate::rng::{BotRng, mix64};

/// Styles and characters as a trait source.
pub struct ContentTraitSource {
    content: Content,
    weapons: WeaponTable,
    seed: u64,
    /// (bot name, character index), one per bound bot.
    bound: Mutex<Vec<(String, usize)>>,
    /// `bot_forceCharacter`: every new bot plays this one, if it exists.
    forced: Mutex<Option<String>>,
}

/// One row of `botcharacters`.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterRow {
    /// Character name.
    pub name: String,
    /// Its style, if any.
    pub style: Option<String>,
    /// Its skill band.
    pub band: (u8, u8),
    /// Its pick weight.
    pub weight: f32,
    /// The bots wearing it.
    pub worn_by: Vec<String>,
}

impl std::fmt::Debug for ContentTraitSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContentTraitSource")
            .field("styles", &self.content.styles.len())
            .field("characters", &self.content.characters.len())
            .finish_non_exhaustive()
    }
}

/// Why content could not be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    /// Neither `styles/` nor `characters/` could be read under the directory.
    #[error("no bot content under {0}")]
    NoContent(String),
}

impl ContentTraitSource {
    /// A source over already loaded content, checking weapons against the
    /// stock table.
    pub fn new(content: Content) -> Self {
        Self {
            content,
            weapons: WeaponTable::default(),
            seed: 0,
            bound: Mutex::new(Vec::new()),
            forced: Mutex::new(None),
        }
    }

    /// Sets or clears the forced character (`bot_forceCharacter`): it
    /// applies to bots bound from now on, regardless of band or use; an
    /// unknown name falls back to the normal pick.
    pub fn set_forced(&self, name: Option<&str>) {
        *self.forced.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            name.filter(|n| !n.trim().is_empty()).map(str::to_owned);
    }

    /// Every character with style, band, weight and who wears it.
    pub fn roster(&self) -> Vec<RosterRow> {
        let bound = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.content
            .characters
            .iter()
            .enumerate()
            .map(|(i, c)| RosterRow {
                name: c.name.clone(),
                style: c.style.clone(),
                band: c.band,
                weight: c.weight,
                worn_by: bound.iter().filter(|b| b.1 == i).map(|b| b.0.clone()).collect(),
            })
            .collect()
    }

    /// A source over freshly loaded `content` (`botreload`) that keeps
    /// this one's seed, weapon table, forced name and every binding whose
    /// character name survives; bots whose character vanished are unbound
    /// and pick again on their next life.
    pub fn reloaded(&self, content: Content) -> Self {
        let old = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let bound = old
            .iter()
            .filter_map(|(bot, i)| {
                let name = &self.content.characters.get(*i)?.name;
                let j = content.characters.iter().position(|c| c.name.eq_ignore_ascii_case(name))?;
                Some((bot.clone(), j))
            })
            .collect();
        let forced = self.forced.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        Self {
            content,
            weapons: self.weapons.clone(),
            seed: self.seed,
            bound: Mutex::new(bound),
            forced: Mutex::new(forced),
        }
    }

    /// Loads `dir` (see [`load_botfiles`](super::load::load_botfiles)),
    /// logging every warning; fails only when no character at all was
    /// loaded, so the caller can keep the plain skill curve.
    pub fn load(dir: &Path) -> Result<Self, ContentError> {
        let table = WeaponTable::default();
        let (content, warnings) = load_botfiles_with(dir, &table);
        log_warnings(&warnings);
        if content.characters.is_empty() {
            return Err(ContentError::NoContent(dir.display().to_string()));
        }
        Ok(Self::new(content))
    }

    /// Uses `seed` (the match seed) for character picks.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Maps weapon names through `table` instead of the stock one.
    pub fn with_weapons(mut self, table: WeaponTable) -> Self {
        self.weapons = table;
        self
    }

    /// The loaded content.
    pub fn content(&self) -> &Content {
        &self.content
    }

    /// The character bot `bot` plays, if it has been bound.
    pub fn character_of(&self, bot: &str) -> Option<&Character> {
        let bound = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let i = bound.iter().find(|(b, _)| b.eq_ignore_ascii_case(bot)).map(|(_, i)| *i)?;
        self.content.characters.get(i)
    }

    /// The chat bank of the character bot `bot` plays, if any.
    pub fn chat_bank(&self, bot: &str) -> Option<&crate::chat::ChatBank> {
        let name = self.character_of(bot)?.name.as_str();
        self.content.chat_bank(name)
    }

    /// Chooses the character of a bot about to join, before it has a name:
    /// `bot_forceCharacter` if it names a character; else `requested` if a
    /// character of that name exists and no bot wears it; else (no request)
    /// a pick by band, use and weight among characters whose name
    /// `name_taken` does not report as in use on the server (so the bot can
    /// take the character's name). `None`: nothing suitable; the bot is
    /// bound at its first life as usual.
    pub fn choose(&self, requested: Option<&str>, skill: f32, seed: u64, name_taken: &dyn Fn(&str) -> bool) -> Option<String> {
        let chars = &self.content.characters;
        let forced = self.forced.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        if let Some(c) = forced.and_then(|f| self.content.character(&f)) {
            return Some(c.name.clone());
        }
        let bound = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let in_use: Vec<usize> = bound.iter().map(|b| b.1).collect();
        drop(bound);
        if let Some(want) = requested {
            let i = chars.iter().position(|c| c.name.eq_ignore_ascii_case(want))?;
            return (!in_use.contains(&i)).then(|| chars[i].name.clone());
        }
        // Characters whose name someone already has count as in use, and
        // are left out altogether (the bot is to be named after its pick).
        let blocked: Vec<usize> = (0..chars.len()).filter(|&i| name_taken(&chars[i].name)).collect();
        let mut rng = BotRng::from_seed(mix64(self.seed ^ seed));
        let i = self.pick_excluding(skill, &in_use, &blocked, &mut rng)?;
        chars.get(i).map(|c| c.name.clone())
    }

    /// Frees the character of bot `bot` (call when the bot leaves).
    pub fn release(&self, bot: &str) {
        let mut bound = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        bound.retain(|(b, _)| !b.eq_ignore_ascii_case(bot));
    }

    /// Picks a character index for a bot at `skill` given the characters
    /// already in use: unused in band, then in band, then anyone; by weight.
    pub fn pick(&self, skill: f32, in_use: &[usize], rng: &mut BotRng) -> Option<usize> {
        self.pick_excluding(skill, in_use, &[], rng)
    }

    /// [`ContentTraitSource::pick`] never choosing an index in `blocked`.
    pub fn pick_excluding(&self, skill: f32, in_use: &[usize], blocked: &[usize], rng: &mut BotRng) -> Option<usize> {
        let n = skill_block(skill);
        let chars = &self.content.characters;
        for pass in 0..3 {
            let allowed = |i: usize, c: &Character| !blocked.contains(&i) && match pass {
                0 => c.in_band(n) && !in_use.contains(&i),
                1 => c.in_band(n),
                _ => true,
            };
            let cands: Vec<(usize, f32)> = chars
                .iter()
                .enumerate()
                .filter(|(i, c)| c.weight > 0.0 && allowed(*i, c))
                .map(|(i, c)| (i, c.weight))
                .collect();
            let total: f32 = cands.iter().map(|c| c.1).sum();
            if total <= 0.0 {
                continue;
            }
            let mut r = rng.unit() * total;
            for &(i, w) in &cands {
                if r < w {
                    return Some(i);
                }
                r -= w;
            }
            return cands.last().map(|c| c.0);
        }
        None
    }

    fn bind(&self, who: &BotIdentity, skill: f32) -> Option<usize> {
        let chars = &self.content.characters;
        let mut bound = self.bound.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // An explicit character wins when it exists.
        if let Some(i) = who
            .character
            .as_ref()
            .and_then(|want| chars.iter().position(|c| c.name.eq_ignore_ascii_case(want)))
        {
            bound.retain(|(b, _)| !b.eq_ignore_ascii_case(&who.name));
            bound.push((who.name.clone(), i));
            return Some(i);
        }
        if let Some(&(_, i)) = bound.iter().find(|(b, _)| b.eq_ignore_ascii_case(&who.name)) {
            return Some(i);
        }
        let forced = self.forced.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        if let Some(i) = forced.and_then(|f| chars.iter().position(|c| c.name.eq_ignore_ascii_case(&f))) {
            bound.push((who.name.clone(), i));
            return Some(i);
        }
        let in_use: Vec<usize> = bound.iter().map(|b| b.1).collect();
        let mut rng = BotRng::from_seed(mix64(self.seed ^ name_hash(&who.name)));
        let i = self.pick(skill, &in_use, &mut rng)?;
        bound.push((who.name.clone(), i));
        Some(i)
    }
}

/// FNV-1a of the lower-cased name.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Logs content warnings through `tracing`.
pub fn log_warnings(warnings: &[Warning]) {
    for w in warnings {
        tracing::warn!(target: "quarry_bots", "bot content: {w}");
    }
}

impl TraitSource for ContentTraitSource {
    fn resolve(&self, who: &BotIdentity, skill: f32) -> Resolved {
        let character = self.bind(who, skill).and_then(|i| self.content.characters.get(i));
        let (traits, prefs) = self.content.resolve(character, skill);
        let mut weapon_bias = WeaponBias::default();
        for (name, bias) in prefs {
            if let Some(slot) = weapon_number(&self.weapons, &name).and_then(|n| weapon_bias.0.get_mut(usize::from(n))) {
                *slot = bias;
            }
        }
        Resolved { traits, weapon_bias }
    }

    fn release(&self, who: &BotIdentity) {
        ContentTraitSource::release(self, &who.name);
    }

    fn character_of(&self, who: &BotIdentity) -> Option<String> {
        ContentTraitSource::character_of(self, &who.name).map(|c| c.name.clone())
    }
}
