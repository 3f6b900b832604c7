//! The parser of style and character files: brace blocks of one
//! statement per line over the shared lexer (`content/lex.rs`). Nothing is
//! fatal: each problem warns with file and line and skips the smallest unit.

use crate::content::lex::{Tok, Token, lex, text};
use crate::content::limits::{MAX_CHARACTERS, MAX_CHARACTERS_PER_FILE, MAX_STATEMENTS_PER_FILE, MAX_STYLES, MAX_STYLES_PER_FILE};
use crate::content::skill::{MAX_SKILL, MIN_SKILL, Traits};

use super::model::{
    Character, Content, Layer, MAX_SCALE, MAX_WEAPON_BIAS, MAX_WEAPONS_PER_LAYER, Op, Stmt, Style, Warning, skill_block, weapon_key,
};

impl Content {
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
}


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
    brain: Option<String>,
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
            let added = match kind {
                Kind::Style => self.add_style(content, name, def, style_lines.len(), line),
                _ => self.add_character(content, name, def, char_lines.len(), line),
            };
            if added {
                match kind {
                    Kind::Style => style_lines.push(line),
                    _ => char_lines.push(line),
                }
            }
        }
        style_lines.extend(char_lines);
        style_lines
    }

    /// Adds style `name` (the `here`-th of this file) unless a cap is
    /// reached or the name is taken; character-only keys warn.
    fn add_style(&mut self, content: &mut Content, name: String, def: Def, here: usize, line: u32) -> bool {
        if !self.room(0, here, content.styles.len(), line) {
            return false;
        }
        if content.style(&name).is_some() {
            self.warn(line, format!("duplicate style '{name}'; the first definition wins"));
            return false;
        }
        for (what, present) in [("skillBand", def.band.is_some()), ("weight", def.weight.is_some()), ("model", def.model.is_some()), ("brain", def.brain.is_some())] {
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
        true
    }

    /// Adds character `name` (the `here`-th of this file) unless a cap is
    /// reached or the name is taken.
    fn add_character(&mut self, content: &mut Content, name: String, def: Def, here: usize, line: u32) -> bool {
        if !self.room(1, here, content.characters.len(), line) {
            return false;
        }
        if content.character(&name).is_some() {
            self.warn(line, format!("duplicate character '{name}'; the first definition wins"));
            return false;
        }
        content.characters.push(Character {
            name,
            description: def.description.unwrap_or_default(),
            style: def.inherit,
            band: def.band.unwrap_or((1, 5)),
            weight: def.weight.unwrap_or(1.0),
            model: def.model.unwrap_or_default(),
            brain: def.brain,
            layer: def.layer,
        });
        true
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
            self.trait_statement(op, key, args, line, def);
            return;
        }
        self.key_statement(kind, key, &lower, args, line, def);
    }

    /// `set`/`add`/`scale TRAIT VALUE`: checked against the trait's range.
    fn trait_statement(&mut self, op: Op, key: &str, args: &[Token], line: u32, def: &mut Def) {
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
    }

    /// Every other statement: description, inherit/style, weapon, and the
    /// character keys (skillBand, weight, model).
    fn key_statement(&mut self, kind: Kind, key: &str, lower: &str, args: &[Token], line: u32, def: &mut Def) {
        let simple = |p: &mut Self, what: &str| -> Option<String> {
            match args {
                [a] => Some(text(a).to_owned()),
                _ => {
                    p.warn(line, format!("'{what}' needs exactly one value; skipped"));
                    None
                }
            }
        };
        match (lower, kind) {
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
            ("weapon", _) => self.weapon_statement(key, args, line, def),
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
            ("brain", Kind::Character) => {
                let Some(v) = simple(self, key) else { return };
                if v.is_empty() || v.len() > 64 || !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                    self.warn(line, format!("'brain {v}' must name a file botfiles/brains/NAME.rhai (letters, digits, _ and -, at most 64); skipped"));
                } else {
                    def.brain = Some(v);
                }
            }
            _ => {
                let what = if kind == Kind::Style { "style" } else { "character" };
                self.warn(line, format!("unknown {what} key '{key}'; skipped"));
            }
        }
    }

    /// `weapon NAME BIAS`: a repeat of the same weapon replaces its bias.
    fn weapon_statement(&mut self, key: &str, args: &[Token], line: u32, def: &mut Def) {
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
}

#[cfg(test)]
mod tests {
    use quarry_sim::weapons::WeaponTable;

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
