//! Quarry's reference client: join a server, send input, see what it sends.
//!
//! What it is:
//!
//! - [`Client`]: one connection to a server over [`quarry_net::transport`].
//!   [`Client::pump`] (never blocks) takes in what arrived, applies
//!   snapshots to a [`View`] (the own player, every other entity by id,
//!   the nearest ones sorted by distance) and collects [`Notice`]s (chat,
//!   prints, scoreboards, map changes). [`Client::send_cmd`] sends one
//!   [`UserCmd`] (the movement core's, the one command type of client,
//!   wire and server), stamped with the tick the client aims at;
//!   [`Client::say`] and [`Client::say_team`] chat; [`Client::stats`]
//!   reports bytes per second, snapshot rate, loss and ping.
//! - Input drivers ([`input`]): [`ScriptInput`] (a file of timed
//!   commands), [`RandomInput`] (seeded random play) and [`IdleInput`].
//! - [`Driver`]: a client, an input and a command rate; call
//!   [`Driver::tick`] in a loop. Many drivers run fine from one thread,
//!   which is how end-to-end and load tests drive N players
//!   ([`run_drivers`] is that loop).
//! - The `quarry-client` binary (thin: it parses arguments, loops a
//!   [`Driver`] and prints with [`report`]).
//!
//! - [`predict`]: the own player's movement predicted with the server's
//!   own pmove from the acknowledged state and the commands sent since.
//! - [`map_store`]: the server's map by content hash, from the `--maps`
//!   folders, the user's cache, or downloaded ([`Client::fetch_map`]).
//!
//! What it must not do: simulate anything but the own player's movement
//! (the rest is what the server says), touch the server's internals (only
//! the wire protocol in `quarry_net`, and the command and pmove of
//! `quarry_movement`), or panic on anything a server or a script file
//! contains.
//!
//! ```no_run
//! use std::time::{Duration, Instant};
//! use quarry_client::{Client, ClientOptions, Driver, RandomInput};
//!
//! let addr = "127.0.0.1:27960".parse().unwrap();
//! let mut drivers: Vec<Driver> = (0..8)
//!     .map(|i| {
//!         let client = Client::connect(ClientOptions::insecure(addr, format!("p{i}"))).unwrap();
//!         Driver::new(client, Box::new(RandomInput::new(i)), 60.0)
//!     })
//!     .collect();
//! let end = Instant::now() + Duration::from_secs(5);
//! while Instant::now() < end {
//!     for d in &mut drivers {
//!         d.tick(Instant::now()).unwrap();
//!     }
//!     std::thread::sleep(Duration::from_millis(5));
//! }
//! ```

mod atomic;
mod client;
mod driver;
mod error;
pub mod browse;
pub mod mode;
pub mod input;
pub mod join;
pub mod predict;
pub mod load;
pub mod map_store;
mod notice;
mod options;
pub mod play;
pub mod report;
pub mod services;
mod stats;
mod view;

pub use client::{Client, Status};
pub use driver::{Driver, Pacer, Progress, run_drivers};
pub use error::{ClientError, ConnectError};
pub use input::{
    Action, Frame, IdleInput, Input, RandomInput, ScriptError, ScriptErrorKind, ScriptInput,
};
pub use map_store::{MapDownload, MapFetchError, MapFile, MapStore};
pub use notice::{ChatLine, Notice};
pub use options::{ClientOptions, DEFAULT_PORT, Trust, resolve};
pub use stats::{ClientStats, SessionStats};
pub use view::{EntityView, View};

/// The command an input fills and [`Client::send_cmd`] sends: the movement
/// core's, the one command type of client, wire and server.
pub use quarry_movement::{Buttons, UserCmd};

/// The wire types the API above hands out, re-exported so users need not
/// name `quarry_net` for the common cases.
pub use quarry_net::{
    cert::Fingerprint,
    handshake::{RejectReason, Welcome},
    map_transfer::{MapHash, MapRefusal},
    reliable::{ChatScope, DisconnectReason, ModeUpdate, Scoreboard},
    snapshot::{EntityKind, PlayerState},
};
