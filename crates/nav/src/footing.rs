//! Whether a standing box has floor under its middle, not only under an
//! edge. A player box may stand with its centre out over a drop while one
//! edge still rests on the lip; a bot walking there is one steering slip
//! from falling off. A crack narrower than the box is no danger, though:
//! floor on both sides of the centre carries the box across it.
//!
//! Both the navmesh's walkable straight lines and the bots' ledge checks
//! ask this.

use glam::{Vec2, Vec3};
use quarry_map::{Contents, Trace, TraceResult};

/// Half the width of the middle of the box that must be over floor, units.
pub const FOOTING_HALF_WIDTH: f32 = 4.0;

/// A standing box's footprint: its half width and its heights below and
/// above its origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    /// Half the box width in x and y.
    pub half_width: f32,
    /// The box's bottom, relative to its origin (negative).
    pub min_z: f32,
    /// The box's top, relative to its origin.
    pub max_z: f32,
}

impl Footprint {
    /// The box's middle: [`FOOTING_HALF_WIDTH`] either way of the centre
    /// (at most the box's own width), its full height, as trace `mins` and
    /// `maxs`.
    pub fn middle(&self) -> (Vec3, Vec3) {
        let w = FOOTING_HALF_WIDTH.min(self.half_width);
        (Vec3::new(-w, -w, self.min_z), Vec3::new(w, w, self.max_z))
    }
}

/// Whether the box `body` lowered from `from` by up to `depth` finds floor
/// (`is_floor` judges each probe's trace, swept against `mask`) under its
/// middle ([`FOOTING_HALF_WIDTH`] either way of the centre), or else under
/// both ends of one axis across the centre (a crack narrower than the box).
pub fn middle_has_floor<T: Trace + ?Sized>(
    trace: &T,
    from: Vec3,
    depth: f32,
    body: Footprint,
    mask: Contents,
    is_floor: impl Fn(&TraceResult) -> bool,
) -> bool {
    let (mins, maxs) = body.middle();
    let probe = |offset: Vec2| {
        let start = from + offset.extend(0.0);
        is_floor(&trace.trace(start, start - Vec3::Z * depth, mins, maxs, mask))
    };
    if probe(Vec2::ZERO) {
        return true;
    }
    let r = body.half_width - maxs.x;
    r > 0.0 && ((probe(Vec2::X * r) && probe(Vec2::NEG_X * r)) || (probe(Vec2::Y * r) && probe(Vec2::NEG_Y * r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::source::box_brush;
    use quarry_map::{LoadOptions, load_str};

    const BODY: Footprint = Footprint { half_width: 15.0, min_z: -24.0, max_z: 32.0 };

    fn floor_at(text_brushes: &[(Vec3, Vec3)]) -> quarry_map::LoadedMap {
        let brushes: String = text_brushes.iter().map(|&(lo, hi)| box_brush(lo, hi, "quarry/wall")).collect();
        load_str(&format!("{{\n\"classname\" \"worldspawn\"\n{brushes}}}\n"), "footing.map", &LoadOptions::default()).expect("map")
    }

    fn stands(map: &quarry_map::LoadedMap, x: f32) -> bool {
        middle_has_floor(map, Vec3::new(x, 0.0, 25.0), 20.0, BODY, Contents::MASK_PLAYER_SOLID, |tr| tr.hit() || tr.start_solid)
    }

    #[test]
    fn the_middle_must_be_over_floor_or_over_a_crack_between_floors() {
        // A ledge ending at x 128.
        let ledge = floor_at(&[(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(128.0, 256.0, 0.0))]);
        assert!(stands(&ledge, 120.0));
        assert!(stands(&ledge, 131.0), "the middle still touches the lip");
        assert!(!stands(&ledge, 140.0), "only the box's edge rests on the ledge");
        // A 12-unit crack between two floors: both sides carry the box.
        let cracked = floor_at(&[
            (Vec3::new(-256.0, -256.0, -16.0), Vec3::new(-6.0, 256.0, 0.0)),
            (Vec3::new(6.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0)),
        ]);
        assert!(stands(&cracked, 0.0));
        // A gap wider than the box: nothing under the middle or one side.
        let gap = floor_at(&[
            (Vec3::new(-256.0, -256.0, -16.0), Vec3::new(-20.0, 256.0, 0.0)),
            (Vec3::new(20.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0)),
        ]);
        assert!(!stands(&gap, 0.0));
    }
}
