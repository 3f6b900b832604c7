//! `quarry-client play`: a window, a first-person view of the match,
//! keyboard and mouse, and the own player predicted with the server's
//! pmove.
//!
//! The parts, each its own module:
//!
//! - [`session`]: the connection, prediction and interpolation (no
//!   window: a test can drive it);
//! - [`world_mesh`] and [`look`]: the map's brush faces as coloured
//!   triangles, from the same convex hulls the server traces against;
//!   [`gpu`] puts them on the GPU;
//! - [`scene`]: the camera, players, items, projectiles and flags;
//! - [`effects`]: what the snapshots' events show for a moment (beams,
//!   explosions, the hit marker, where a hurt came from);
//! - [`hud`]: everything drawn over the view;
//! - [`controls`] and [`keys`]: bindings, held actions, settings and the
//!   config file;
//! - [`sound`], [`synth`] (and `speakers` with the `audio` feature): what
//!   is heard, made here, placed by where it happened;
//! - [`script`]: timed command lines that play the window in tests;
//! - [`demo`]: a recording played in the window, with pause, speed and seek;
//! - [`server_list`] and `browser`: the server list shown when no server
//!   is given (the masters asked through [`crate::browse`], as
//!   `quarry-client list` does), joining the server picked, and back to
//!   the list when the game ends;
//! - [`screenshot`]: the window's picture as a PNG;
//! - [`app`]: the frame loop that ties them together.
//!
//! The window comes from macroquad (on miniquad), which loads X11 and
//! OpenGL at run time; `docs/DESIGN.md` says why it was chosen.

mod app;
mod browser;
pub mod controls;
pub mod demo;
pub mod effects;
pub mod gpu;
pub mod hud;
pub mod keys;
pub mod look;
pub mod scene;
pub mod screenshot;
pub mod script;
pub mod server_list;
pub mod session;
pub mod sound;
#[cfg(feature = "audio")]
pub mod speakers;
pub mod synth;
pub mod world_mesh;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::options::ClientOptions;

pub use app::{EventCounts, PlayReport, run};
pub use browser::BrowserOptions;

/// Everything `play` is told on its command line.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// How to reach the server and who to be.
    pub client: ClientOptions,
    /// Folders searched for the server's map (by its hash; the cache and a download follow).
    pub maps: Vec<PathBuf>,
    /// Scripted input instead of the keyboard and mouse.
    pub script: Option<PathBuf>,
    /// Where screenshots go.
    pub screenshots: PathBuf,
    /// Window size.
    pub width: u32,
    /// Window size.
    pub height: u32,
    /// Start fullscreen.
    pub fullscreen: bool,
    /// The settings file (bindings and settings), `None` for none.
    pub config: Option<PathBuf>,
    /// Write every frame's time (ms, one per line) here on quitting.
    pub frame_times: Option<PathBuf>,
    /// Most frames per second (the window is not throttled by vsync under Xvfb).
    pub max_fps: f32,
    /// Leave after this long.
    pub quit_after: Option<Duration>,
    /// Print the network figures once a second.
    pub stats: bool,
    /// Play this recording instead of joining a server.
    pub demo: Option<PathBuf>,
    /// Whom to watch in the demo first (a player's name).
    pub follow: Option<String>,
    /// Open the server list instead of joining `client`'s server.
    pub browser: Option<BrowserOptions>,
}

/// Why `play` stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The server refused or could not be reached.
    #[error(transparent)]
    Connect(#[from] crate::error::ConnectError),
    /// The map the server runs could not be had (not on disk, and the
    /// server would not send it), in the store's or the server's words.
    #[error("{0}")]
    MapFetch(String),
    /// The map file would not load.
    #[error("{0}")]
    MapLoad(#[from] quarry_map::MapLoadError),
    /// The script file is bad.
    #[error(transparent)]
    Script(#[from] script::PlayScriptError),
    /// The GPU refused the map.
    #[error(transparent)]
    Gpu(#[from] gpu::GpuError),
    /// The connection failed while playing.
    #[error(transparent)]
    Client(#[from] crate::error::ClientError),
    /// The demo could not be played.
    #[error("{0}")]
    Demo(String),
    /// A file could not be written.
    #[error("could not write {path}: {reason}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// `dirs` and the folders directly inside each (so `--maps ../shared/maps`
/// reaches `../shared/maps/q3/`), in order, each once.
pub fn with_subfolders(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in dirs {
        out.push(dir.clone());
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut subdirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        subdirs.sort();
        out.extend(subdirs);
    }
    out.dedup();
    out
}

/// The settings file in the user's config folder (`client.cfg` beside
/// `known_servers`).
pub fn default_config_path() -> Option<PathBuf> {
    crate::join::KnownServers::default_path().and_then(|p| p.parent().map(|d| d.join("client.cfg")))
}

/// Writes `bytes` to `path` whole (a temporary file renamed into place).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), PlayError> {
    crate::atomic::write_file(path, bytes).map_err(|e| PlayError::Write { path: path.to_owned(), reason: e.to_string() })
}
