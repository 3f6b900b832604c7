//! A scripted player for `quarry-client play --script FILE`: timed lines
//! that press keys' commands, turn the view, aim and take screenshots, so
//! tests and benchmarks play the real window the way a person would.
//!
//! ```text
//! # seconds on the script's clock, then a command
//! 0.5  +forward
//! 2.0  -forward
//! 2.0  turn 90          # yaw degrees (and pitch), as a mouse would
//! 2.5  aim              # keep the view on the nearest other player in sight
//! 2.5  hunt             # and when nobody is in sight, walk towards the nearest
//! 2.5  +attack
//! 4.0  -attack
//! 4.0  +scores
//! 4.5  screenshot scores.png
//! 5.0  quit
//! ```
//!
//! The script's clock runs while the window shows a game or the server
//! list, and stops while a server is being joined (connecting, fetching
//! and loading its map): with an address on the command line the first
//! step counts from the join, and from the server list a step after a
//! join counts the time spent in the list plus the time in the game.
//!
//! A `#` at the start of a line or after a space starts a comment (one
//! inside a word, as in a join address, does not).
//!
//! Anything that is not `turn`, `aim`, `hunt`, `screenshot` or `quit` is a command
//! line run exactly as a key bound to it would run it. Screenshots are
//! written only into the folder `--screenshots` names, under a plain file
//! name ending in `.png`: a script cannot write anywhere else.

use std::path::Path;
use std::time::{Duration, Instant};

/// Largest script file read.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// Most lines a script may have.
pub const MAX_SCRIPT_LINES: usize = 10_000;

/// One thing a script does.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Turn the view by (yaw, pitch) degrees.
    Turn(f32, f32),
    /// Keep the view on the nearest other living player in sight (`true`) or stop (`false`).
    Aim(bool),
    /// Hunt: aim as `Aim`, and while nobody is in sight face the nearest
    /// other living player and walk towards them (`true`), or stop.
    Hunt(bool),
    /// Save the screen as this file name in the screenshot folder.
    Screenshot(String),
    /// Leave and close the window.
    Quit,
    /// A command line, as a key would run it.
    Command(String),
}

/// A parse error with its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct PlayScriptError {
    /// The file.
    pub file: String,
    /// 1-based line (0 for the file as a whole).
    pub line: usize,
    /// What is wrong and what is allowed.
    pub message: String,
}

/// A parsed script: steps in time order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayScript {
    steps: Vec<(Duration, Step)>,
    next: usize,
    /// The clock: time played before the last pause, and when it last started.
    banked: Duration,
    running_since: Option<Instant>,
}

impl PlayScript {
    /// Reads and parses `path` (bounded).
    pub fn load(path: &Path) -> Result<Self, PlayScriptError> {
        let file = path.display().to_string();
        let text = quarry_files::read_text_file(path, MAX_SCRIPT_BYTES)
            .map_err(|e| PlayScriptError { file: file.clone(), line: 0, message: e.problem.to_string() })?;
        Self::parse(&text, &file)
    }

    /// Parses script text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, PlayScriptError> {
        let mut steps = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let err = |message: String| PlayScriptError { file: file.to_owned(), line: i + 1, message };
            if i >= MAX_SCRIPT_LINES {
                return Err(err(format!("more than {MAX_SCRIPT_LINES} lines")));
            }
            let line = without_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            let (at, rest) = line.split_once(char::is_whitespace).ok_or_else(|| err("expected `SECONDS COMMAND`".to_owned()))?;
            let at: f64 = at.parse().ok().filter(|s: &f64| s.is_finite() && (0.0..=86_400.0).contains(s)).ok_or_else(|| {
                err(format!("\"{at}\" is not a time in seconds from 0 to 86400"))
            })?;
            let step = step(rest.trim()).map_err(err)?;
            steps.push((Duration::from_secs_f64(at), step));
        }
        // Stable: lines at the same time keep their order.
        steps.sort_by_key(|(t, _)| *t);
        Ok(PlayScript { steps, next: 0, banked: Duration::ZERO, running_since: None })
    }

    /// Starts the script's clock, or lets it run on after a pause.
    pub fn resume(&mut self, now: Instant) {
        if self.running_since.is_none() {
            self.running_since = Some(now);
        }
    }

    /// Stops the script's clock, keeping the time it has run.
    pub fn pause(&mut self, now: Instant) {
        if let Some(since) = self.running_since.take() {
            self.banked += now.saturating_duration_since(since);
        }
    }

    /// The time on the script's clock at `now`.
    pub fn clock(&self, now: Instant) -> Duration {
        self.banked + self.running_since.map_or(Duration::ZERO, |since| now.saturating_duration_since(since))
    }

    /// The steps due by the script's clock at `now`, in order.
    pub fn due_now(&mut self, now: Instant) -> Vec<Step> {
        self.due(self.clock(now))
    }

    /// The steps due by `elapsed` that have not run yet, in order.
    pub fn due(&mut self, elapsed: Duration) -> Vec<Step> {
        let start = self.next;
        while self.steps.get(self.next).is_some_and(|(t, _)| *t <= elapsed) {
            self.next += 1;
        }
        self.steps[start..self.next].iter().map(|(_, s)| s.clone()).collect()
    }
}

fn step(text: &str) -> Result<Step, String> {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let args: Vec<&str> = words.collect();
    let angle = |s: &str| s.parse::<f32>().ok().filter(|v| v.is_finite() && v.abs() <= 3600.0);
    Ok(match first.to_ascii_lowercase().as_str() {
        "turn" => match args.as_slice() {
            [y] => Step::Turn(angle(y).ok_or("turn: YAW must be degrees within ±3600")?, 0.0),
            [y, p] => Step::Turn(
                angle(y).ok_or("turn: YAW must be degrees within ±3600")?,
                angle(p).ok_or("turn: PITCH must be degrees within ±3600")?,
            ),
            _ => return Err("usage: turn YAW [PITCH]".to_owned()),
        },
        "aim" => match args.as_slice() {
            [] | ["on"] => Step::Aim(true),
            ["off"] => Step::Aim(false),
            _ => return Err("usage: aim [on|off]".to_owned()),
        },
        "hunt" => match args.as_slice() {
            [] | ["on"] => Step::Hunt(true),
            ["off"] => Step::Hunt(false),
            _ => return Err("usage: hunt [on|off]".to_owned()),
        },
        "screenshot" => match args.as_slice() {
            [name] if is_plain_png(name) => Step::Screenshot((*name).to_owned()),
            _ => return Err("usage: screenshot NAME.png (letters, digits, '-', '_' and '.', no folders)".to_owned()),
        },
        "quit" if args.is_empty() => Step::Quit,
        _ => Step::Command(text.to_owned()),
    })
}

/// `line` up to its comment: a `#` at its start or after a space (a `#`
/// inside a word, as in a join address's `/#FINGERPRINT`, is kept).
fn without_comment(line: &str) -> &str {
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if c == '#' && prev.is_whitespace() {
            return &line[..i];
        }
        prev = c;
    }
    line
}

/// A file name a screenshot may take: plain characters, no folder, `.png`.
pub fn is_plain_png(name: &str) -> bool {
    name.len() <= 64
        && name.ends_with(".png")
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_come_due_in_time_order() {
        let mut s = PlayScript::parse("1.0 -forward\n0.5 +forward # go\n\n1.0 turn 90 -10\n2 screenshot a.png\n3 quit\n", "t").expect("parses");
        assert_eq!(s.due(Duration::from_millis(400)), vec![]);
        assert_eq!(s.due(Duration::from_millis(600)), vec![Step::Command("+forward".into())]);
        assert_eq!(s.due(Duration::from_secs(1)), vec![Step::Command("-forward".into()), Step::Turn(90.0, -10.0)]);
        assert_eq!(s.due(Duration::from_secs(5)), vec![Step::Screenshot("a.png".into()), Step::Quit]);
        assert_eq!(s.due(Duration::from_secs(6)), vec![]);
    }

    #[test]
    fn a_join_address_is_not_a_comment() {
        let mut s = PlayScript::parse("#note\n1 connect quarry://h:1/#AB:CD # join\n", "t").expect("parses");
        assert_eq!(s.due(Duration::from_secs(1)), vec![Step::Command("connect quarry://h:1/#AB:CD".into())]);
    }

    #[test]
    fn the_clock_stops_while_paused() {
        let mut s = PlayScript::parse("1 +forward\n2 -forward\n", "t").expect("parses");
        let t0 = Instant::now();
        assert_eq!(s.due_now(t0 + Duration::from_secs(5)), vec![], "a clock not started stands at zero");
        s.resume(t0);
        assert_eq!(s.due_now(t0 + Duration::from_millis(1500)), vec![Step::Command("+forward".into())]);
        s.pause(t0 + Duration::from_millis(1500));
        assert_eq!(s.due_now(t0 + Duration::from_secs(30)), vec![], "joining a server takes no script time");
        s.resume(t0 + Duration::from_secs(30));
        assert_eq!(s.clock(t0 + Duration::from_millis(30_400)), Duration::from_millis(1900));
        assert_eq!(s.due_now(t0 + Duration::from_millis(30_500)), vec![Step::Command("-forward".into())]);
    }

    #[test]
    fn bad_lines_name_their_line_and_what_is_allowed() {
        let e = PlayScript::parse("1 +forward\nsoon +back\n", "s.txt").expect_err("bad time");
        assert_eq!((e.line, e.file.as_str()), (2, "s.txt"));
        assert!(e.message.contains("seconds"));
        for bad in ["1 screenshot ../x.png", "1 screenshot /tmp/x.png", "1 screenshot x.jpg", "1 turn abc", "1 turn 1 2 3", "-1 quit", "nan quit"] {
            assert!(PlayScript::parse(bad, "s").is_err(), "{bad}");
        }
    }
}
