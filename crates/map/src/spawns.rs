//! Spawn point fitting: raise each spawn until the player box fits.
//!
//! Quake 3 raises every spawn by 9 units (`SelectSpawnPoint`), and Quake 1
//! spawn origins commonly sit exactly on the floor (origin z = floor + 24 for
//! a 24-unit-deep box), which a Quake trace counts as touching solid. So
//! each spawn is tried at its origin, then 1, 2, … units higher up to
//! [`LoadOptions::max_spawn_nudge`], and the first height where the box fits
//! is where the player appears.

use glam::Vec3;

use crate::contents::Contents;
use crate::entities::{Entity, EntityKind};
use crate::options::LoadOptions;
use crate::warning::{MapWarning, SourceLocation, WarningKind};
use crate::world::{CollisionWorld, Trace};

/// Fills `spawn_origin` and `fits` of every spawn point, warning for spawns
/// stuck even after the nudge.
pub(crate) fn fit_spawns(
    entities: &mut [Entity],
    world: &CollisionWorld,
    options: &LoadOptions,
    file: &str,
    warnings: &mut Vec<MapWarning>,
) {
    for e in entities.iter_mut() {
        let origin = e.origin;
        let EntityKind::PlayerSpawn(spawn) = &mut e.kind else { continue };
        let origin = origin.unwrap_or(spawn.spawn_origin);
        match nudge_to_fit(world, origin, options) {
            Some(p) => {
                spawn.spawn_origin = p;
                spawn.fits = true;
            }
            None => {
                spawn.spawn_origin = origin;
                spawn.fits = false;
                warnings.push(MapWarning {
                    location: SourceLocation { file: file.to_owned(), line: e.line, entity: Some(e.id.index()), primitive: None },
                    kind: WarningKind::SpawnInSolid,
                });
            }
        }
    }
}

/// The lowest of `origin`, `origin + 1`, … `origin + max_spawn_nudge` (in z)
/// where the player box fits, if any.
pub(crate) fn nudge_to_fit(world: &dyn Trace, origin: Vec3, options: &LoadOptions) -> Option<Vec3> {
    let max = options.max_spawn_nudge.max(0.0);
    let steps = max.ceil() as u32;
    (0..=steps)
        .map(|i| origin + Vec3::Z * (i as f32).min(max))
        .find(|&p| world.fits(p, options.player_mins, options.player_maxs, Contents::MASK_PLAYER_SOLID))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::TraceResult;

    /// A synthetic world: solid below z = 0, nothing else. Shows how tests
    /// (and the navmesh's) can stand in for the loaded world.
    struct HalfSpace;

    impl Trace for HalfSpace {
        fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, _maxs: Vec3, _mask: Contents) -> TraceResult {
            if start.z + mins.z <= 0.0 {
                return TraceResult { fraction: 0.0, start_solid: true, all_solid: true, ..TraceResult::clear(start) };
            }
            TraceResult::clear(end)
        }

        fn point_contents(&self, point: Vec3) -> Contents {
            if point.z <= 0.0 { Contents::SOLID } else { Contents::empty() }
        }
    }

    #[test]
    fn nudges_by_whole_units_up_to_the_limit() {
        let options = LoadOptions::default();
        assert_eq!(nudge_to_fit(&HalfSpace, Vec3::new(0.0, 0.0, 30.0), &options), Some(Vec3::new(0.0, 0.0, 30.0)));
        assert_eq!(nudge_to_fit(&HalfSpace, Vec3::new(0.0, 0.0, 24.0), &options), Some(Vec3::new(0.0, 0.0, 25.0)));
        assert_eq!(nudge_to_fit(&HalfSpace, Vec3::new(0.0, 0.0, 15.5), &options), Some(Vec3::new(0.0, 0.0, 24.5)));
        assert_eq!(nudge_to_fit(&HalfSpace, Vec3::new(0.0, 0.0, 10.0), &options), None);
        let none = LoadOptions { max_spawn_nudge: 0.0, ..LoadOptions::default() };
        assert_eq!(nudge_to_fit(&HalfSpace, Vec3::new(0.0, 0.0, 24.0), &none), None);
    }
}
