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

use std::fmt;
use std::path::Path;

use quarry_sim::weapons::WeaponTable;

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
        let toks = lex(file, text, warnings);
        let mut p = Parser { toks: &toks, pos: 0, file, warnings };
        p.top(self);
    }

    /// Checks references once everything is loaded: a style's unknown,
    /// cyclic or too deep parent is dropped, a character's unknown style is
    /// dropped, and every weapon name must be in `table`.
    pub fn finish(&mut self, table: &WeaponTable, warnings: &mut Vec<Warning>, origin: &dyn Fn(&str) -> (String, u32)) {
        let names: Vec<String> = self.styles.iter().map(|s| s.name.clone()).collect();
        for i in 0..self.styles.len() {
            let Some(parent) = self.styles[i].inherit.clone() else { continue };
            let why = if !names.iter().any(|n| n.eq_ignore_ascii_case(&parent)) {
                Some(format!("style '{}' inherits unknown style '{parent}'; parent dropped", self.styles[i].name))
            } else {
                // Walk up: a cycle through this style, or a chain too deep.
                let mut cur = Some(parent.clone());
                let mut depth = 0;
                let mut bad = None;
                while let Some(p) = cur {
                    depth += 1;
                    if p.eq_ignore_ascii_case(&self.styles[i].name) {
                        bad = Some(format!("style '{}' inherits itself (cycle); parent dropped", self.styles[i].name));
                        break;
                    }
                    if depth > MAX_INHERIT_DEPTH {
                        bad = Some(format!("style '{}' has an inherit chain deeper than {MAX_INHERIT_DEPTH}; parent dropped", self.styles[i].name));
                        break;
                    }
                    cur = self.style(&p).and_then(|s| s.inherit.clone());
                }
                bad
            };
            if let Some(message) = why {
                let (file, line) = origin(&format!("style:{}", self.styles[i].name));
                warnings.push(Warning { file, line, message });
                self.styles[i].inherit = None;
            }
        }
        for i in 0..self.characters.len() {
            let Some(style) = self.characters[i].style.clone() else { continue };
            if self.style(&style).is_none() {
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

/// Loads `dir/styles/*.style`, then `dir/characters/*.bot`, then
/// `dir/chats/*.chat` (each sorted by file name) against the stock weapon
/// table. Never fails: a missing style or character directory or an
/// unreadable file is a warning; `chats/` is optional.
pub fn load_botfiles(dir: &Path) -> (Content, Vec<Warning>) {
    load_botfiles_with(dir, &WeaponTable::default())
}

/// [`load_botfiles`] checking weapon names against `table`.
pub fn load_botfiles_with(dir: &Path, table: &WeaponTable) -> (Content, Vec<Warning>) {
    let mut content = Content::default();
    let mut warnings = Vec::new();
    // Where each definition came from, for warnings raised after parsing.
    let mut origins: Vec<(String, String, u32)> = Vec::new();
    for (sub, ext) in [("styles", "style"), ("characters", "bot")] {
        let path = dir.join(sub);
        let mut files: Vec<_> = match std::fs::read_dir(&path) {
            Ok(rd) => rd
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect(),
            Err(e) => {
                warnings.push(Warning { file: path.display().to_string(), line: 0, message: format!("can't read directory: {e}") });
                continue;
            }
        };
        files.sort();
        for f in files {
            let name = f.display().to_string();
            match std::fs::read_to_string(&f) {
                Ok(text) => {
                    let (ns, nc) = (content.styles.len(), content.characters.len());
                    let toks = lex(&name, &text, &mut warnings);
                    let mut p = Parser { toks: &toks, pos: 0, file: &name, warnings: &mut warnings };
                    let lines = p.top(&mut content);
                    let mut lines = lines.into_iter();
                    // `top` returns the opening line of each accepted definition, in order.
                    for s in &content.styles[ns..] {
                        origins.push((format!("style:{}", s.name), name.clone(), lines.next().unwrap_or(0)));
                    }
                    for c in &content.characters[nc..] {
                        origins.push((format!("character:{}", c.name), name.clone(), lines.next().unwrap_or(0)));
                    }
                }
                Err(e) => warnings.push(Warning { file: name, line: 0, message: format!("can't read file: {e}") }),
            }
        }
    }
    let origin = |key: &str| {
        origins
            .iter()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map_or_else(|| (String::from("<content>"), 0), |(_, f, l)| (f.clone(), *l))
    };
    content.finish(table, &mut warnings, &origin);
    crate::chat::load_chats(dir, &mut content, &mut warnings);
    (content, warnings)
}

// ---- lexer -------------------------------------------------------------

/// One lexical token of a content file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A bare word (`set`, `kill`, `40`).
    Word(String),
    /// A quoted string, without the quotes.
    Str(String),
    /// `{`.
    Open,
    /// `}`.
    Close,
}

/// A token and the 1-based line it is on.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// The token.
    pub(crate) tok: Tok,
    /// Its line.
    pub(crate) line: u32,
}

/// Splits content text into tokens: `//` and `#` comments to the end of the
/// line, quoted strings (an unterminated one warns and ends at the line
/// end), braces, `;` as a separator, words.
pub(crate) fn lex(file: &str, text: &str, warnings: &mut Vec<Warning>) -> Vec<Token> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut chars = raw.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match c {
                c if c.is_whitespace() || c == ';' => {}
                '#' => break,
                '/' if raw[at..].starts_with("//") => break,
                '{' => out.push(Token { tok: Tok::Open, line }),
                '}' => out.push(Token { tok: Tok::Close, line }),
                '"' => {
                    let mut s = String::new();
                    let mut closed = false;
                    for (_, c) in chars.by_ref() {
                        if c == '"' {
                            closed = true;
                            break;
                        }
                        s.push(c);
                    }
                    if !closed {
                        warnings.push(Warning { file: file.into(), line, message: "unterminated string; closed at end of line".into() });
                    }
                    out.push(Token { tok: Tok::Str(s), line });
                }
                _ => {
                    let mut s = String::from(c);
                    while let Some(&(_, c)) = chars.peek() {
                        if c.is_whitespace() || matches!(c, '{' | '}' | '"' | ';') {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    out.push(Token { tok: Tok::Word(s), line });
                }
            }
        }
    }
    out
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
}

/// The text of a token (`{`/`}` for braces).
pub(crate) fn text(t: &Token) -> &str {
    match &t.tok {
        Tok::Word(s) | Tok::Str(s) => s,
        Tok::Open => "{",
        Tok::Close => "}",
    }
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
            if name.is_empty() {
                self.warn(line, format!("{} needs exactly one name; block skipped", text(&t)));
                continue;
            }
            match kind {
                Kind::Style => {
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

    /// The statements of a block whose `{` is consumed, up to its `}`.
    fn block(&mut self, kind: Kind, opened: u32, def: &mut Def) {
        loop {
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

    #[test]
    fn lexer_keeps_lines_strings_and_comments() {
        let mut w = Vec::new();
        let t = lex("f", "a \"b c\"{ // x\n# y\n}", &mut w);
        let got: Vec<(Tok, u32)> = t.into_iter().map(|t| (t.tok, t.line)).collect();
        assert_eq!(
            got,
            vec![(Tok::Word("a".into()), 1), (Tok::Str("b c".into()), 1), (Tok::Open, 1), (Tok::Close, 3)]
        );
        assert!(w.is_empty());
    }
}
