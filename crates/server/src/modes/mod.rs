//! The binary's modes besides running a server: each drives a
//! [`crate::server::Server`] of its own.
//!
//! | file | what |
//! |---|---|
//! | `replay.rs` | [`replay::replay`]: a recording's match built again from its header, the journal applied and the commands pushed before each tick, every stored hash checked |
//! | `watch.rs` | [`watch::watch`]: a recording played at real time in the web view, with pause, speed and seek |
//! | `demo.rs` | [`demo::DemoFeed`]: a recording played to one viewer (`quarry-client play --demo`) as the network would have served the followed player |
//! | `card.rs` | [`card::run`]: every match of a card headless, a bot standing in for the player, and the results table |

pub mod card;
pub mod demo;
pub mod replay;
pub mod watch;
