//! Loading a file into a [`LoadedMap`]: the entry point the server, the
//! sim, the navmesh and the tools call.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glam::Vec3;

use crate::contents::Contents;
use crate::entities::{Entity, EntityId, EntityKind, Extracted, Game, PlayerSpawn, WorldInfo, extract_entities, resolve_targets};
use crate::error::{MapLoadError, NotPlayable};
use crate::options::LoadOptions;
use crate::parse::{Dialect, ParseLimits, RawMap, looks_like_map, parse_map};
use crate::spawns::fit_spawns;
use crate::warning::{Budget, MapWarning, SourceLocation, WarningKind};
use crate::world::build::{BuildReport, SkippedPrimitive, build_world};
use crate::world::{CollisionWorld, Trace, TraceResult};

/// Most warnings logged through `tracing` per load: a hostile file can
/// hold tens of thousands of broken brushes, and logging each would flood
/// the log. [`LoadedMap::warnings`] keeps them all.
const MAX_LOGGED_WARNINGS: usize = 100;

/// A loaded map: the collision world, the typed entities, and what loading
/// found. Obtain one with [`load`] or [`load_str`].
#[derive(Debug, Clone)]
pub struct LoadedMap {
    pub(crate) name: String,
    pub(crate) dialect: Dialect,
    pub(crate) game: Game,
    pub(crate) world: CollisionWorld,
    pub(crate) entities: Vec<Entity>,
    pub(crate) world_info: WorldInfo,
    pub(crate) warnings: Vec<MapWarning>,
    pub(crate) report: BuildReport,
    pub(crate) load_time: Duration,
}

/// Loads a `.map` file.
///
/// Fails only if the file is missing or unreadable, is not a regular file
/// or larger than [`LoadOptions::max_file_bytes`], is not a `.map`, has a
/// broken entity structure, or has no worldspawn. Bad brushes, unknown
/// entities and bad keys are warnings ([`LoadedMap::warnings`]), also logged
/// through `tracing`. A map without usable spawn points loads;
/// [`LoadedMap::check_playable`] says whether a match can start on it.
pub fn load(path: impl AsRef<Path>, options: &LoadOptions) -> Result<LoadedMap, MapLoadError> {
    load_with_bytes(path, options).map(|(map, _)| map)
}

/// Loads a `.map` file as [`load`] does and also gives back the file's
/// bytes exactly as read: what a server hashes and sends to a client that
/// lacks the map, so the copy it sends is the one it runs (reading the file
/// a second time could find it changed).
pub fn load_with_bytes(path: impl AsRef<Path>, options: &LoadOptions) -> Result<(LoadedMap, Vec<u8>), MapLoadError> {
    let start = Instant::now();
    let path = path.as_ref();
    let extension = path.extension().map(|e| e.to_string_lossy().into_owned());
    if !extension.as_deref().is_some_and(|e| e.eq_ignore_ascii_case("map")) {
        let reason = match extension {
            Some(e) => format!("extension is .{e}"),
            None => "no .map extension".to_owned(),
        };
        return Err(MapLoadError::NotAMap { path: path.to_owned(), reason });
    }
    let bytes = read_map_file(path, options.max_file_bytes)?;
    let map = load_bytes(&bytes, path, options, start)?;
    Ok((map, bytes))
}

/// Reads a whole map file through [`quarry_files::read_file_bytes`]: a
/// regular file only (checked before opening, so a FIFO never blocks and a
/// device never streams forever), at most `limit` bytes.
fn read_map_file(path: &Path, limit: u64) -> Result<Vec<u8>, MapLoadError> {
    use quarry_files::ReadProblem;
    quarry_files::read_file_bytes(path, limit).map_err(|e| match e.problem {
        ReadProblem::NotFound => MapLoadError::NotFound { path: path.to_owned() },
        ReadProblem::NotRegular { found } => MapLoadError::NotARegularFile { path: path.to_owned(), kind: found },
        ReadProblem::TooLarge { limit } => {
            // The size on disk (a lower bound if the file grew while read).
            let size = std::fs::metadata(path).map_or(limit.saturating_add(1), |m| m.len().max(limit.saturating_add(1)));
            MapLoadError::TooLarge { path: path.to_owned(), size, limit }
        }
        ReadProblem::Io { kind, message } => MapLoadError::Io { path: path.to_owned(), source: std::io::Error::new(kind, message) },
        // The bytes reader does not decode; only the text reader says this.
        ReadProblem::NotUtf8 { line } => {
            MapLoadError::Io { path: path.to_owned(), source: std::io::Error::other(format!("not UTF-8 at line {line}")) }
        }
    })
}

/// Loads map text held in memory; `name` stands in for the file name in
/// warnings and errors. Used by tests with synthetic maps.
pub fn load_str(text: &str, name: &str, options: &LoadOptions) -> Result<LoadedMap, MapLoadError> {
    load_source(text.as_bytes(), name, options)
}

/// Loads a map file's bytes held in memory (a client's downloaded or
/// cached copy) exactly as [`load`] loads the file: the same parse, the
/// same collision world. `name` stands in for the file name in warnings and
/// errors. Bytes over [`LoadOptions::max_file_bytes`] are refused as a file
/// of that size would be.
pub fn load_source(bytes: &[u8], name: &str, options: &LoadOptions) -> Result<LoadedMap, MapLoadError> {
    let size = bytes.len() as u64;
    if size > options.max_file_bytes {
        return Err(MapLoadError::TooLarge { path: PathBuf::from(name), size, limit: options.max_file_bytes });
    }
    load_bytes(bytes, Path::new(name), options, Instant::now())
}

fn load_bytes(bytes: &[u8], path: &Path, options: &LoadOptions, start: Instant) -> Result<LoadedMap, MapLoadError> {
    let file = path.display().to_string();
    if !looks_like_map(bytes) {
        let reason = if bytes.iter().all(u8::is_ascii_whitespace) { "the file is empty" } else { "it does not start with an entity `{`" };
        return Err(MapLoadError::NotAMap { path: path.to_owned(), reason: reason.to_owned() });
    }
    let mut raw = parse_map(bytes, &ParseLimits::of(options)).map_err(|e| MapLoadError::Parse {
        path: path.to_owned(),
        line: e.line,
        entity: e.entity,
        message: e.message,
    })?;
    let game = game_of(&raw);
    let mut warnings = Vec::new();
    let Extracted { mut entities, classes, dropped } = extract_entities(&raw.entities, game, &file, options.world_limit, &mut warnings);
    for i in dropped {
        if let Some(e) = raw.entities.get_mut(i) {
            e.primitives.clear();
        }
    }
    if !entities.iter().any(|e| e.kind == EntityKind::World) {
        return Err(MapLoadError::NoWorldspawn { path: PathBuf::from(path) });
    }
    let classnames: Vec<&str> = entities.iter().map(|e| e.classname.as_str()).collect();
    let (world, report) = build_world(&raw, &classes, &classnames, &file, options);
    for (e, bounds) in entities.iter_mut().zip(&report.entity_bounds) {
        e.bounds = *bounds;
    }
    resolve_targets(&mut entities, &file, &mut warnings);
    let world_info = crate::entities::world_info(&raw.entities, &entities, &file, &mut warnings);
    fit_spawns(&mut entities, &world, options, &file, &mut warnings);
    let skipped = report.skipped.iter().map(|s| MapWarning {
        location: s.location.clone(),
        kind: WarningKind::Skipped { reason: s.reason.clone() },
    });
    let budgets = [
        (Budget::Entities, options.max_entities, raw.dropped_entities),
        (Budget::Primitives, options.max_primitives, raw.dropped_primitives),
        (Budget::Keys, options.max_entity_keys, raw.dropped_keys),
    ];
    let over_budget = budgets.into_iter().filter_map(|(budget, limit, d)| {
        let (line, entity, primitive) = d.first?;
        let location = SourceLocation { file: file.clone(), line, entity: Some(entity), primitive };
        Some(MapWarning { location, kind: WarningKind::OverBudget { budget, limit, dropped: d.count } })
    });
    let front: Vec<MapWarning> = over_budget.chain(skipped).collect();
    warnings.splice(0..0, front);
    for w in warnings.iter().take(MAX_LOGGED_WARNINGS) {
        tracing::warn!(target: "quarry_map", "{w}");
    }
    if warnings.len() > MAX_LOGGED_WARNINGS {
        let more = warnings.len() - MAX_LOGGED_WARNINGS;
        tracing::warn!(target: "quarry_map", "{file}: {more} more warnings not logged (LoadedMap::warnings has them all)");
    }
    Ok(LoadedMap { name: file, dialect: raw.dialect, game, world, entities, world_info, warnings, report, load_time: start.elapsed() })
}

/// Quake 3 semantics for Quake 3 dialects and for any map using `dir/name`
/// shader names (Quarry's own maps); Quake 1 otherwise.
fn game_of(raw: &RawMap) -> Game {
    let q3_dialect = matches!(raw.dialect, Dialect::Quake3 | Dialect::Quake3BrushDef);
    if q3_dialect || raw.textures.iter().any(|t| t.contains('/')) { Game::Quake3 } else { Game::Quake1 }
}

impl LoadedMap {
    /// The file name given to the loader.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The .map dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Which game's entity semantics were applied.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Every drawable face with its texture name, if
    /// [`LoadOptions::keep_surfaces`] asked for them.
    pub fn surfaces(&self) -> Option<&crate::surfaces::Surfaces> {
        self.report.surfaces.as_ref()
    }

    /// The collision world.
    pub fn world(&self) -> &CollisionWorld {
        &self.world
    }

    /// The collision world, mutable (to move movers).
    pub fn world_mut(&mut self) -> &mut CollisionWorld {
        &mut self.world
    }

    /// Every entity, in file order (`entities()[id.index()].id == id`).
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// One entity.
    pub fn entity(&self, id: EntityId) -> Option<&Entity> {
        self.entities.get(id.index())
    }

    /// The worldspawn keys Quarry reads.
    pub fn world_info(&self) -> &WorldInfo {
        &self.world_info
    }

    /// Every warning, in the order found (skipped primitives first).
    pub fn warnings(&self) -> &[MapWarning] {
        &self.warnings
    }

    /// Brushes and patches that produced no geometry, with reasons.
    pub fn skipped(&self) -> &[SkippedPrimitive] {
        &self.report.skipped
    }

    /// Brushes in the file, including skipped and non-solid ones.
    pub fn brush_count(&self) -> usize {
        self.report.brushes
    }

    /// How long loading took.
    pub fn load_time(&self) -> Duration {
        self.load_time
    }

    /// Every player spawn point with its entity.
    pub fn spawn_points(&self) -> impl Iterator<Item = (EntityId, &PlayerSpawn)> + '_ {
        self.entities.iter().filter_map(|e| match &e.kind {
            EntityKind::PlayerSpawn(s) => Some((e.id, s)),
            _ => None,
        })
    }

    /// Whether a match can start on this map: it needs at least one spawn
    /// point whose player box fits. The server refuses to start otherwise
    /// and prints the error.
    pub fn check_playable(&self) -> Result<(), NotPlayable> {
        let count = self.spawn_points().count();
        if count == 0 {
            return Err(NotPlayable::NoSpawnPoints);
        }
        if !self.spawn_points().any(|(_, s)| s.fits) {
            return Err(NotPlayable::AllSpawnsInSolid { count });
        }
        Ok(())
    }
}

impl Trace for LoadedMap {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.world.trace(start, end, mins, maxs, mask)
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.world.point_contents_in(point, mask)
    }

    fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_is_clear(a, b, mask)
    }

    fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_reaches(a, b, mask)
    }

    fn nearby(&self) -> Option<crate::world::Nearby<'_>> {
        Some(self.world.nearby())
    }

    fn mover_offset_of(&self, entity: crate::EntityId) -> Option<Vec3> {
        Trace::mover_offset_of(&self.world, entity)
    }
}
