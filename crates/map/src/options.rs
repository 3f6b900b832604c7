//! Options for [`load`](crate::load).

use glam::Vec3;

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
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            patch_subdivisions: 8,
            patch_tolerance: 2.0,
            player_mins: Vec3::new(-15.0, -15.0, -24.0),
            player_maxs: Vec3::new(15.0, 15.0, 32.0),
            max_spawn_nudge: 9.0,
        }
    }
}
