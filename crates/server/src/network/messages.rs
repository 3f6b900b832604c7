//! The reliable lines a tick's events make, and who hears each: chat by
//! its scope, obituaries, flag, freeze and round lines to everyone, a print
//! to its one slot. The network sends them; a demo played in the client
//! ([`crate::modes::demo`]) hands the followed player's share to its view.

use quarry_net::reliable::{ChatScope as WireScope, ServerMessage};
use quarry_sim::chat::ChatScope;
use quarry_sim::events::GameEvent;
use quarry_sim::{Match, SlotId};

/// Who hears a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Every client.
    All,
    /// These slots (a chat line's recipients).
    Slots(Vec<SlotId>),
    /// One slot.
    Slot(SlotId),
}

impl Audience {
    /// Whether `slot` hears it (`None`, a free camera, hears what all do).
    pub fn includes(&self, slot: Option<SlotId>) -> bool {
        match (self, slot) {
            (Audience::All, _) => true,
            (Audience::Slots(slots), Some(s)) => slots.contains(&s),
            (Audience::Slot(one), Some(s)) => *one == s,
            (_, None) => false,
        }
    }
}

/// The messages `events` make, in order, each with who hears it.
pub fn event_messages(game: &Match, events: &[GameEvent]) -> Vec<(Audience, ServerMessage)> {
    let mut out = Vec::new();
    for ev in events {
        match ev {
            GameEvent::Chat { from, name, scope, text } => {
                let name = if from.is_some() { name.clone() } else { "server".to_owned() };
                let wire_scope = match scope {
                    ChatScope::All => WireScope::All,
                    ChatScope::Team(_) => WireScope::Team,
                };
                let msg = ServerMessage::Chat { from: from.map(|s| s.0), name, scope: wire_scope, text: text.clone() };
                out.push((Audience::Slots(game.chat_recipients(*scope)), msg));
            }
            GameEvent::Print { to: None, text } => out.push((Audience::All, ServerMessage::Print(text.clone()))),
            GameEvent::Print { to: Some(slot), text } => out.push((Audience::Slot(*slot), ServerMessage::Print(text.clone()))),
            GameEvent::Kill { killer, victim, means } => {
                out.push((Audience::All, ServerMessage::Print(game.obituary(*killer, *victim, *means))));
            }
            GameEvent::Flag { kind, team, slot } => {
                let who = slot.and_then(|s| game.slots().get(s)).map(|s| s.userinfo.name.clone());
                let line = quarry_sim::flags::flag_line(*kind, *team, who.as_deref());
                out.push((Audience::All, ServerMessage::Print(line)));
            }
            GameEvent::Frozen { .. } | GameEvent::Thawed { .. } => {
                if let Some(line) = quarry_sim::modes::freeze::freeze_line(ev, game.slots()) {
                    out.push((Audience::All, ServerMessage::Print(line)));
                }
            }
            GameEvent::RoundStart { number } => out.push((Audience::All, ServerMessage::Print(format!("Round {number}: fight!")))),
            GameEvent::RoundEnd { number, winner, reason } => {
                let line = quarry_sim::modes::rounds::round_end_line(*number, *winner, *reason);
                out.push((Audience::All, ServerMessage::Print(line)));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Audience;
    use quarry_sim::SlotId;

    #[test]
    fn who_hears_what() {
        let team = Audience::Slots(vec![SlotId(1), SlotId(3)]);
        assert!(team.includes(Some(SlotId(3))));
        assert!(!team.includes(Some(SlotId(2))));
        assert!(!team.includes(None), "a free camera hears no team's chat");
        assert!(Audience::All.includes(None));
        assert!(Audience::Slot(SlotId(2)).includes(Some(SlotId(2))));
        assert!(!Audience::Slot(SlotId(2)).includes(None));
    }
}
