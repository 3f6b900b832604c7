//! Errors that stop a map from loading, and the reason a loaded map cannot
//! host a match.
//!
//! Everything smaller than "the file cannot be used at all" is a
//! [`MapWarning`](crate::MapWarning), not an error: a bad brush is skipped, an
//! unknown entity is kept as generic, and the rest of the map loads.

use std::path::PathBuf;

use thiserror::Error;

/// Why [`load`](crate::load) could not produce a map.
#[derive(Debug, Error)]
pub enum MapLoadError {
    /// The path does not exist.
    #[error("map file not found: {}", path.display())]
    NotFound {
        /// The path that was asked for.
        path: PathBuf,
    },
    /// The file exists but could not be read.
    #[error("cannot read map {}: {source}", path.display())]
    Io {
        /// The file being read.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, FIFO, socket or
    /// device, also through a symlink): reading it could block forever or
    /// never end.
    #[error("{} is not a regular file ({kind}); a map must be a regular file", path.display())]
    NotARegularFile {
        /// The offending path.
        path: PathBuf,
        /// What it is instead, e.g. "a FIFO".
        kind: &'static str,
    },
    /// The file is larger than [`LoadOptions::max_file_bytes`](crate::LoadOptions::max_file_bytes).
    #[error("{} is too large: {size} bytes or more, a map may have at most {limit}", path.display())]
    TooLarge {
        /// The offending file.
        path: PathBuf,
        /// Bytes found (a lower bound when the file grew while read).
        size: u64,
        /// The limit in force.
        limit: u64,
    },
    /// The file is not Quake .map text (wrong extension or not entity text).
    #[error("{} is not a .map file: {reason}", path.display())]
    NotAMap {
        /// The offending file.
        path: PathBuf,
        /// What gave it away, e.g. "extension is .bsp".
        reason: String,
    },
    /// The file parsed but has no `worldspawn` entity, so it has no world.
    #[error("{}: no worldspawn entity", path.display())]
    NoWorldspawn {
        /// The offending file.
        path: PathBuf,
    },
    /// The entity structure is broken beyond the brush being parsed (e.g. an
    /// unterminated entity), so nothing after it can be trusted.
    #[error("{}:{line}: {}parse error: {message}", path.display(), entity_prefix(*entity))]
    Parse {
        /// The offending file.
        path: PathBuf,
        /// 1-based line of the offending token.
        line: u32,
        /// Index of the entity being parsed, in file order, if inside one.
        entity: Option<usize>,
        /// What was expected and what was found.
        message: String,
    },
}

fn entity_prefix(entity: Option<usize>) -> String {
    entity.map(|e| format!("entity {e}: ")).unwrap_or_default()
}

/// Why a map that loaded cannot be used to start a match.
///
/// See [`LoadedMap::check_playable`](crate::LoadedMap::check_playable).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotPlayable {
    /// The map has no player spawn entity of any kind.
    #[error("map has no player spawn points (info_player_deathmatch, info_player_start or team spawns)")]
    NoSpawnPoints,
    /// Every spawn point has its player box stuck in solid, even after the nudge.
    #[error("all {count} spawn points are inside solid")]
    AllSpawnsInSolid {
        /// How many spawn points the map has.
        count: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_context() {
        let e = MapLoadError::Parse {
            path: "maps/x.map".into(),
            line: 12,
            entity: Some(3),
            message: "expected `}`".into(),
        };
        assert_eq!(e.to_string(), "maps/x.map:12: entity 3: parse error: expected `}`");
        let e = MapLoadError::NoWorldspawn { path: "a.map".into() };
        assert_eq!(e.to_string(), "a.map: no worldspawn entity");
        let e = MapLoadError::TooLarge { path: "big.map".into(), size: 70, limit: 64 };
        assert_eq!(e.to_string(), "big.map is too large: 70 bytes or more, a map may have at most 64");
        let e = MapLoadError::NotARegularFile { path: "x.map".into(), kind: "a FIFO" };
        assert_eq!(e.to_string(), "x.map is not a regular file (a FIFO); a map must be a regular file");
        assert!(NotPlayable::NoSpawnPoints.to_string().contains("no player spawn"));
    }
}
