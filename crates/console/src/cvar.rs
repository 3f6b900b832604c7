//! One console variable: its definition (type, default, range, flags, help)
//! and its live state. Parsing and validating a value happens here, so every
//! path that sets a cvar (console, config file, command line, code) applies
//! the same rules.

use crate::error::CvarError;

/// Flags that change how a cvar is stored, shown and set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CvarFlags(u8);

impl CvarFlags {
    /// No flags.
    pub const NONE: Self = Self(0);
    /// Written back to the archive file on shutdown (set by `seta` too).
    pub const ARCHIVE: Self = Self(1);
    /// Part of the server info a server browser sees.
    pub const SERVER_INFO: Self = Self(1 << 1);
    /// Only settable while cheats are allowed.
    pub const CHEAT: Self = Self(1 << 2);
    /// Not settable from the console at all (code may still force it).
    pub const READ_ONLY: Self = Self(1 << 3);
    /// A new value waits until the next map change to take effect.
    pub const LATCHED: Self = Self(1 << 4);
    /// A secret (a password): its value is never printed, only whether it
    /// is set, so it stays out of logs and the startup banner.
    pub const SECRET: Self = Self(1 << 5);
    /// Shapes play (the rules, the physics, the tick rate): a recording
    /// carries it, and a replay sets only such cvars from a file.
    pub const PLAY: Self = Self(1 << 6);

    /// Whether every flag in `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union of two flag sets.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// One letter per flag for `cvarlist`: A(rchive) S(erverinfo) C(heat) R(ead-only) L(atched) P(lay).
    pub fn letters(self) -> String {
        [
            (Self::ARCHIVE, 'A'),
            (Self::SERVER_INFO, 'S'),
            (Self::CHEAT, 'C'),
            (Self::READ_ONLY, 'R'),
            (Self::LATCHED, 'L'),
            (Self::PLAY, 'P'),
        ]
        .iter()
        .map(|&(f, c)| if self.contains(f) { c } else { ' ' })
        .collect()
    }
}

impl std::ops::BitOr for CvarFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        self.union(rhs)
    }
}

/// The type of a cvar and the values it allows.
#[derive(Debug, Clone, PartialEq)]
pub enum CvarKind {
    /// `0`/`1` (also accepts true/false, yes/no, on/off).
    Bool,
    /// A whole number within an inclusive range.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// A real number within an inclusive range.
    Float {
        /// Smallest allowed value.
        min: f64,
        /// Largest allowed value.
        max: f64,
    },
    /// Free text (no double quotes or control characters).
    Str,
    /// One of a fixed list of words (matched case-insensitively, stored as listed).
    Enum(Vec<String>),
}

impl CvarKind {
    /// The short type name shown by `help` and `cvarlist`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::Int { .. } => "int",
            Self::Float { .. } => "float",
            Self::Str => "string",
            Self::Enum(_) => "enum",
        }
    }

    /// What values are allowed, in words, for `help`.
    pub fn allowed(&self) -> String {
        match self {
            Self::Bool => "0 or 1".to_owned(),
            Self::Int { min, max } => format!("{min}..={max}"),
            Self::Float { min, max } => format!("{min}..={max}"),
            Self::Str => "any text without double quotes".to_owned(),
            Self::Enum(values) => values.join(", "),
        }
    }
}

/// A typed cvar value.
#[derive(Debug, Clone, PartialEq)]
pub enum CvarValue {
    /// A bool cvar's value.
    Bool(bool),
    /// An int cvar's value.
    Int(i64),
    /// A float cvar's value.
    Float(f64),
    /// A string or enum cvar's value.
    Str(String),
}

impl std::fmt::Display for CvarValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Bool(b) => write!(f, "{}", u8::from(*b)),
            Self::Int(i) => write!(f, "{i}"),
            Self::Float(x) => write!(f, "{x}"),
            Self::Str(s) => f.write_str(s),
        }
    }
}

impl CvarValue {
    /// The value as a bool (numbers: non-zero is true).
    pub fn as_bool(&self) -> bool {
        match self {
            Self::Bool(b) => *b,
            Self::Int(i) => *i != 0,
            Self::Float(x) => *x != 0.0,
            Self::Str(s) => !s.is_empty() && s != "0",
        }
    }

    /// The value as an integer (floats truncate, strings parse or give 0).
    pub fn as_int(&self) -> i64 {
        match self {
            Self::Bool(b) => i64::from(*b),
            Self::Int(i) => *i,
            Self::Float(x) => *x as i64,
            Self::Str(s) => s.trim().parse().unwrap_or(0),
        }
    }

    /// The value as a float (strings parse or give 0).
    pub fn as_float(&self) -> f64 {
        match self {
            Self::Bool(b) => f64::from(u8::from(*b)),
            Self::Int(i) => *i as f64,
            Self::Float(x) => *x,
            Self::Str(s) => s.trim().parse().unwrap_or(0.0),
        }
    }
}

/// What a crate registers: name, type, default, flags and help.
#[derive(Debug, Clone)]
pub struct CvarDef {
    /// The console name, e.g. `sv_fps`.
    pub name: String,
    /// Type and allowed values.
    pub kind: CvarKind,
    /// The default, as it would be typed.
    pub default: String,
    /// Flags.
    pub flags: CvarFlags,
    /// One or two sentences for `help`: what it does, its unit.
    pub description: String,
}

impl CvarDef {
    /// A bool cvar.
    pub fn bool(name: &str, default: bool, description: &str) -> Self {
        Self::new(name, CvarKind::Bool, if default { "1" } else { "0" }, description)
    }

    /// An int cvar with an inclusive range.
    pub fn int(name: &str, default: i64, min: i64, max: i64, description: &str) -> Self {
        Self::new(name, CvarKind::Int { min, max }, &default.to_string(), description)
    }

    /// A float cvar with an inclusive range.
    pub fn float(name: &str, default: f64, min: f64, max: f64, description: &str) -> Self {
        Self::new(name, CvarKind::Float { min, max }, &default.to_string(), description)
    }

    /// A string cvar.
    pub fn string(name: &str, default: &str, description: &str) -> Self {
        Self::new(name, CvarKind::Str, default, description)
    }

    /// An enum cvar: one of `values`.
    pub fn enumeration(name: &str, default: &str, values: &[&str], description: &str) -> Self {
        let values = values.iter().map(|v| (*v).to_owned()).collect();
        Self::new(name, CvarKind::Enum(values), default, description)
    }

    fn new(name: &str, kind: CvarKind, default: &str, description: &str) -> Self {
        Self {
            name: name.to_owned(),
            kind,
            default: default.to_owned(),
            flags: CvarFlags::NONE,
            description: description.to_owned(),
        }
    }

    /// Adds flags.
    #[must_use]
    pub fn flags(mut self, flags: CvarFlags) -> Self {
        self.flags = self.flags | flags;
        self
    }

    /// Parses and validates `text` against this definition.
    pub fn parse(&self, text: &str) -> Result<CvarValue, CvarError> {
        let name = || self.name.clone();
        let trimmed = text.trim();
        match &self.kind {
            CvarKind::Bool => match trimmed.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(CvarValue::Bool(true)),
                "0" | "false" | "no" | "off" => Ok(CvarValue::Bool(false)),
                _ => Err(CvarError::WrongType { name: name(), value: text.to_owned(), expected: "0 or 1" }),
            },
            CvarKind::Int { min, max } => {
                let v: i64 = trimmed.parse().map_err(|_| CvarError::WrongType {
                    name: name(),
                    value: text.to_owned(),
                    expected: "an integer",
                })?;
                if v < *min || v > *max {
                    return Err(CvarError::OutOfRange { name: name(), value: text.to_owned(), range: self.kind.allowed() });
                }
                Ok(CvarValue::Int(v))
            }
            CvarKind::Float { min, max } => {
                let v: f64 = trimmed.parse().map_err(|_| CvarError::WrongType {
                    name: name(),
                    value: text.to_owned(),
                    expected: "a number",
                })?;
                if !v.is_finite() {
                    return Err(CvarError::WrongType { name: name(), value: text.to_owned(), expected: "a finite number" });
                }
                if v < *min || v > *max {
                    return Err(CvarError::OutOfRange { name: name(), value: text.to_owned(), range: self.kind.allowed() });
                }
                Ok(CvarValue::Float(v))
            }
            CvarKind::Str => {
                if text.chars().any(|c| c == '"' || c.is_control()) {
                    return Err(CvarError::BadCharacters { name: name() });
                }
                Ok(CvarValue::Str(text.to_owned()))
            }
            CvarKind::Enum(values) => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(trimmed))
                .map(|v| CvarValue::Str(v.clone()))
                .ok_or_else(|| CvarError::NotAllowed { name: name(), value: text.to_owned(), allowed: values.join(", ") }),
        }
    }
}

/// A registered cvar: definition plus live value.
#[derive(Debug, Clone)]
pub struct Cvar {
    /// The definition it was registered with.
    pub def: CvarDef,
    pub(crate) value: CvarValue,
    pub(crate) default: CvarValue,
    pub(crate) latched: Option<CvarValue>,
    pub(crate) modified: u64,
    /// Archive requested at run time by `seta` on a cvar not flagged ARCHIVE.
    pub(crate) archive_requested: bool,
    /// What the archive keeps instead of the current value: the value from
    /// before a one-off change (the command line's `+set`), until the cvar
    /// is set again.
    pub(crate) archive_as: Option<CvarValue>,
}

impl Cvar {
    /// The current value.
    pub fn value(&self) -> &CvarValue {
        &self.value
    }

    /// The default value.
    pub fn default_value(&self) -> &CvarValue {
        &self.default
    }

    /// The value waiting for the next map change, for latched cvars.
    pub fn latched(&self) -> Option<&CvarValue> {
        self.latched.as_ref()
    }

    /// How many times the value has changed; compare with a remembered count
    /// to notice changes without callbacks (Quake's modificationCount).
    pub fn modification_count(&self) -> u64 {
        self.modified
    }

    /// Whether the cvar is written to the archive file.
    pub fn is_archived(&self) -> bool {
        self.def.flags.contains(CvarFlags::ARCHIVE) || self.archive_requested
    }

    /// The value as the console prints it: a [`CvarFlags::SECRET`] value
    /// shows only whether it is set.
    pub fn shown_value(&self) -> String {
        let value = self.value.to_string();
        if self.def.flags.contains(CvarFlags::SECRET) && !value.is_empty() { "(set, hidden)".to_owned() } else { value }
    }

    /// The value the archive file keeps: the current one, unless the
    /// current one is a one-off (see [`CvarSet::keep_archived`](crate::CvarSet::keep_archived)).
    pub fn archived_value(&self) -> &CvarValue {
        self.archive_as.as_ref().unwrap_or(&self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bool_parses_words_and_refuses_others() {
        let d = CvarDef::bool("b", false, "");
        assert_eq!(d.parse("on"), Ok(CvarValue::Bool(true)));
        assert_eq!(d.parse("0"), Ok(CvarValue::Bool(false)));
        assert!(matches!(d.parse("2"), Err(CvarError::WrongType { .. })));
    }

    #[test]
    fn int_range_is_inclusive_and_message_names_it() {
        let d = CvarDef::int("sv_fps", 60, 10, 1000, "");
        assert_eq!(d.parse("10"), Ok(CvarValue::Int(10)));
        assert_eq!(d.parse("1000"), Ok(CvarValue::Int(1000)));
        let err = d.parse("5").expect_err("below range");
        assert_eq!(err.to_string(), "sv_fps: 5 is out of range, allowed 10..=1000");
        assert_eq!(d.parse("6.5").expect_err("float").to_string(), "sv_fps: '6.5' is not an integer");
    }

    #[test]
    fn float_refuses_nan_and_infinity() {
        let d = CvarDef::float("g", 800.0, 0.0, 1e6, "");
        assert!(d.parse("nan").is_err());
        assert!(d.parse("inf").is_err());
        assert_eq!(d.parse(" 12.5 "), Ok(CvarValue::Float(12.5)));
    }

    #[test]
    fn enum_matches_case_insensitively_and_lists_allowed() {
        let d = CvarDef::enumeration("g_gametype", "ffa", &["ffa", "duel", "tdm"], "");
        assert_eq!(d.parse("TDM"), Ok(CvarValue::Str("tdm".to_owned())));
        let err = d.parse("ctf2").expect_err("not allowed");
        assert!(err.to_string().contains("ffa, duel, tdm"), "{err}");
    }

    #[test]
    fn string_refuses_quotes_and_control_characters() {
        let d = CvarDef::string("motd", "", "");
        assert!(d.parse("a \"b\"").is_err());
        assert!(d.parse("a\u{7}").is_err());
        assert_eq!(d.parse("hello world"), Ok(CvarValue::Str("hello world".to_owned())));
    }

    #[test]
    fn flags_letters() {
        assert_eq!((CvarFlags::ARCHIVE | CvarFlags::LATCHED).letters(), "A   L ");
        assert_eq!((CvarFlags::PLAY | CvarFlags::SERVER_INFO).letters(), " S   P");
    }

    #[test]
    fn value_conversions() {
        assert_eq!(CvarValue::Str("12".into()).as_int(), 12);
        assert!(CvarValue::Int(3).as_bool());
        assert_eq!(CvarValue::Bool(true).as_float(), 1.0);
        assert_eq!(CvarValue::Float(2.5).to_string(), "2.5");
    }
}
