//! Bot chat: what a character says when things happen, and how it answers
//! what people say.
//!
//! | module | does |
//! |---|---|
//! | `text` | normalisation, whole-word phrase matching, visible length, forbidden leading characters |
//! | `event` | [`ChatEvent`]s, `$tokens` and which event fills which |
//! | `bank` | [`ChatBank`]: one character's lines and reply rules; rule and line choice |
//! | `parse`, `load` | the `botfiles/chats/*.chat` grammar and loader (joined to characters by name) |
//! | `director` | [`ChatDirector`]: chance, typing delay, throttles, replies; pure logic over ticks |
//! | `signals` | [`ChatSignals`]: chat events derived from a tick's game events and the scoreboard |
//! | `host` | [`ChatHost`]: the above driven from a `BotView` and the brains, for the manager |
//!
//! A bot speaks only through its own slot's `CmdSink::say`, the path a
//! person's `say` takes; never as the server. Event lines go to everyone;
//! a reply goes back on the channel it answers (team chat stays in the
//! team). The manager wires the pieces together; nothing here reads or
//! writes a match.

pub mod bank;
pub mod director;
pub mod event;
pub mod host;
pub mod load;
pub mod parse;
pub mod signals;
pub mod team_calls;
pub mod text;

pub use bank::{Addressed, ChatBank, ChatLine, ReplyRule, ReplySource};
pub use director::{ChatBot, ChatDirector, ChatFigures, ChatSettings, Incoming, LineKind, Outgoing};
pub use event::{ChatEvent, ChatTokens, Token, TokenSet};
pub use host::ChatHost;
pub use load::{add_chat_text, load_chats};
pub use signals::{ChatSignals, Signal};

#[cfg(test)]
mod tests;
