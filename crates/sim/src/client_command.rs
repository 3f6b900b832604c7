//! Commands a player's client sends (`team NAME`, `kill`), as Quake 3's
//! game module takes them from its engine (`ClientCommand`): the network
//! hands over the text, the game decides and answers with one line.

use crate::Match;
use crate::slots::{SlotId, Team};

/// How much of a client's own text an answer repeats.
const MAX_ECHO_CHARS: usize = 64;

/// Runs `line` for the player in `slot`; returns the answer they are told.
pub fn run(game: &mut Match, slot: SlotId, line: &str) -> String {
    let mut words = line.split_whitespace();
    match (words.next(), words.next()) {
        (Some("team"), Some(t)) => match Team::parse(t) {
            Some(team) => game.set_team(slot, team).map(|()| format!("joined {}", team.name())).unwrap_or_else(|e| e.to_string()),
            None => format!("unknown team '{}' (red, blue, free, spectator)", echo(t)),
        },
        (Some("kill"), None) => {
            game.suicide(slot);
            "you killed yourself".to_owned()
        }
        _ => format!("unknown command '{}' (team NAME, kill)", echo(line)),
    }
}

/// A client's text as an answer may repeat it: no control characters, at
/// most [`MAX_ECHO_CHARS`] characters.
fn echo(text: &str) -> String {
    let mut out: String = text.chars().filter(|c| !c.is_control()).take(MAX_ECHO_CHARS).collect();
    if text.chars().count() > MAX_ECHO_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::echo;

    #[test]
    fn an_echo_drops_control_characters_and_stops_at_its_length() {
        assert_eq!(echo("te\u{1b}[2Jam"), "te[2Jam");
        let long = "x".repeat(100);
        assert_eq!(echo(&long).chars().count(), super::MAX_ECHO_CHARS + 1);
    }
}
