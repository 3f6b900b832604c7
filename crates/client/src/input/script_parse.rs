//! The script file format, and its parser.
//!
//! One step per line: a time in seconds since joining, then what changes
//! at that time. Times never go backwards. Blank lines and lines starting
//! with `#` are skipped; a `#` token ends a line early (except inside chat
//! text, which runs to the end of the line).
//!
//! ```text
//! # time  what
//! 0.0     forward=127 yaw=90 buttons=jump    # run, holding jump
//! 1.5     say hello everyone
//! 2.0     weapon=5 attack                    # switch and hold fire
//! 2.5     -attack turn=90                    # release fire, turn 90°/s
//! 4.0     stop
//! 4.0     say_team falling back
//! 6.0     quit
//! ```
//!
//! Step words (any number per line, applied left to right):
//!
//! | word | meaning |
//! |---|---|
//! | `forward=N` `right=N` `up=N` | move, -127..=127 (negative: back, left, down); held until changed |
//! | `yaw=DEG` `pitch=DEG` | view angles (pitch -90..=90, positive looks down) |
//! | `turn=DEG` | keep turning the yaw by DEG per second (0 stops) |
//! | `weapon=N` | select weapon N (0..=255) |
//! | `buttons=a,b` | hold exactly these buttons (`none` for none) |
//! | `attack` / `+attack` | also hold a button (`attack jump crouch walk use`) |
//! | `-attack` | release it |
//! | `stop` | moves, turning and buttons back to zero |
//! | `say TEXT` `say_team TEXT` `cmd TEXT` | chat, team chat, a console command: the rest of the line |
//! | `quit` | leave the server |

use std::path::PathBuf;
use std::time::Duration;

use quarry_movement::Buttons;

use crate::input::Action;

/// One change a step makes.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptOp {
    /// Set the forward move.
    Forward(i8),
    /// Set the sideways move.
    Right(i8),
    /// Set the up move.
    Up(i8),
    /// Set the yaw, degrees.
    Yaw(f32),
    /// Set the pitch, degrees.
    Pitch(f32),
    /// Set the turn rate, degrees per second.
    Turn(f32),
    /// Select a weapon.
    Weapon(u8),
    /// Hold exactly these buttons.
    SetButtons(Buttons),
    /// Also hold these buttons.
    Press(Buttons),
    /// Release these buttons.
    Release(Buttons),
    /// Moves, turning and buttons to zero.
    Stop,
    /// A one-off action.
    Act(Action),
}

/// One parsed line.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptStep {
    /// When it applies, since joining.
    pub at: Duration,
    /// The 1-based line it came from.
    pub line: usize,
    /// The changes, in order.
    pub ops: Vec<ScriptOp>,
}

/// What was wrong with a script.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptErrorKind {
    /// The file could not be read.
    #[error("cannot read the script: {0}")]
    Unreadable(String),
    /// The first word is not a time in seconds.
    #[error("expected a time in seconds (like 1.5)")]
    BadTime,
    /// This step's time is before the previous step's.
    #[error("time goes backwards (the previous step is at {previous}s)")]
    TimeGoesBackwards {
        /// The previous step's time, seconds.
        previous: String,
    },
    /// A word that is not a step word.
    #[error(
        "unknown step (expected forward=, right=, up=, yaw=, pitch=, turn=, weapon=, buttons=, a button name, stop, say, say_team, cmd or quit)"
    )]
    UnknownToken,
    /// A value out of range or not a number.
    #[error("bad value: expected {expected}")]
    BadValue {
        /// What the value should be.
        expected: &'static str,
    },
    /// `say`, `say_team` or `cmd` with nothing after it.
    #[error("needs text after it")]
    MissingText,
}

/// A script error, naming the file, the line and the offending word:
/// `moves.txt:3: bad value: expected a move, -127..=127 (at `forward=200`)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The script file, when read from one.
    pub path: Option<PathBuf>,
    /// The 1-based line; 0 when the whole file is at fault.
    pub line: usize,
    /// The offending word, as written.
    pub token: String,
    /// What is wrong.
    pub kind: ScriptErrorKind,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.path, self.line) {
            (Some(p), 0) => write!(f, "{}: ", p.display())?,
            (Some(p), n) => write!(f, "{}:{n}: ", p.display())?,
            (None, 0) => {}
            (None, n) => write!(f, "line {n}: ")?,
        }
        write!(f, "{}", self.kind)?;
        if !self.token.is_empty() {
            write!(f, " (at `{}`)", self.token)?;
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

/// Splits a line into words with their byte offsets.
fn words(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = 0usize;
    std::iter::from_fn(move || {
        let tail = s.get(rest..)?;
        let start = rest + (tail.len() - tail.trim_start().len());
        let word_len = s
            .get(start..)?
            .find(char::is_whitespace)
            .unwrap_or(s.len() - start);
        if word_len == 0 {
            return None;
        }
        rest = start + word_len;
        s.get(start..rest).map(|w| (start, w))
    })
}

/// Parses a whole script (see the module docs for the format).
pub fn parse_script(text: &str) -> Result<Vec<ScriptStep>, ScriptError> {
    let mut steps: Vec<ScriptStep> = Vec::new();
    let mut previous = 0.0f64;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |token: &str, kind| ScriptError {
            path: None,
            line,
            token: token.to_owned(),
            kind,
        };
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut ws = words(trimmed);
        let Some((_, time_word)) = ws.next() else {
            continue;
        };
        let secs: f64 = time_word
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite() && *t >= 0.0 && *t < 1e9)
            .ok_or_else(|| err(time_word, ScriptErrorKind::BadTime))?;
        if secs < previous {
            return Err(err(
                time_word,
                ScriptErrorKind::TimeGoesBackwards {
                    previous: previous.to_string(),
                },
            ));
        }
        previous = secs;
        let mut ops = Vec::new();
        for (at, word) in ws {
            if word.starts_with('#') {
                break;
            }
            if let Some(make) = text_action(word) {
                let rest = trimmed.get(at + word.len()..).unwrap_or_default().trim();
                if rest.is_empty() {
                    return Err(err(word, ScriptErrorKind::MissingText));
                }
                ops.push(ScriptOp::Act(make(rest.to_owned())));
                break;
            }
            ops.push(parse_word(word).map_err(|kind| err(word, kind))?);
        }
        steps.push(ScriptStep {
            at: Duration::from_secs_f64(secs),
            line,
            ops,
        });
    }
    Ok(steps)
}

fn text_action(word: &str) -> Option<fn(String) -> Action> {
    match word {
        "say" => Some(Action::Say),
        "say_team" => Some(Action::SayTeam),
        "cmd" => Some(Action::Command),
        _ => None,
    }
}

fn parse_word(word: &str) -> Result<ScriptOp, ScriptErrorKind> {
    if let Some((key, value)) = word.split_once('=') {
        return Ok(match key {
            "forward" => ScriptOp::Forward(parse_move(value)?),
            "right" => ScriptOp::Right(parse_move(value)?),
            "up" => ScriptOp::Up(parse_move(value)?),
            "yaw" => ScriptOp::Yaw(parse_angle(value, -1e6, 1e6, "an angle in degrees")?),
            "pitch" => ScriptOp::Pitch(parse_angle(
                value,
                -90.0,
                90.0,
                "a pitch in degrees, -90..=90",
            )?),
            "turn" => ScriptOp::Turn(parse_angle(value, -1e5, 1e5, "degrees per second")?),
            "weapon" => ScriptOp::Weapon(value.parse().map_err(|_| ScriptErrorKind::BadValue {
                expected: "a weapon number, 0..=255",
            })?),
            "buttons" => ScriptOp::SetButtons(parse_buttons(value)?),
            _ => return Err(ScriptErrorKind::UnknownToken),
        });
    }
    match word {
        "stop" => return Ok(ScriptOp::Stop),
        "quit" => return Ok(ScriptOp::Act(Action::Quit)),
        _ => {}
    }
    let (release, name) = match word.split_at_checked(1) {
        Some(("-", name)) => (true, name),
        Some(("+", name)) => (false, name),
        _ => (false, word),
    };
    let bit = Buttons::by_name(name).ok_or(ScriptErrorKind::UnknownToken)?;
    Ok(if release {
        ScriptOp::Release(bit)
    } else {
        ScriptOp::Press(bit)
    })
}

fn parse_move(v: &str) -> Result<i8, ScriptErrorKind> {
    v.parse::<i8>()
        .ok()
        .filter(|m| *m >= -127)
        .ok_or(ScriptErrorKind::BadValue {
            expected: "a move, -127..=127",
        })
}

fn parse_angle(
    v: &str,
    min: f32,
    max: f32,
    expected: &'static str,
) -> Result<f32, ScriptErrorKind> {
    v.parse::<f32>()
        .ok()
        .filter(|a| a.is_finite() && (min..=max).contains(a))
        .ok_or(ScriptErrorKind::BadValue { expected })
}

fn parse_buttons(v: &str) -> Result<Buttons, ScriptErrorKind> {
    if v == "none" {
        return Ok(Buttons::default());
    }
    v.split([',', '+']).try_fold(Buttons::default(), |held, name| {
        Buttons::by_name(name)
            .map(|b| held.with(b))
            .ok_or(ScriptErrorKind::BadValue {
                expected: "button names (attack, jump, crouch, walk, use) joined by ',' or `none`",
            })
    })
}

#[cfg(test)]
#[path = "script_parse_tests.rs"]
mod tests;
