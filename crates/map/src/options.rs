//! Options for [`load`](crate::load).

use glam::Vec3;

/// Default [`LoadOptions::world_limit`]: Quake's world is `±65,536` units
/// per axis.
pub const DEFAULT_WORLD_LIMIT: f32 = 65_536.0;

/// Default [`LoadOptions::max_file_bytes`]: 64 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

/// How to load a map. Start from [`LoadOptions::default`] and change fields.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Most tessellation steps across one bezier segment of a `patchDef2`, in
    /// each direction (the subdivision level; at least 1). Quake 3's
    /// collision code subdivides to a similar density.
    pub patch_subdivisions: u32,
    /// Largest distance in units between a patch's true curve and its
    /// triangles; flatter segments get fewer steps. 0 always uses
    /// `patch_subdivisions` steps.
    pub patch_tolerance: f32,
    /// Player box used to check that spawn points fit (Quake 3's default).
    /// The server passes its movement cvars here.
    pub player_mins: Vec3,
    /// Player box maximum corner; see `player_mins`.
    pub player_maxs: Vec3,
    /// How far a spawn point may be raised, in units, to get its player box
    /// out of the floor. Quake 3 raises every spawn by 9 units; Quake 1 spawn
    /// origins often sit exactly on the floor, which a trace counts as
    /// touching.
    pub max_spawn_nudge: f32,
    /// Largest absolute coordinate, per axis, of anything in the map
    /// (Quake's `±65,536`, the range its BSP tools and network protocol
    /// carry). A brush or patch reaching beyond it is skipped and a point
    /// entity whose origin lies beyond it is dropped, each with a warning;
    /// without it one far-off brush makes every structure sized by the
    /// map's extent (the navmesh grid) huge.
    pub world_limit: f32,
    /// Largest `.map` file [`load`](crate::load) reads, in bytes. The
    /// largest real map Quarry knows (`oacmpdm8.map`) is 397 kB; 64 MiB
    /// leaves 160 times that while keeping a hostile file's parse and
    /// build to seconds and a few hundred MB.
    pub max_file_bytes: u64,
    /// Most faces (planes as written, duplicates included) one brush may
    /// have; a brush with more is skipped with a warning. Quake brushes have
    /// at most a few dozen; building a brush costs more than linear time in
    /// its faces, so a 200,000-face brush must not reach the builder.
    pub max_brush_faces: usize,
    /// Total brush-building work, counted as the cube of each brush's face
    /// count (corner finding tests every plane triple against every plane);
    /// brushes past it are skipped with a warning each. A file of 128-face
    /// brushes costs about 18 ms a brush, so 64 MiB of them would take
    /// minutes; 2^28 is 128 of them (two to four seconds), and 16 times what 32,768
    /// eight-face brushes (Quake 3's `MAX_MAP_BRUSHES`) need. The shared
    /// maps use under 0.06 % of it.
    pub max_brush_work: u64,
    /// Most entities read; later ones are dropped with one warning. Real
    /// maps have hundreds (the largest shared map 240); Quake 3's BSP
    /// format holds at most 2,048 (`MAX_MAP_ENTITIES`).
    pub max_entities: usize,
    /// Most key/value pairs, all entities together; later ones are dropped
    /// with one warning. Quake 3 keeps all entity text in 256 kB
    /// (`MAX_MAP_ENTSTRING`), room for about 32,000 short pairs; this is
    /// twice that.
    pub max_entity_keys: usize,
    /// Most brushes and patches, all entities together; later ones are
    /// skipped with one warning. Twice Quake 3's `MAX_MAP_BRUSHES` (32,768).
    pub max_primitives: usize,
    /// Most patch triangles, all patches together; patches past it are
    /// skipped with one warning. One small curved patch tessellates to 128
    /// triangles, so without a total a file of tiny patches would build
    /// gigabytes of triangles. The shared maps use at most 8,246.
    pub max_patch_triangles: usize,
    /// Most moving brush entities (doors, plats, trains); the brushes of
    /// any more are skipped with a warning per entity. Every trace tests
    /// every mover's bounds, so this bounds the cost of a trace. Quake 3's
    /// BSP format holds at most 1,024 brush models (`MAX_MAP_MODELS`).
    pub max_movers: usize,
    /// Keep every brush face and patch triangle with its texture name
    /// ([`LoadedMap::surfaces`](crate::LoadedMap::surfaces)), for a client
    /// that draws the map. Off by default: a server never draws.
    pub keep_surfaces: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            patch_subdivisions: 8,
            patch_tolerance: 2.0,
            player_mins: Vec3::new(-15.0, -15.0, -24.0),
            player_maxs: Vec3::new(15.0, 15.0, 32.0),
            max_spawn_nudge: 9.0,
            world_limit: DEFAULT_WORLD_LIMIT,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_brush_faces: 256,
            max_brush_work: 1 << 28,
            max_entities: 8_192,
            max_entity_keys: 65_536,
            max_primitives: 65_536,
            max_patch_triangles: 1 << 20,
            max_movers: 1_024,
            keep_surfaces: false,
        }
    }
}

/// Whether a largest absolute coordinate `extent` is within `limit`
/// ([`LoadOptions::world_limit`]); false for NaN.
pub(crate) fn within_world(extent: f64, limit: f32) -> bool {
    extent <= f64::from(limit)
}
