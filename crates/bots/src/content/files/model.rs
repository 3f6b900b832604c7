//! The content model: styles, characters and their statement layers, the
//! loaded [`Content`] and how a bot's traits resolve from it. Parsing is
//! `parse.rs`, the reference checks `checks.rs`.

use std::fmt;

use quarry_sim::weapons::WeaponTable;

use crate::content::skill::{MAX_SKILL, MIN_SKILL, SKILL_LEVELS, TraitRow, Traits};

/// Most weapon entries one layer may hold.
pub const MAX_WEAPONS_PER_LAYER: usize = 16;
/// Longest `inherit` chain of styles followed.
pub const MAX_INHERIT_DEPTH: usize = 8;
/// Largest allowed weapon bias.
pub const MAX_WEAPON_BIAS: f32 = 100.0;
/// Largest allowed `scale` factor.
pub const MAX_SCALE: f32 = 100.0;

/// A problem found while loading content, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The file (as given to the loader).
    pub file: String,
    /// 1-based line; 0 for a whole-file problem.
    pub line: u32,
    /// What is wrong and what was done about it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// How a statement changes a trait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `set`: replace.
    Set,
    /// `add`: add (negative subtracts).
    Add,
    /// `scale`: multiply.
    Scale,
}

/// One `set`/`add`/`scale` statement.
#[derive(Debug, Clone, Copy)]
pub struct Stmt {
    /// The trait's table row.
    pub row: &'static TraitRow,
    /// What it does.
    pub op: Op,
    /// Its operand.
    pub value: f32,
}

impl Stmt {
    /// Applies the statement to `t`, clamping the trait to its range at
    /// once; a NaN result leaves the trait unchanged.
    pub fn apply(&self, t: &mut Traits) {
        let old = (self.row.get)(t);
        let new = match self.op {
            Op::Set => self.value,
            Op::Add => old + self.value,
            Op::Scale => old * self.value,
        };
        if !new.is_nan() {
            (self.row.set)(t, self.row.clamp(new));
        }
    }
}

/// The statements of one style or character.
#[derive(Debug, Clone, Default)]
pub struct Layer {
    /// Body statements, in file order.
    pub body: Vec<Stmt>,
    /// `skill n { ... }` statements, index n - 1.
    pub skill: [Vec<Stmt>; SKILL_LEVELS],
    /// Weapon preferences: (name as written, bias); a repeat replaces.
    pub weapons: Vec<(String, f32)>,
}

impl Layer {
    /// Applies the body then the block of rounded level `n` (1..=5).
    pub fn apply(&self, t: &mut Traits, n: usize) {
        for s in &self.body {
            s.apply(t);
        }
        if let Some(block) = self.skill.get(n.wrapping_sub(1)) {
            for s in block {
                s.apply(t);
            }
        }
    }

    /// Merges this layer's weapon preferences into `into` by name.
    pub fn merge_weapons(&self, into: &mut Vec<(String, f32)>) {
        for (name, bias) in &self.weapons {
            let key = weapon_key(name);
            match into.iter_mut().find(|(n, _)| weapon_key(n) == key) {
                Some(e) => e.1 = *bias,
                None => into.push((name.clone(), *bias)),
            }
        }
    }
}

/// A play style: what a bot wants, never how well it does it.
#[derive(Debug, Clone)]
pub struct Style {
    /// Name (`rusher`), matched case-insensitively.
    pub name: String,
    /// One line of prose.
    pub description: String,
    /// Parent style, if any (dropped at load if unknown or cyclic).
    pub inherit: Option<String>,
    /// Its statements.
    pub layer: Layer,
}

/// A character: a named personality on top of a style.
#[derive(Debug, Clone)]
pub struct Character {
    /// Display name (`Tamsin`), matched case-insensitively.
    pub name: String,
    /// One line of prose.
    pub description: String,
    /// Its style (dropped at load if unknown).
    pub style: Option<String>,
    /// Skill levels it prefers, inclusive, within 1..=5.
    pub band: (u8, u8),
    /// Relative chance to be picked; 0 never.
    pub weight: f32,
    /// Player model.
    pub model: String,
    /// A scripted brain it plays with (`botfiles/brains/NAME.rhai`), if
    /// not the native one.
    pub brain: Option<String>,
    /// Its own statements.
    pub layer: Layer,
}

impl Character {
    /// Whether rounded level `n` is inside the band.
    pub fn in_band(&self, n: u8) -> bool {
        (self.band.0..=self.band.1).contains(&n)
    }
}

/// Every loaded style, character and chat bank.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Styles, in load order.
    pub styles: Vec<Style>,
    /// Characters, in load order.
    pub characters: Vec<Character>,
    /// Chat banks, one per character at most, in load order.
    pub chats: Vec<crate::chat::ChatBank>,
}

/// The rounded skill level used for `skill n` blocks and bands (1..=5).
pub fn skill_block(skill: f32) -> u8 {
    let s = if skill.is_nan() { MIN_SKILL } else { skill.clamp(MIN_SKILL, MAX_SKILL) };
    (s + 0.5).floor() as u8
}

/// A weapon name compared loosely: lower case, without `_`, `-` or spaces
/// (`rocketlauncher` and `rocket_launcher` are one weapon).
pub fn weapon_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The number of weapon `name` in `table`: by table name, then by pickup class.
pub fn weapon_number(table: &WeaponTable, name: &str) -> Option<u8> {
    let key = weapon_key(name);
    table
        .iter()
        .find(|d| weapon_key(&d.name) == key)
        .or_else(|| table.weapon_for_class(name))
        .or_else(|| table.weapon_for_class(&format!("weapon_{key}")))
        .map(|d| d.number)
}

impl Content {
    /// A style by name (case-insensitive).
    pub fn style(&self, name: &str) -> Option<&Style> {
        self.styles.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// A character by name (case-insensitive).
    pub fn character(&self, name: &str) -> Option<&Character> {
        self.characters.iter().find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The style chain of `style`, root ancestor first.
    pub fn style_chain(&self, style: &str) -> Vec<&Style> {
        let mut chain = Vec::new();
        let mut next = self.style(style);
        while let Some(s) = next {
            if chain.len() > MAX_INHERIT_DEPTH || chain.iter().any(|c: &&Style| std::ptr::eq(*c, s)) {
                break;
            }
            chain.push(s);
            next = s.inherit.as_deref().and_then(|p| self.style(p));
        }
        chain.reverse();
        chain
    }

    /// The traits and merged weapon preferences of `character` (or of the
    /// plain curve for `None`) at effective `skill`: baseline, then each
    /// style (root first) body and `skill n` block, then the character
    /// body and `skill n` block; every statement clamps at once.
    pub fn resolve(&self, character: Option<&Character>, skill: f32) -> (Traits, Vec<(String, f32)>) {
        let mut t = Traits::at_skill(skill);
        let n = usize::from(skill_block(skill));
        let mut weapons = Vec::new();
        if let Some(c) = character {
            if let Some(style) = &c.style {
                for s in self.style_chain(style) {
                    s.layer.apply(&mut t, n);
                    s.layer.merge_weapons(&mut weapons);
                }
            }
            c.layer.apply(&mut t, n);
            c.layer.merge_weapons(&mut weapons);
        }
        t.clamp_all();
        (t, weapons)
    }
}
