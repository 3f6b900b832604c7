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

use std::collections::HashMap;
use std::fmt;

use quarry_sim::weapons::WeaponTable;

use super::lex::{Tok, Token, lex, text};
use super::limits::{MAX_CHARACTERS, MAX_CHARACTERS_PER_FILE, MAX_STATEMENTS_PER_FILE, MAX_STYLES, MAX_STYLES_PER_FILE};
use super::skill::{MAX_SKILL, MIN_SKILL, SKILL_LEVELS, TraitRow, Traits};

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

    /// Parses one file's text (`file` names it in warnings) and adds its
    /// styles and characters; call [`Content::finish`] after the last file.
    pub fn add_text(&mut self, file: &str, text: &str, warnings: &mut Vec<Warning>) {
        self.parse_file(file, text, warnings);
    }

    /// [`Content::add_text`], returning the opening line of each accepted
    /// definition: styles, then characters, in the order they were added.
    pub(crate) fn parse_file(&mut self, file: &str, text: &str, warnings: &mut Vec<Warning>) -> Vec<u32> {
        let toks = lex(file, text, warnings);
        let mut p = Parser { toks: &toks, pos: 0, file, warnings, statements: 0, stopped: false, capped: [false; 2] };
        p.top(self)
    }

    /// Checks references once everything is loaded: a style's unknown,
    /// cyclic or too deep parent is dropped, a character's unknown style is
    /// dropped, and every weapon name must be in `table`.
    ///
    /// Styles are checked in load order and a dropped parent is seen by the
    /// styles checked after it. Each check walks at most
    /// [`MAX_INHERIT_DEPTH`] + 1 parents through a name index, so the whole
    /// pass is linear in the number of styles.
    pub fn finish(&mut self, table: &WeaponTable, warnings: &mut Vec<Warning>, origin: &dyn Fn(&str) -> (String, u32)) {
        let mut index: HashMap<String, usize> = HashMap::with_capacity(self.styles.len());
        for (i, s) in self.styles.iter().enumerate() {
            index.entry(s.name.to_lowercase()).or_insert(i);
        }
        for i in 0..self.styles.len() {
            let Some(parent) = self.styles[i].inherit.as_deref() else { continue };
            let name = &self.styles[i].name;
            let why = match index.get(&parent.to_lowercase()) {
                None => Some(format!("style '{name}' inherits unknown style '{parent}'; parent dropped")),
                Some(&first) => {
                    // Walk up: a cycle through this style, or a chain too deep.
                    let mut cur = Some(first);
                    let mut depth = 0;
                    let mut bad = None;
                    while let Some(p) = cur {
                        depth += 1;
                        if self.styles[p].name.eq_ignore_ascii_case(name) {
                            bad = Some(format!("style '{name}' inherits itself (cycle); parent dropped"));
                            break;
                        }
                        if depth > MAX_INHERIT_DEPTH {
                            bad = Some(format!("style '{name}' has an inherit chain deeper than {MAX_INHERIT_DEPTH}; parent dropped"));
                            break;
                        }
                        cur = self.styles[p].inherit.as_deref().and_then(|n| index.get(&n.to_lowercase()).copied());
                    }
                    bad
                }
            };
            if let Some(message) = why {
                let (file, line) = origin(&format!("style:{}", self.styles[i].name));
                warnings.push(Warning { file, line, message });
                self.styles[i].inherit = None;
            }
        }
        for i in 0..self.characters.len() {
            let Some(style) = self.characters[i].style.clone() else { continue };
            if !index.contains_key(&style.to_lowercase()) {
                let (file, line) = origin(&format!("character:{}", self.characters[i].name));
                warnings.push(Warning {
                    file,
                    line,
                    message: format!("character '{}' uses unknown style '{style}'; plays the plain curve plus its own statements", self.characters[i].name),
                });
                self.characters[i].style = None;
            }
        }
        let check = |kind: &str, name: &str, layer: &mut Layer, warnings: &mut Vec<Warning>| {
            layer.weapons.retain(|(w, _)| {
                let ok = weapon_number(table, w).is_some();
                if !ok {
                    let (file, line) = origin(&format!("{kind}:{name}"));
                    warnings.push(Warning { file, line, message: format!("{kind} '{name}': unknown weapon '{w}'; skipped") });
                }
                ok
            });
        };
        for s in &mut self.styles {
            check("style", &s.name.clone(), &mut s.layer, warnings);
        }
        for c in &mut self.characters {
            check("character", &c.name.clone(), &mut c.layer, warnings);
        }
    }
}

// ---- parser ------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Style,
    Character,
    Skill,
}

/// A definition being parsed.
#[derive(Default)]
struct Def {
    description: Option<String>,
    inherit: Option<String>,
    band: Option<(u8, u8)>,
    weight: Option<f32>,
    model: Option<String>,
    layer: Layer,
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    file: &'a str,
    warnings: &'a mut Vec<Warning>,
    /// Statements read so far in this file.
    statements: usize,
    /// The statement cap was reached: the rest of the file is skipped.
    stopped: bool,
    /// The style and the character caps were reached (warned once each).
    capped: [bool; 2],
}


impl Parser<'_> {
    fn warn(&mut self, line: u32, message: String) {
        self.warnings.push(Warning { file: self.file.to_owned(), line, message });
    }

    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    /// The word and string tokens left on `line`.
    fn line_rest(&mut self, line: u32) -> Vec<Token> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if t.line != line || matches!(t.tok, Tok::Open | Tok::Close) {
                break;
            }
            out.push(t.clone());
            self.pos += 1;
        }
        out
    }

    /// Skips to the `}` matching an already consumed `{`.
    fn skip_block(&mut self) {
        let mut depth = 1usize;
        while let Some(t) = self.toks.get(self.pos) {
            self.pos += 1;
            match t.tok {
                Tok::Open => depth += 1,
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// Top level: `style "name" { ... }` and `character "name" { ... }`.
    /// Returns the opening line of each accepted definition, styles and
    /// characters in the order they were added.
    fn top(&mut self, content: &mut Content) -> Vec<u32> {
        let (mut style_lines, mut char_lines) = (Vec::new(), Vec::new());
        while let Some(t) = self.peek().cloned() {
            self.pos += 1;
            let line = t.line;
            let kind = match &t.tok {
                Tok::Word(w) if w.eq_ignore_ascii_case("style") => Some(Kind::Style),
                Tok::Word(w) if w.eq_ignore_ascii_case("character") => Some(Kind::Character),
                _ => None,
            };
            let args = self.line_rest(line);
            let opens = matches!(self.peek(), Some(Token { tok: Tok::Open, .. }));
            let Some(kind) = kind else {
                self.warn(line, format!("unknown top-level key '{}'; expected style or character", text(&t)));
                if opens {
                    self.pos += 1;
                    self.skip_block();
                }
                continue;
            };
            if !opens {
                self.warn(line, format!("'{}' without a {{ block; skipped", text(&t)));
                continue;
            }
            self.pos += 1;
            let name = match args.as_slice() {
                [n] => text(n).trim().to_owned(),
                _ => String::new(),
            };
            let mut def = Def::default();
            self.block(kind, line, &mut def);
            if self.stopped {
                // The definition the cap cut off is incomplete: dropped.
                break;
            }
            if name.is_empty() {
                self.warn(line, format!("{} needs exactly one name; block skipped", text(&t)));
                continue;
            }
            match kind {
                Kind::Style => {
                    if !self.room(0, style_lines.len(), content.styles.len(), line) {
                        continue;
                    }
                    if content.style(&name).is_some() {
                        self.warn(line, format!("duplicate style '{name}'; the first definition wins"));
                        continue;
                    }
                    for (what, present) in [("skillBand", def.band.is_some()), ("weight", def.weight.is_some()), ("model", def.model.is_some())] {
                        if present {
                            self.warn(line, format!("style '{name}': '{what}' belongs to characters; ignored"));
                        }
                    }
                    content.styles.push(Style {
                        name,
                        description: def.description.unwrap_or_default(),
                        inherit: def.inherit,
                        layer: def.layer,
                    });
                    style_lines.push(line);
                }
                _ => {
                    if !self.room(1, char_lines.len(), content.characters.len(), line) {
                        continue;
                    }
                    if content.character(&name).is_some() {
                        self.warn(line, format!("duplicate character '{name}'; the first definition wins"));
                        continue;
                    }
                    content.characters.push(Character {
                        name,
                        description: def.description.unwrap_or_default(),
                        style: def.inherit,
                        band: def.band.unwrap_or((1, 5)),
                        weight: def.weight.unwrap_or(1.0),
                        model: def.model.unwrap_or_default(),
                        layer: def.layer,
                    });
                    char_lines.push(line);
                }
            }
        }
        style_lines.extend(char_lines);
        style_lines
    }

    /// Whether one more style (`which` 0) or character (1) fits, with
    /// `here` of them from this file and `total` in all; the first refusal
    /// of each kind warns at `line`.
    fn room(&mut self, which: usize, here: usize, total: usize, line: u32) -> bool {
        let (what, per_file, all) = if which == 0 {
            ("styles", MAX_STYLES_PER_FILE, MAX_STYLES)
        } else {
            ("characters", MAX_CHARACTERS_PER_FILE, MAX_CHARACTERS)
        };
        let why = if here >= per_file {
            format!("more than {per_file} {what} in this file; this one and the rest are skipped")
        } else if total >= all {
            format!("more than {all} {what} in all botfiles; this one and the rest are skipped")
        } else {
            return true;
        };
        if !self.capped[which] {
            self.capped[which] = true;
            self.warn(line, why);
        }
        false
    }

    /// The statements of a block whose `{` is consumed, up to its `}`.
    fn block(&mut self, kind: Kind, opened: u32, def: &mut Def) {
        loop {
            if self.stopped {
                return;
            }
            let Some(t) = self.peek().cloned() else {
                self.warn(opened, "block opened here is never closed".into());
                return;
            };
            self.pos += 1;
            let line = t.line;
            let key = match &t.tok {
                Tok::Close => return,
                Tok::Open => {
                    self.warn(line, "unexpected '{'; block skipped".into());
                    self.skip_block();
                    continue;
                }
                Tok::Word(w) | Tok::Str(w) => w.clone(),
            };
            self.statements += 1;
            if self.statements > MAX_STATEMENTS_PER_FILE {
                self.warn(line, format!("more than {MAX_STATEMENTS_PER_FILE} statements in this file; the rest of the file is skipped"));
                self.stopped = true;
                self.pos = self.toks.len();
                return;
            }
            let args = self.line_rest(line);
            let is_skill = key.eq_ignore_ascii_case("skill");
            let opens = match self.peek() {
                Some(Token { tok: Tok::Open, line: l }) => *l == line || is_skill,
                _ => false,
            };
            if is_skill {
                if !opens {
                    self.warn(line, "'skill' needs a level and a { block; skipped".into());
                    continue;
                }
                self.pos += 1;
                let level = match args.as_slice() {
                    [n] => text(n).parse::<u8>().ok().filter(|n| (1..=5).contains(n)),
                    _ => None,
                };
                match (kind, level) {
                    (Kind::Skill, _) => {
                        self.warn(line, "'skill' blocks don't nest; block skipped".into());
                        self.skip_block();
                    }
                    (_, None) => {
                        let got: Vec<&str> = args.iter().map(text).collect();
                        self.warn(line, format!("'skill' level must be 1..5, got '{}'; block skipped", got.join(" ")));
                        self.skip_block();
                    }
                    (_, Some(n)) => {
                        let mut inner = Def::default();
                        self.block(Kind::Skill, line, &mut inner);
                        def.layer.skill[usize::from(n) - 1].extend(inner.layer.body);
                    }
                }
                continue;
            }
            if opens {
                self.warn(line, format!("'{key}' takes no block; block skipped"));
                self.pos += 1;
                self.skip_block();
                continue;
            }
            self.statement(kind, &key, &args, line, def);
        }
    }

    fn number(&mut self, line: u32, key: &str, t: &Token) -> Option<f32> {
        let v = text(t).parse::<f32>().ok().filter(|v| v.is_finite());
        if v.is_none() {
            self.warn(line, format!("'{key}': '{}' is not a number; skipped", text(t)));
        }
        v
    }

    fn statement(&mut self, kind: Kind, key: &str, args: &[Token], line: u32, def: &mut Def) {
        let lower = key.to_ascii_lowercase();
        let op = match lower.as_str() {
            "set" => Some(Op::Set),
            "add" => Some(Op::Add),
            "scale" => Some(Op::Scale),
            _ => None,
        };
        if let Some(op) = op {
            let [name, value] = args else {
                self.warn(line, format!("'{key}' needs a trait and a number; skipped"));
                return;
            };
            let Some(row) = Traits::row(text(name)) else {
                self.warn(line, format!("unknown trait '{}'; skipped", text(name)));
                return;
            };
            let Some(v) = self.number(line, key, value) else { return };
            let bad = match op {
                Op::Set => !(row.min..=row.max).contains(&v),
                Op::Add => v.abs() > row.max - row.min,
                Op::Scale => !(0.0..=MAX_SCALE).contains(&v),
            };
            if bad {
                let range = match op {
                    Op::Set => format!("{}..={}", row.min, row.max),
                    Op::Add => format!("-{0}..={0}", row.max - row.min),
                    Op::Scale => format!("0..={MAX_SCALE}"),
                };
                self.warn(line, format!("'{key} {}' value {v} is outside {range}; skipped", row.name));
                return;
            }
            let stmt = Stmt { row, op, value: v };
            def.layer.body.push(stmt);
            return;
        }
        let simple = |p: &mut Self, what: &str| -> Option<String> {
            match args {
                [a] => Some(text(a).to_owned()),
                _ => {
                    p.warn(line, format!("'{what}' needs exactly one value; skipped"));
                    None
                }
            }
        };
        match (lower.as_str(), kind) {
            (_, Kind::Skill) => {
                self.warn(line, format!("only set/add/scale are allowed in a skill block, not '{key}'; skipped"));
            }
            ("description", _) => {
                if args.is_empty() {
                    self.warn(line, "'description' needs a value; skipped".into());
                } else {
                    def.description = Some(args.iter().map(text).collect::<Vec<_>>().join(" "));
                }
            }
            ("inherit", _) | ("style", Kind::Character) => {
                if let Some(v) = simple(self, key) {
                    if def.inherit.is_some() {
                        self.warn(line, format!("a second '{key}' replaces the first"));
                    }
                    def.inherit = Some(v);
                }
            }
            ("weapon", _) => {
                let [name, bias] = args else {
                    self.warn(line, "'weapon' needs a name and a bias; skipped".into());
                    return;
                };
                let Some(b) = self.number(line, key, bias) else { return };
                if !(0.0..=MAX_WEAPON_BIAS).contains(&b) {
                    self.warn(line, format!("weapon bias {b} is outside 0..={MAX_WEAPON_BIAS}; skipped"));
                    return;
                }
                let n = text(name).to_owned();
                let key = weapon_key(&n);
                if let Some(e) = def.layer.weapons.iter_mut().find(|(w, _)| weapon_key(w) == key) {
                    e.1 = b;
                } else if def.layer.weapons.len() >= MAX_WEAPONS_PER_LAYER {
                    self.warn(line, format!("more than {MAX_WEAPONS_PER_LAYER} weapons in one block; skipped"));
                } else {
                    def.layer.weapons.push((n, b));
                }
            }
            ("skillband", Kind::Character) => {
                let (lo, hi) = match args {
                    [a] => (a, a),
                    [a, b] => (a, b),
                    _ => {
                        self.warn(line, "'skillBand' needs one or two levels; skipped".into());
                        return;
                    }
                };
                let (Some(lo), Some(hi)) = (self.number(line, key, lo), self.number(line, key, hi)) else { return };
                if !(MIN_SKILL..=MAX_SKILL).contains(&lo) || !(MIN_SKILL..=MAX_SKILL).contains(&hi) || lo > hi {
                    self.warn(line, format!("'skillBand {lo} {hi}' must be 1 <= min <= max <= 5; skipped"));
                    return;
                }
                def.band = Some((skill_block(lo), skill_block(hi)));
            }
            ("weight", Kind::Character) => {
                let Some(v) = simple(self, key) else { return };
                match v.parse::<f32>().ok().filter(|w| w.is_finite() && (0.0..=1000.0).contains(w)) {
                    Some(w) => def.weight = Some(w),
                    None => self.warn(line, format!("'weight {v}' must be a number in 0..=1000; skipped")),
                }
            }
            ("model", Kind::Character) => {
                if let Some(v) = simple(self, key) {
                    def.model = Some(v);
                }
            }
            _ => {
                let what = if kind == Kind::Style { "style" } else { "character" };
                self.warn(line, format!("unknown {what} key '{key}'; skipped"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::SKILL_TABLE;

    fn parse(text: &str) -> (Content, Vec<Warning>) {
        let mut c = Content::default();
        let mut w = Vec::new();
        c.add_text("test.bot", text, &mut w);
        c.finish(&WeaponTable::default(), &mut w, &|_| ("test.bot".into(), 0));
        (c, w)
    }

    #[test]
    fn every_table_trait_is_a_statement_target() {
        for row in SKILL_TABLE {
            let (c, w) = parse(&format!("style \"s\" {{\n set {} {}\n}}\n", row.name, row.min));
            assert!(w.is_empty(), "{}: {w:?}", row.name);
            assert_eq!(c.styles[0].layer.body.len(), 1);
        }
    }
}
