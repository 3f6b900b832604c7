//! How a texture name is drawn: skipped, opaque in a stable colour, sky,
//! or a translucent liquid.
//!
//! There are no textures: a face is coloured from its texture name, so the
//! same name reads the same everywhere and different names differ. The
//! table of names that are never drawn follows the compilers' (qbsp's
//! `clip`, `skip`, `hint`, `trigger`; Quake 3's `common/*` tool shaders with
//! `surfaceparm nodraw`); sky and liquids go by name, as the collision
//! table does, since the games' shader files are not here.

use quarry_map::Contents;

/// What a face with a given texture looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Look {
    /// Never drawn (tool textures: clip, caulk, hint, trigger, …).
    Hidden,
    /// A solid face in this colour (linear RGB, 0..1).
    Opaque([f32; 3]),
    /// Sky: drawn in the sky colour, without fog or shading.
    Sky,
    /// A liquid surface: translucent, tinted.
    Liquid(Liquid),
}

/// The three liquids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liquid {
    /// Blue, most see-through.
    Water,
    /// Green.
    Slime,
    /// Orange, nearly opaque.
    Lava,
}

impl Liquid {
    /// Colour and opacity.
    pub fn rgba(self) -> [f32; 4] {
        match self {
            Liquid::Water => [0.15, 0.35, 0.65, 0.45],
            Liquid::Slime => [0.2, 0.55, 0.1, 0.6],
            Liquid::Lava => [0.9, 0.35, 0.05, 0.85],
        }
    }
}

/// Tool textures that compilers never draw (lower case, without
/// `textures/`). A name matches when it equals one of these, or its last
/// path part does for the `common/` ones.
const HIDDEN: &[&str] = &[
    "clip", "skip", "hint", "hintskip", "origin", "trigger", "null", "nodraw", "caulk", "nodrawnonsolid", "weapclip",
    "full_clip", "missileclip", "areaportal", "clusterportal", "donotenter", "nodrop", "botclip", "playerclip",
    "invisible", "waterskip", "slimeskip", "lavaskip", "*waterskip", "*slimeskip", "*lavaskip", "waternodraw",
    "lavanodraw", "slimenodraw", "monsterclip", "cushion", "slick",
];

/// The look of a face whose texture is `name` and whose contents (from the
/// same name, by the collision table) are `contents`.
pub fn look_of(name: &str, contents: Contents) -> Look {
    let lower = name.to_ascii_lowercase();
    let lower = lower.strip_prefix("textures/").unwrap_or(&lower);
    let last = lower.rsplit('/').next().unwrap_or(lower);
    let tool = lower.starts_with("common/") || !lower.contains('/');
    if HIDDEN.contains(&lower) || (tool && HIDDEN.contains(&last)) {
        return Look::Hidden;
    }
    if contents.contains(Contents::LAVA) {
        return Look::Liquid(Liquid::Lava);
    }
    if contents.contains(Contents::SLIME) {
        return Look::Liquid(Liquid::Slime);
    }
    if contents.contains(Contents::WATER) {
        return Look::Liquid(Liquid::Water);
    }
    if contents.intersects(Contents::PLAYERCLIP | Contents::WEAPONCLIP | Contents::TRIGGER) && !contents.contains(Contents::SOLID) {
        return Look::Hidden;
    }
    if contents.contains(Contents::SKY) || last.starts_with("sky") || lower.starts_with("skies/") {
        return Look::Sky;
    }
    Look::Opaque(name_colour(lower))
}

/// A stable, muted colour from a name (FNV-1a, then a hue and a lightness
/// kept in the range walls and floors read well in).
pub fn name_colour(name: &str) -> [f32; 3] {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    let hue = (h & 0xffff) as f32 / 65_536.0;
    let sat = 0.18 + ((h >> 16) & 0xff) as f32 / 255.0 * 0.3;
    let val = 0.45 + ((h >> 24) & 0xff) as f32 / 255.0 * 0.35;
    hsv_to_rgb(hue, sat, val)
}

fn hsv_to_rgb(h: f32, s: f32, v: f32) -> [f32; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match i as i32 % 6 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::contents::texture_contents;

    fn look(name: &str) -> Look {
        look_of(name, texture_contents(name))
    }

    #[test]
    fn tool_textures_are_hidden() {
        for name in ["clip", "common/caulk", "textures/common/clip", "trigger", "hint", "common/nodraw", "skip"] {
            assert_eq!(look(name), Look::Hidden, "{name}");
        }
    }

    #[test]
    fn sky_and_liquids_by_name() {
        assert_eq!(look("sky4"), Look::Sky);
        assert_eq!(look("skies/stars"), Look::Sky);
        assert_eq!(look("*water1"), Look::Liquid(Liquid::Water));
        assert_eq!(look("*lava1"), Look::Liquid(Liquid::Lava));
        assert_eq!(look("*slime0"), Look::Liquid(Liquid::Slime));
    }

    #[test]
    fn the_same_name_gets_the_same_colour_and_names_differ() {
        assert_eq!(name_colour("base_wall/metal"), name_colour("base_wall/metal"));
        assert_ne!(name_colour("base_wall/metal"), name_colour("base_floor/tile"));
        for c in name_colour("anything") {
            assert!((0.0..=1.0).contains(&c));
        }
        assert!(matches!(look("city2_3"), Look::Opaque(_)));
        // Case and the textures/ prefix do not change the colour.
        assert_eq!(look("Base_Wall/Metal"), look("textures/base_wall/metal"));
    }
}
