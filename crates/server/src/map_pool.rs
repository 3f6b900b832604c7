//! The map pool: which maps each game type plays, from the file named by
//! `sv_mapPoolFile` (one `map|gametype` a line, `#` comments). `maplist`
//! shows the current game type's maps, `nextmap` loads the one after the
//! current map, and a match's end does the same when the pool has maps for
//! the game type (else `sv_mapRotation` applies).
//!
//! The file is read each time it is needed (it is small and an operator
//! edits it while the server runs), bounded by [`MAX_POOL_BYTES`]; a bad
//! line is reported with its file and line number and skipped.

use std::path::Path;

use quarry_sim::rules::GameType;

/// The largest pool file read (thousands of lines).
pub const MAX_POOL_BYTES: u64 = 1 << 20;

/// The longest map name or path a line may give.
const MAX_MAP_CHARS: usize = 200;

/// The maps of each game type, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapPool {
    entries: Vec<(String, GameType)>,
}

/// What was wrong with a line of the pool file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapPoolLineKind {
    /// No `|` between map and game type.
    #[error("expected map|gametype")]
    NoSeparator,
    /// The map part is empty, has spaces or is too long.
    #[error("'{0}' is not a map name (no spaces, at most 200 characters)")]
    BadMap(String),
    /// The game type is not one the server knows.
    #[error("unknown game type '{0}' (one of the names g_gametype takes)")]
    UnknownGameType(String),
}

/// A skipped line of the pool file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {kind}; line skipped")]
pub struct MapPoolLineError {
    /// The file.
    pub file: String,
    /// The line number, from 1.
    pub line: usize,
    /// What was wrong.
    pub kind: MapPoolLineKind,
}

impl MapPool {
    /// Parses the text of `file`; bad lines are returned and skipped.
    pub fn parse(text: &str, file: &str) -> (Self, Vec<MapPoolLineError>) {
        let mut pool = Self::default();
        let mut errors = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            match parse_line(line) {
                Ok(entry) => pool.entries.push(entry),
                Err(kind) => errors.push(MapPoolLineError { file: file.to_owned(), line: i + 1, kind }),
            }
        }
        (pool, errors)
    }

    /// Reads and parses `path` (bounded; a FIFO or device is refused).
    pub fn load(path: &Path) -> Result<(Self, Vec<MapPoolLineError>), String> {
        let text = quarry_console::read_text_file(path, MAX_POOL_BYTES).map_err(|e| format!("sv_mapPoolFile: {e}"))?;
        Ok(Self::parse(&text, &path.display().to_string()))
    }

    /// The maps of `gametype`, in file order.
    pub fn maps_for(&self, gametype: GameType) -> Vec<&str> {
        self.entries.iter().filter(|(_, g)| *g == gametype).map(|(m, _)| m.as_str()).collect()
    }

    /// The map after `current` among `gametype`'s (wrapping; the first when
    /// `current` is not among them); `None` when it has none.
    pub fn next_after(&self, gametype: GameType, current: Option<&Path>) -> Option<String> {
        let maps = self.maps_for(gametype);
        let stem = |m: &str| Path::new(m).file_stem().map(|s| s.to_string_lossy().to_lowercase());
        let current = current.and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().to_lowercase());
        let next = match maps.iter().position(|m| stem(m) == current) {
            Some(i) => maps.get((i + 1) % maps.len()),
            None => maps.first(),
        };
        next.map(|m| (*m).to_owned())
    }
}

fn parse_line(line: &str) -> Result<(String, GameType), MapPoolLineKind> {
    let (map, gametype) = line.split_once('|').ok_or(MapPoolLineKind::NoSeparator)?;
    let (map, gametype) = (map.trim(), gametype.trim());
    if map.is_empty() || map.contains(char::is_whitespace) || map.chars().count() > MAX_MAP_CHARS || map.contains(char::is_control) {
        return Err(MapPoolLineKind::BadMap(map.chars().filter(|c| !c.is_control()).take(64).collect()));
    }
    let gt = GameType::parse(gametype).ok_or_else(|| MapPoolLineKind::UnknownGameType(gametype.chars().filter(|c| !c.is_control()).take(32).collect()))?;
    Ok((map.to_owned(), gt))
}

/// The pool `sv_mapPoolFile` names (`file`, relative to `config_dir`
/// unless a path): `None` when the cvar is empty; the file's problems
/// as lines to print.
pub fn pool_from(file: &str, config_dir: &Path) -> Option<(MapPool, Vec<String>)> {
    let file = file.trim();
    if file.is_empty() {
        return None;
    }
    let path = if Path::new(file).is_absolute() { Path::new(file).to_owned() } else { config_dir.join(file) };
    Some(match MapPool::load(&path) {
        Ok((pool, errors)) => (pool, errors.iter().map(ToString::to_string).collect()),
        Err(e) => (MapPool::default(), vec![e]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_give_maps_per_game_type_and_bad_ones_are_numbered() {
        let text = "# pool\nq_dm1|ffa\nq_ctf1 | ctf # flags\nq_dm2|ffa\n\nno separator\nbad name|ffa\nq_dm3|soccer\n";
        let (pool, errors) = MapPool::parse(text, "pool.txt");
        assert_eq!(pool.maps_for(GameType::Ffa), ["q_dm1", "q_dm2"]);
        assert_eq!(pool.maps_for(GameType::Ctf), ["q_ctf1"]);
        assert!(pool.maps_for(GameType::Duel).is_empty());
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("pool.txt:6: expected map|gametype"), "{lines:?}");
        assert!(lines[1].starts_with("pool.txt:7: 'bad name' is not a map name"), "{lines:?}");
        assert!(lines[2].starts_with("pool.txt:8: unknown game type 'soccer'"), "{lines:?}");
    }

    #[test]
    fn the_next_map_wraps_and_starts_from_the_first() {
        let (pool, _) = MapPool::parse("q_dm1|ffa\nmaps/q_dm2.map|ffa\nq_ctf1|ctf\n", "p");
        assert_eq!(pool.next_after(GameType::Ffa, Some(Path::new("maps/q_dm1.map"))).as_deref(), Some("maps/q_dm2.map"));
        assert_eq!(pool.next_after(GameType::Ffa, Some(Path::new("maps/q_dm2.map"))).as_deref(), Some("q_dm1"));
        assert_eq!(pool.next_after(GameType::Ffa, Some(Path::new("maps/q_ctf1.map"))).as_deref(), Some("q_dm1"));
        assert_eq!(pool.next_after(GameType::Duel, None), None);
    }
}
