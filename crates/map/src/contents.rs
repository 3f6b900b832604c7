//! What a brush is made of, decided from texture and shader names through one
//! table ([`texture_contents`]), and how a brush's faces combine
//! ([`brush_contents`]).
//!
//! The table covers Quake 1 texture names (`clip`, `*lava1`, `sky4`,
//! `trigger`, ericw-tools `hint`/`skip`/`origin`) and Quake 3 shader names
//! (`common/clip`, `liquids/…`, `skies/…`). Quarry's own maps use exactly the
//! Quake 3 style names. Matching is ASCII case-insensitive because Quake 1
//! maps spell textures in upper case (`SKY4`, `*WATER1`).
//!
//! This module must not know about entities: brush entities whose class
//! overrides the contents (triggers, `func_illusionary`) are handled by the
//! entity class table.

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

bitflags! {
    /// The contents of a collision volume, and the mask a trace collides with.
    ///
    /// A trace with mask `m` stops at a volume whose contents intersect `m`.
    /// The masks below are the usual ones; see [`Contents::MASK_PLAYER_SOLID`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    #[serde(transparent)]
    pub struct Contents: u32 {
        /// Ordinary solid: blocks players, shots and everything else.
        const SOLID = 1;
        /// Blocks players (and bots), not shots: Quake 1 `clip`, Quake 3 `common/clip`.
        const PLAYERCLIP = 1 << 1;
        /// Blocks shots and projectiles: Quake 3 `common/weapclip`, `common/full_clip`.
        const WEAPONCLIP = 1 << 2;
        /// Swimmable water.
        const WATER = 1 << 3;
        /// Slime: water that hurts.
        const SLIME = 1 << 4;
        /// Lava: water that hurts a lot.
        const LAVA = 1 << 5;
        /// Sky surface; always set together with `SOLID` (projectiles vanish here).
        const SKY = 1 << 6;
        /// Trigger volume: non-solid, reported by `box_contents` and trigger overlap queries.
        const TRIGGER = 1 << 7;
    }
}

impl Contents {
    /// What stops a player's movement: solid and player clip.
    pub const MASK_PLAYER_SOLID: Contents = Contents::SOLID.union(Contents::PLAYERCLIP);
    /// What stops a hitscan shot or projectile: solid and weapon clip.
    pub const MASK_SHOT: Contents = Contents::SOLID.union(Contents::WEAPONCLIP);
    /// Any liquid.
    pub const MASK_LIQUID: Contents = Contents::WATER.union(Contents::SLIME).union(Contents::LAVA);
    /// Every contents that blocks something (what the static solid set holds).
    pub const MASK_BLOCKING: Contents = Contents::SOLID
        .union(Contents::PLAYERCLIP)
        .union(Contents::WEAPONCLIP)
        .union(Contents::SKY);

    /// Whether a volume with these contents blocks anything (solid, sky or a clip).
    pub fn is_blocking(self) -> bool {
        self.intersects(Self::MASK_BLOCKING)
    }
}

/// How a texture name is matched by one row of the table.
#[derive(Debug, Clone, Copy)]
enum Pattern {
    /// The whole name, case-insensitive.
    Exact(&'static str),
    /// The name starts with this.
    Prefix(&'static str),
    /// The name contains this anywhere.
    Contains(&'static str),
}

impl Pattern {
    fn matches(self, lower: &str) -> bool {
        match self {
            Pattern::Exact(p) => lower == p,
            Pattern::Prefix(p) => lower.starts_with(p),
            Pattern::Contains(p) => lower.contains(p),
        }
    }
}

/// Nothing: the face does not make its brush solid (hint, skip, portals, origin).
const NONSOLID: Contents = Contents::empty();
const SKY: Contents = Contents::SOLID.union(Contents::SKY);
const BOTH_CLIPS: Contents = Contents::PLAYERCLIP.union(Contents::WEAPONCLIP);

/// THE texture table, first match wins; a name matching no row is [`Contents::SOLID`].
///
/// Order matters: specific `common/` names come before the broad `sky` and
/// liquid rows so that e.g. `common/waternodraw` is water but `common/skip`
/// never matches `sky`.
const TABLE: &[(Pattern, Contents)] = &[
    // Quake 3 common shaders.
    (Pattern::Exact("common/clip"), Contents::PLAYERCLIP),
    (Pattern::Exact("common/playerclip"), Contents::PLAYERCLIP),
    // Quake 3's weapclip has solid contents: it stops shots and players alike.
    (Pattern::Exact("common/weapclip"), BOTH_CLIPS),
    (Pattern::Exact("common/full_clip"), BOTH_CLIPS),
    (Pattern::Exact("common/trigger"), Contents::TRIGGER),
    (Pattern::Exact("common/hint"), NONSOLID),
    (Pattern::Exact("common/hintskip"), NONSOLID),
    (Pattern::Exact("common/skip"), NONSOLID),
    (Pattern::Exact("common/areaportal"), NONSOLID),
    (Pattern::Exact("common/clusterportal"), NONSOLID),
    (Pattern::Exact("common/origin"), NONSOLID),
    // Bot-only volumes (AAS hints in Quake 3); players and shots pass.
    (Pattern::Exact("common/botclip"), NONSOLID),
    (Pattern::Exact("common/donotenter"), NONSOLID),
    (Pattern::Exact("common/nodrop"), NONSOLID),
    (Pattern::Exact("common/nodrawnonsolid"), NONSOLID),
    (Pattern::Exact("common/lightgrid"), NONSOLID),
    (Pattern::Exact("common/waternodraw"), Contents::WATER),
    (Pattern::Exact("common/slimenodraw"), Contents::SLIME),
    (Pattern::Exact("common/lavanodraw"), Contents::LAVA),
    (Pattern::Exact("common/nodraw"), Contents::SOLID),
    (Pattern::Exact("common/caulk"), Contents::SOLID),
    // Quake 3 liquids: `liquids/<name>`, kind from the name.
    (Pattern::Prefix("liquids/"), Contents::WATER),
    // Quake 1 and ericw-tools special textures.
    (Pattern::Exact("clip"), Contents::PLAYERCLIP),
    (Pattern::Exact("trigger"), Contents::TRIGGER),
    (Pattern::Exact("hint"), NONSOLID),
    (Pattern::Exact("hintskip"), NONSOLID),
    (Pattern::Exact("skip"), NONSOLID),
    (Pattern::Exact("origin"), NONSOLID),
    // Quake 1 `*teleport` would be water in qbsp; it is the visible surface of a
    // teleporter whose trigger decides, so it is not a liquid here.
    (Pattern::Prefix("*tele"), NONSOLID),
    // Quake 1 liquids: `*` prefix, kind from the name, water by default as in qbsp.
    (Pattern::Prefix("*"), Contents::WATER),
    // Skies: Quake 3 `skies/…` and any name containing `sky`, Quake 1 `sky4`.
    (Pattern::Prefix("skies/"), SKY),
    (Pattern::Contains("sky"), SKY),
];

/// The contents a face with texture `name` gives its brush.
///
/// Returns an empty set for non-solid names (hint, skip, areaportal, origin,
/// bot clip); [`Contents::SOLID`] for any name not in the table.
pub fn texture_contents(name: &str) -> Contents {
    let lower = name.to_ascii_lowercase();
    let lower = lower.strip_prefix("textures/").unwrap_or(&lower);
    let Some(&(_, contents)) = TABLE.iter().find(|(p, _)| p.matches(lower)) else {
        return Contents::SOLID;
    };
    if contents == Contents::WATER {
        // Liquid rows decide the kind from the rest of the name.
        if lower.contains("lava") {
            return Contents::LAVA;
        }
        if lower.contains("slime") {
            return Contents::SLIME;
        }
    }
    contents
}

/// The contents of a brush from the contents of its faces.
///
/// A face that names a volume (liquid, clip, trigger) decides the brush: a
/// water brush with caulked sides is water, not solid water. Otherwise the
/// brush is solid (with `SKY` if a face is sky) unless every face is
/// non-solid, e.g. a hint brush, which yields an empty set.
pub fn brush_contents(faces: impl IntoIterator<Item = Contents>) -> Contents {
    let all = faces.into_iter().fold(Contents::empty(), |a, c| a | c);
    let volume = Contents::MASK_LIQUID | Contents::PLAYERCLIP | Contents::WEAPONCLIP | Contents::TRIGGER;
    if all.intersects(volume) {
        all & volume
    } else {
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake3_common_shaders() {
        assert_eq!(texture_contents("common/clip"), Contents::PLAYERCLIP);
        assert_eq!(texture_contents("common/playerclip"), Contents::PLAYERCLIP);
        assert_eq!(texture_contents("common/weapclip"), BOTH_CLIPS);
        assert_eq!(texture_contents("common/trigger"), Contents::TRIGGER);
        for name in ["common/hint", "common/skip", "common/areaportal", "common/origin"] {
            assert_eq!(texture_contents(name), Contents::empty(), "{name}");
        }
        assert_eq!(texture_contents("common/caulk"), Contents::SOLID);
        assert_eq!(texture_contents("common/nodraw"), Contents::SOLID);
        assert_eq!(texture_contents("textures/common/clip"), Contents::PLAYERCLIP);
    }

    #[test]
    fn skies_and_liquids() {
        assert_eq!(texture_contents("skies/hellsky2"), SKY);
        assert_eq!(texture_contents("oajg_sky/ctf1"), SKY);
        assert_eq!(texture_contents("SKY4"), SKY);
        assert_eq!(texture_contents("common/skip"), Contents::empty(), "skip is not sky");
        assert_eq!(texture_contents("liquids/lavahell"), Contents::LAVA);
        assert_eq!(texture_contents("liquids/slime1"), Contents::SLIME);
        assert_eq!(texture_contents("liquids/clear_ripple1"), Contents::WATER);
        assert_eq!(texture_contents("common/waternodraw"), Contents::WATER);
    }

    #[test]
    fn quake1_names() {
        assert_eq!(texture_contents("*LAVA1"), Contents::LAVA);
        assert_eq!(texture_contents("*slime0"), Contents::SLIME);
        assert_eq!(texture_contents("*WATER1"), Contents::WATER);
        assert_eq!(texture_contents("*04mwat1"), Contents::WATER);
        assert_eq!(texture_contents("*TELEPORT"), Contents::empty());
        assert_eq!(texture_contents("CLIP"), Contents::PLAYERCLIP);
        assert_eq!(texture_contents("TRIGGER"), Contents::TRIGGER);
        assert_eq!(texture_contents("TECH04_5"), Contents::SOLID);
        assert_eq!(texture_contents("{grate"), Contents::SOLID);
    }

    #[test]
    fn brush_combination() {
        use Contents as C;
        assert_eq!(brush_contents([C::WATER, C::SOLID, C::SOLID]), C::WATER);
        assert_eq!(brush_contents([C::empty(), C::empty()]), C::empty());
        assert_eq!(brush_contents([SKY, C::SOLID]), SKY);
        assert_eq!(brush_contents([C::SOLID, C::empty()]), C::SOLID, "skip faces on a solid brush");
        assert_eq!(brush_contents([C::PLAYERCLIP, C::PLAYERCLIP]), C::PLAYERCLIP);
        assert!(!brush_contents([C::TRIGGER]).is_blocking());
        assert!(brush_contents([C::PLAYERCLIP]).is_blocking());
    }

    #[test]
    fn serializes_as_flag_names() {
        let json = serde_json::to_string(&(Contents::SOLID | Contents::SKY)).expect("json");
        assert_eq!(json, "\"SOLID | SKY\"");
    }

    #[test]
    fn masks() {
        assert!(Contents::MASK_PLAYER_SOLID.contains(Contents::PLAYERCLIP));
        assert!(!Contents::MASK_SHOT.contains(Contents::PLAYERCLIP));
        assert!(Contents::MASK_SHOT.intersects(BOTH_CLIPS));
        assert!(Contents::MASK_SHOT.intersects(SKY));
    }
}
