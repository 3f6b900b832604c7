//! What a generated map is made of: axis-aligned boxes with a surface
//! (some with a ramp for a top), and entities (a class, keys, and brushes
//! for brush entities).

/// What a box's faces are, so each dialect can name a texture for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Floors and the slabs under them.
    Floor,
    /// Walls.
    Wall,
    /// Ceilings.
    Ceiling,
    /// Door panels.
    Door,
    /// Buttons.
    Button,
    /// Lifts, ledges and fittings.
    Metal,
    /// Trigger volumes (not solid).
    Trigger,
    /// Water (not solid, swum through).
    Water,
    /// Lava (not solid, hurts whoever stands in it).
    Lava,
}

/// The top of a [`Cuboid`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Top {
    /// Flat, at the box's top.
    Flat,
    /// A ramp rising along +x from the box's bottom at its low x edge to
    /// its top at its high x edge (a wedge: the box has no -x face).
    RampX,
}

/// An axis-aligned box from `min` to `max` (whole units), or the wedge
/// under a ramp within those bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cuboid {
    /// The lower corner.
    pub min: [i32; 3],
    /// The upper corner.
    pub max: [i32; 3],
    /// What its faces are.
    pub surface: Surface,
    /// Its top: flat, or a ramp.
    pub top: Top,
}

impl Cuboid {
    /// The box between two corners (given in any order).
    pub fn new(a: [i32; 3], b: [i32; 3], surface: Surface) -> Self {
        Self { min: [a[0].min(b[0]), a[1].min(b[1]), a[2].min(b[2])], max: [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])], surface, top: Top::Flat }
    }

    /// The wedge between two corners whose top is a ramp rising along +x
    /// ([`Top::RampX`]).
    pub fn ramp(a: [i32; 3], b: [i32; 3], surface: Surface) -> Self {
        Self { top: Top::RampX, ..Self::new(a, b, surface) }
    }

    /// Whether it has room inside on every axis (a brush needs it).
    pub fn is_solid(&self) -> bool {
        (0..3).all(|i| self.max[i] > self.min[i])
    }
}

/// An entity: its class, its keys in order, its brushes (none for a
/// point entity).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// `classname`.
    pub class: String,
    /// The other keys.
    pub keys: Vec<(String, String)>,
    /// Brushes of a brush entity.
    pub brushes: Vec<Cuboid>,
}

impl Entity {
    /// A point entity of `class` at `origin`.
    pub fn point(class: &str, origin: [i32; 3]) -> Self {
        Self { class: class.to_owned(), keys: vec![("origin".to_owned(), format!("{} {} {}", origin[0], origin[1], origin[2]))], brushes: Vec::new() }
    }

    /// A brush entity of `class` made of `brushes`.
    pub fn brush(class: &str, brushes: Vec<Cuboid>) -> Self {
        Self { class: class.to_owned(), keys: Vec::new(), brushes }
    }

    /// Adds a key.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl ToString) -> Self {
        self.keys.push((key.to_owned(), value.to_string()));
        self
    }
}
