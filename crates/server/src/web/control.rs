//! Playing a recording in the web view (`quarry-server replay FILE --web
//! ADDR`): the controls the page sends (`POST /control?op=...`) and the
//! state of the playback each frame carries.

use serde::{Deserialize, Serialize};

/// Fastest playback, times real time.
pub const MAX_SPEED: f32 = 16.0;
/// Slowest playback, times real time.
pub const MIN_SPEED: f32 = 0.125;
/// Controls waiting for the replay loop at most (more are refused).
pub const CONTROL_QUEUE: usize = 16;

/// What a viewer asks of a replay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReplayControl {
    /// Stop the clock.
    Pause,
    /// Run the clock again.
    Play,
    /// Play at this many times real time ([`MIN_SPEED`] to [`MAX_SPEED`]).
    Speed(f32),
    /// Go to this match tick (backwards means playing again from the start).
    Seek(u32),
}

/// The query of `POST /control`.
#[derive(Debug, Deserialize)]
pub struct ControlQuery {
    /// `pause`, `play`, `speed` or `seek`.
    pub op: String,
    /// The speed or the tick.
    pub value: Option<String>,
}

impl ReplayControl {
    /// The control a query asks for, or what is wrong with it.
    pub fn parse(q: &ControlQuery) -> Result<Self, String> {
        let value = || q.value.as_deref().map(str::trim).ok_or_else(|| format!("'{}' needs a value", q.op));
        match q.op.as_str() {
            "pause" => Ok(Self::Pause),
            "play" => Ok(Self::Play),
            "speed" => {
                let v: f32 = value()?.parse().map_err(|_| format!("speed '{}' is not a number", q.value.as_deref().unwrap_or_default()))?;
                if !(MIN_SPEED..=MAX_SPEED).contains(&v) {
                    return Err(format!("speed {v} is out of range ({MIN_SPEED} to {MAX_SPEED})"));
                }
                Ok(Self::Speed(v))
            }
            "seek" => value()?.parse().map(Self::Seek).map_err(|_| format!("tick '{}' is not a whole number", q.value.as_deref().unwrap_or_default())),
            other => Err(format!("unknown control '{other}' (pause, play, speed, seek)")),
        }
    }
}

/// Where a replay stands, in every frame while one plays.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReplayStatus {
    /// The match tick shown.
    pub tick: u32,
    /// The recording's last tick.
    pub last: u32,
    /// Whether the clock is stopped.
    pub paused: bool,
    /// Times real time.
    pub speed: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(op: &str, value: Option<&str>) -> ControlQuery {
        ControlQuery { op: op.to_owned(), value: value.map(str::to_owned) }
    }

    #[test]
    fn controls_parse_and_bad_ones_say_why() {
        assert_eq!(ReplayControl::parse(&q("pause", None)), Ok(ReplayControl::Pause));
        assert_eq!(ReplayControl::parse(&q("speed", Some("2"))), Ok(ReplayControl::Speed(2.0)));
        assert_eq!(ReplayControl::parse(&q("seek", Some("600"))), Ok(ReplayControl::Seek(600)));
        assert!(ReplayControl::parse(&q("speed", Some("100"))).is_err_and(|e| e.contains("out of range")));
        assert!(ReplayControl::parse(&q("seek", Some("-1"))).is_err_and(|e| e.contains("whole number")));
        assert!(ReplayControl::parse(&q("seek", None)).is_err_and(|e| e.contains("needs a value")));
        assert!(ReplayControl::parse(&q("rewind", None)).is_err_and(|e| e.contains("unknown control")));
    }
}
