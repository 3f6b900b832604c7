//! Rooms in a row and islands apart: the frame every part builds on.
//!
//! A [`Chain`] is a row of rooms along +X inside one sealed shell (floor
//! at z 0, one width and height), each pair joined through a partition
//! wall with a doorway in it; a part may thicken a partition (a tunnel),
//! lower its doorway (a crawlway) or close it. An [`Island`] is a sealed
//! room of its own beside the chain, which only a teleporter (or
//! nothing) leads into. [`Chain::finish`] turns it all into world
//! brushes.

use crate::rng::Rng;
use crate::shape::{Cuboid, Entity, Surface};

/// Thickness of every outer wall, floor and ceiling slab.
pub const SHELL: i32 = 16;
/// Standard partition thickness.
pub const WALL: i32 = 16;
/// Standard doorway height (the 56-unit player stands in it with room).
pub const DOOR_HEIGHT: i32 = 112;

/// A room's inside: x, y and z ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomBox {
    /// Lower corner.
    pub min: [i32; 3],
    /// Upper corner.
    pub max: [i32; 3],
}

impl RoomBox {
    /// The middle of the floor.
    pub fn floor_centre(&self) -> [i32; 3] {
        [(self.min[0] + self.max[0]) / 2, (self.min[1] + self.max[1]) / 2, self.min[2]]
    }
}

/// A hole through a partition: y range and z range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Doorway {
    /// y from..to.
    pub y: (i32, i32),
    /// z from..to.
    pub z: (i32, i32),
}

/// The wall between room `i` and room `i + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Partition {
    thickness: i32,
    doorway: Option<Doorway>,
}

/// A wall along a room's length splitting off a side room, with a doorway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Split {
    room: usize,
    /// The wall's y range.
    y: (i32, i32),
    /// The doorway's x range (z from 0 to [`DOOR_HEIGHT`]).
    door_x: (i32, i32),
}

/// Rooms in a row inside one shell.
#[derive(Debug, Clone)]
pub struct Chain {
    /// Inside width (y) of every room.
    pub width: i32,
    /// Inside height (z) of every room.
    pub height: i32,
    lengths: Vec<i32>,
    partitions: Vec<Partition>,
    islands: Vec<RoomBox>,
    splits: Vec<Split>,
    /// Extra world brushes (ledges, steps).
    pub solids: Vec<Cuboid>,
    /// Entities so far.
    pub entities: Vec<Entity>,
}

impl Chain {
    /// `rooms` rooms of random sizes, joined by standard doorways at a random height-0 place.
    pub fn new(rng: &mut Rng, rooms: usize) -> Self {
        let width = rng.step(384, 576, 32);
        let height = rng.step(224, 288, 32);
        let lengths = (0..rooms.max(1)).map(|_| rng.step(320, 512, 32)).collect();
        let partitions = (1..rooms.max(1))
            .map(|_| {
                let w = rng.step(80, 128, 16);
                let y0 = rng.step(64, width - 64 - w, 16);
                Partition { thickness: WALL, doorway: Some(Doorway { y: (y0, y0 + w), z: (0, DOOR_HEIGHT) }) }
            })
            .collect();
        Self { width, height, lengths, partitions, islands: Vec::new(), splits: Vec::new(), solids: Vec::new(), entities: Vec::new() }
    }

    /// How many rooms.
    pub fn rooms(&self) -> usize {
        self.lengths.len()
    }

    /// The x where room `i` starts.
    fn start(&self, i: usize) -> i32 {
        self.lengths.iter().take(i).sum::<i32>() + self.partitions.iter().take(i).map(|p| p.thickness).sum::<i32>()
    }

    /// Room `i`'s inside.
    pub fn room(&self, i: usize) -> RoomBox {
        let x0 = self.start(i);
        RoomBox { min: [x0, 0, 0], max: [x0 + self.lengths[i], self.width, self.height] }
    }

    /// The x range of the partition after room `i`.
    pub fn wall_x(&self, i: usize) -> (i32, i32) {
        let x0 = self.start(i) + self.lengths[i];
        (x0, x0 + self.partitions[i].thickness)
    }

    /// The doorway of the partition after room `i`, if it has one.
    pub fn doorway(&self, i: usize) -> Option<Doorway> {
        self.partitions.get(i).and_then(|p| p.doorway)
    }

    /// Moves every partition's doorway into `y0..y1` (keeping its width
    /// where it fits), for rooms split along their length.
    pub fn doorways_within(&mut self, rng: &mut Rng, y0: i32, y1: i32) {
        for p in &mut self.partitions {
            if let Some(d) = p.doorway.as_mut() {
                let w = (d.y.1 - d.y.0).min(y1 - y0 - 32);
                let start = rng.step(y0 + 16, (y1 - 16 - w).max(y0 + 16), 16);
                d.y = (start, start + w);
            }
        }
    }

    /// Sets room `i`'s length (x), for parts that need the room.
    pub fn set_length(&mut self, i: usize, length: i32) {
        if let Some(l) = self.lengths.get_mut(i) {
            *l = length.max(64);
        }
    }

    /// Reshapes the partition after room `i`: its thickness and doorway.
    pub fn set_partition(&mut self, i: usize, thickness: i32, doorway: Option<Doorway>) {
        if let Some(p) = self.partitions.get_mut(i) {
            *p = Partition { thickness: thickness.max(8), doorway };
        }
    }

    /// A sealed room of its own beside the chain (`length` × `width`,
    /// the chain's height), reached by nothing unless a part adds a way.
    pub fn island(&mut self, length: i32, width: i32) -> RoomBox {
        let y0 = self.width + 2 * SHELL + 256 + self.islands.iter().map(|r| r.max[1] - r.min[1] + 2 * SHELL + 256).sum::<i32>();
        let room = RoomBox { min: [0, y0, 0], max: [length, y0 + width, self.height] };
        self.islands.push(room);
        room
    }

    /// Splits room `i` along its length with a wall at `y` (its main half
    /// below, a side room above), with a doorway through the wall at
    /// `door_x`; returns the side room and the doorway's box (for a door).
    /// The partitions' doorways must stay in the main half.
    pub fn split(&mut self, i: usize, y: i32, door_x: (i32, i32)) -> (RoomBox, Cuboid) {
        let r = self.room(i);
        self.splits.push(Split { room: i, y: (y, y + WALL), door_x });
        let side = RoomBox { min: [r.min[0], y + WALL, 0], max: r.max };
        (side, Cuboid::new([door_x.0, y, 0], [door_x.1, y + WALL, DOOR_HEIGHT], Surface::Door))
    }

    /// Adds an entity.
    pub fn push(&mut self, e: Entity) {
        self.entities.push(e);
    }

    /// The world brushes: the shell, the partitions with their doorways,
    /// the islands' shells and the extra solids; and the entities.
    pub fn finish(self) -> (Vec<Cuboid>, Vec<Entity>) {
        let end = self.start(self.rooms() - 1) + self.lengths[self.rooms() - 1];
        let mut world = shell(RoomBox { min: [0, 0, 0], max: [end, self.width, self.height] });
        for i in 0..self.partitions.len() {
            let (x0, x1) = self.wall_x(i);
            let (w, h) = (self.width, self.height);
            match self.partitions[i].doorway {
                None => world.push(Cuboid::new([x0, 0, 0], [x1, w, h], Surface::Wall)),
                Some(d) => {
                    for c in [
                        Cuboid::new([x0, 0, 0], [x1, d.y.0, h], Surface::Wall),
                        Cuboid::new([x0, d.y.1, 0], [x1, w, h], Surface::Wall),
                        Cuboid::new([x0, d.y.0, d.z.1], [x1, d.y.1, h], Surface::Wall),
                        Cuboid::new([x0, d.y.0, 0], [x1, d.y.1, d.z.0], Surface::Floor),
                    ] {
                        if c.is_solid() {
                            world.push(c);
                        }
                    }
                }
            }
        }
        for sp in &self.splits {
            let r = self.room(sp.room);
            let ((y0, y1), (d0, d1)) = (sp.y, sp.door_x);
            for c in [
                Cuboid::new([r.min[0], y0, 0], [d0, y1, r.max[2]], Surface::Wall),
                Cuboid::new([d1, y0, 0], [r.max[0], y1, r.max[2]], Surface::Wall),
                Cuboid::new([d0, y0, DOOR_HEIGHT], [d1, y1, r.max[2]], Surface::Wall),
            ] {
                if c.is_solid() {
                    world.push(c);
                }
            }
        }
        for r in &self.islands {
            world.extend(shell(*r));
        }
        world.extend(self.solids);
        (world, self.entities)
    }
}

/// The six slabs sealing `r`.
fn shell(r: RoomBox) -> Vec<Cuboid> {
    let ([x0, y0, z0], [x1, y1, z1]) = (r.min, r.max);
    let s = SHELL;
    vec![
        Cuboid::new([x0 - s, y0 - s, z0 - s], [x1 + s, y1 + s, z0], Surface::Floor),
        Cuboid::new([x0 - s, y0 - s, z1], [x1 + s, y1 + s, z1 + s], Surface::Ceiling),
        Cuboid::new([x0 - s, y0 - s, z0], [x1 + s, y0, z1], Surface::Wall),
        Cuboid::new([x0 - s, y1, z0], [x1 + s, y1 + s, z1], Surface::Wall),
        Cuboid::new([x0 - s, y0, z0], [x0, y1, z1], Surface::Wall),
        Cuboid::new([x1, y0, z0], [x1 + s, y1, z1], Surface::Wall),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_follow_each_other_through_their_partitions() {
        let mut rng = Rng::new(3);
        let mut c = Chain::new(&mut rng, 3);
        c.set_partition(0, 96, Some(Doorway { y: (100, 180), z: (0, 48) }));
        let (a, b) = (c.room(0), c.room(1));
        assert_eq!(c.wall_x(0), (a.max[0], a.max[0] + 96));
        assert_eq!(b.min[0], a.max[0] + 96);
        assert_eq!(c.room(2).min[0], c.wall_x(1).1);
        let island = c.island(256, 256);
        assert!(island.min[1] > c.width + 2 * SHELL, "beside the chain, apart from it");
        let (world, _) = c.finish();
        assert!(world.iter().all(Cuboid::is_solid));
    }
}
