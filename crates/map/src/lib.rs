//! `quarry-map`: Quake-family `.map` files to Quarry's collision world and
//! typed entities.
//!
//! ```no_run
//! use quarry_map::{Contents, LoadOptions, Trace};
//! use glam::Vec3;
//!
//! let map = quarry_map::load("maps/qdm1.map", &LoadOptions::default())?;
//! map.check_playable()?;
//! println!("{}", map.info());
//! let (mins, maxs) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));
//! let tr = map.trace(Vec3::ZERO, Vec3::new(64.0, 0.0, 0.0), mins, maxs, Contents::MASK_PLAYER_SOLID);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What it does, in load order:
//!
//! 1. [`parse`](crate::Dialect): Quake 1 standard, Valve 220, Quake 3 brushes,
//!    `brushDef` and `patchDef2`, with line numbers for every warning;
//! 2. brushes to convex hulls (plane triples in `f64`), patches to triangles;
//! 3. contents from texture names through one table ([`contents`]);
//! 4. entities through one class table ([`entities`]), links resolved;
//! 5. the [`CollisionWorld`] with Quake-semantics [`trace`](Trace::trace),
//!    [`point_contents`](CollisionWorld::point_contents) and
//!    [`box_contents`](CollisionWorld::box_contents); movers the sim can offset;
//! 6. spawn points checked to fit the player box; [`MapInfo`] and OBJ export.
//!
//! What it must not do: know about ECS, bots, networking or game rules.
//! Nothing read from a file may panic: bad content is a [`MapWarning`]
//! contained to its brush, patch, entity or key; only an unusable file is a
//! [`MapLoadError`].

pub mod contents;
pub mod entities;
mod error;
pub mod fuzz;
mod geometry;
mod info;
mod jump_pad;
mod loaded;
mod obj;
mod options;
mod parse;
pub mod source;
mod spawns;
pub mod surfaces;
#[cfg(test)]
mod test_util;
mod warning;
mod world;

pub use contents::Contents;
pub use entities::{Entity, EntityId, EntityKind, Game, PlayerSpawn, SpawnKind, Team, WorldInfo};
pub use error::{MapLoadError, NotPlayable};
pub use info::{MapInfo, SpawnInfo};
pub use jump_pad::jump_pad_velocity;
pub use loaded::{LoadedMap, load, load_source, load_str, load_with_bytes};
pub use obj::ObjOptions;
pub use options::{DEFAULT_MAX_FILE_BYTES, DEFAULT_WORLD_LIMIT, LoadOptions};
pub use parse::Dialect;
pub use surfaces::{Surface, Surfaces};
pub use warning::{Budget, MapWarning, SkipReason, SourceLocation, WarningKind};
pub use world::build::SkippedPrimitive;
pub use world::clip::SURFACE_CLIP_EPSILON;
pub use world::{CollisionWorld, HullCounts, MoverId, Nearby, ParryHull, Trace, TraceResult};
