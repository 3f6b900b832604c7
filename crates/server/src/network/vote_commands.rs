//! Players' `callvote` and `vote` commands reach the vote rules
//! ([`crate::votes`]) here: the network knows who is a connected human
//! (its clients) and who sent the command; the rules decide.

use std::collections::BTreeSet;

use quarry_sim::{Match, SlotId};

use super::{NetServer, ServerFacts};
use crate::votes::Decision;

/// The most words a vote command is read for: more than a vote takes, so
/// a longer line is refused by the rules rather than cut.
const MAX_WORDS: usize = 4;

impl NetServer {
    /// Runs `line` when it is `callvote` or `vote` (the answer for the
    /// sender; a call is announced to everyone); `None` for other commands.
    pub(super) fn vote_command(&mut self, game: &mut Match, slot: SlotId, name: &str, line: &str, facts: &ServerFacts<'_>) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().take(MAX_WORDS + 1).collect();
        let (first, rest) = words.split_first()?;
        match first.to_ascii_lowercase().as_str() {
            "callvote" => {
                let player = |who: &str| -> Option<(u8, String)> {
                    let id = match who.parse::<u8>() {
                        Ok(n) => game.slots().get(SlotId(n)).map(|_| SlotId(n)),
                        Err(_) => game.slots().find_by_name(who),
                    }?;
                    Some((id.0, game.slots().get(id)?.userinfo.name.clone()))
                };
                Some(match self.votes.call(facts.votes, (slot, name), rest, facts.tick, facts.tick_rate, &player) {
                    Ok(announcement) => {
                        game.print(&announcement);
                        "vote called".to_owned()
                    }
                    Err(e) => format!("callvote: {e}"),
                })
            }
            "vote" => Some(match self.votes.cast(slot, rest) {
                Ok(reply) => reply,
                Err(e) => format!("vote: {e}"),
            }),
            _ => None,
        }
    }

    /// Prints `text` to every player now (not through the match).
    pub fn announce(&mut self, text: &str) {
        self.transport.broadcast(&quarry_net::reliable::ServerMessage::Print(text.to_owned()));
    }

    /// Decides the running vote at tick `tick` among the humans connected
    /// now (this network's clients; bots have none).
    pub fn decide_vote(&mut self, tick: u64) -> Option<Decision> {
        let humans: BTreeSet<SlotId> = self.clients.values().map(|c| c.slot).collect();
        self.votes.decide(tick, &humans)
    }
}
