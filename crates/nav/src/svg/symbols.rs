//! Colours and symbols: link colours, the height gradient, and the shape
//! of each map feature, drawn the same on the mesh and in the legend.

use std::fmt::Write;

use super::{SvgFeatureKind, SvgItemKind, SvgTeam};
use crate::graph::LinkKind;

/// Outline around every feature symbol, so it stands out on the mesh.
const OUTLINE: &str = r##"stroke="#0a0a0a" stroke-width="1.2" stroke-linejoin="round""##;

/// The colour links of `kind` are drawn in.
pub(super) fn link_colour(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Walk => "#9a9a9a",
        LinkKind::Drop => "#e08020",
        LinkKind::Jump => "#20a040",
        LinkKind::JumpPad => "#d020d0",
        LinkKind::Teleport => "#10b0e0",
        LinkKind::Lift => "#f0e020",
        LinkKind::Swim => "#2060f0",
        LinkKind::Crouch => "#a05020",
    }
}

/// Whether links of `kind` end in an arrow (one-way off-mesh links).
pub(super) fn arrowed(kind: LinkKind) -> bool {
    matches!(kind, LinkKind::JumpPad | LinkKind::Teleport | LinkKind::Lift | LinkKind::Swim)
}

/// Blue (t = 0) through green to red (t = 1).
pub(super) fn height_colour(t: f32) -> String {
    let hue = 240.0 * (1.0 - t.clamp(0.0, 1.0));
    format!("hsl({hue:.0},70%,55%)")
}

/// What a feature is, for the legend: one entry per class, in legend order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum FeatureClass {
    Spawn(Option<SvgTeam>),
    Flag(SvgTeam),
    Item(SvgItemKind),
}

impl FeatureClass {
    /// The class of `kind` (a spawn's facing set aside).
    pub(super) fn of(kind: SvgFeatureKind) -> FeatureClass {
        match kind {
            SvgFeatureKind::Spawn { team: Some(SvgTeam::Neutral) | None, .. } => FeatureClass::Spawn(None),
            SvgFeatureKind::Spawn { team, .. } => FeatureClass::Spawn(team),
            SvgFeatureKind::Flag(team) => FeatureClass::Flag(team),
            SvgFeatureKind::Item(item) => FeatureClass::Item(item),
        }
    }

    /// Its name in the legend.
    pub(super) fn name(self) -> &'static str {
        match self {
            FeatureClass::Spawn(None | Some(SvgTeam::Neutral)) => "spawn point",
            FeatureClass::Spawn(Some(SvgTeam::Red)) => "red spawn point",
            FeatureClass::Spawn(Some(SvgTeam::Blue)) => "blue spawn point",
            FeatureClass::Flag(SvgTeam::Red) => "red flag",
            FeatureClass::Flag(SvgTeam::Blue) => "blue flag",
            FeatureClass::Flag(SvgTeam::Neutral) => "neutral flag",
            FeatureClass::Item(SvgItemKind::Weapon) => "weapon",
            FeatureClass::Item(SvgItemKind::Armor) => "armor",
            FeatureClass::Item(SvgItemKind::Health) => "health",
            FeatureClass::Item(SvgItemKind::Powerup) => "powerup",
            FeatureClass::Item(SvgItemKind::Ammo) => "ammo",
            FeatureClass::Item(SvgItemKind::Other) => "other item",
        }
    }

    /// A feature of this class to draw in the legend (spawns face right).
    pub(super) fn sample(self) -> SvgFeatureKind {
        match self {
            FeatureClass::Spawn(team) => SvgFeatureKind::Spawn { team, yaw: Some(0.0) },
            FeatureClass::Flag(team) => SvgFeatureKind::Flag(team),
            FeatureClass::Item(item) => SvgFeatureKind::Item(item),
        }
    }

    /// The short name written into the picture (`data-kind`).
    pub(super) fn tag(self) -> &'static str {
        match self {
            FeatureClass::Spawn(_) => "spawn",
            FeatureClass::Flag(_) => "flag",
            FeatureClass::Item(SvgItemKind::Weapon) => "weapon",
            FeatureClass::Item(SvgItemKind::Armor) => "armor",
            FeatureClass::Item(SvgItemKind::Health) => "health",
            FeatureClass::Item(SvgItemKind::Powerup) => "powerup",
            FeatureClass::Item(SvgItemKind::Ammo) => "ammo",
            FeatureClass::Item(SvgItemKind::Other) => "item",
        }
    }
}

fn team_colour(team: Option<SvgTeam>) -> &'static str {
    match team {
        Some(SvgTeam::Red) => "#ff5050",
        Some(SvgTeam::Blue) => "#4c8dff",
        Some(SvgTeam::Neutral) | None => "#f2f2f2",
    }
}

fn item_colour(item: SvgItemKind) -> &'static str {
    match item {
        SvgItemKind::Weapon => "#ff9a1f",
        SvgItemKind::Armor => "#ffd83a",
        SvgItemKind::Health => "#3fe07c",
        SvgItemKind::Powerup => "#e45cff",
        SvgItemKind::Ammo => "#c9b48f",
        SvgItemKind::Other => "#a8a8a8",
    }
}

/// A closed path through `points` offset by `(x, y)`.
fn polygon(s: &mut String, x: f32, y: f32, points: &[(f32, f32)], fill: &str) {
    s.push_str("<path d=\"");
    for (i, (px, py)) in points.iter().enumerate() {
        let _ = write!(s, "{}{:.1},{:.1} ", if i == 0 { 'M' } else { 'L' }, x + px, y + py);
    }
    let _ = write!(s, "Z\" fill=\"{fill}\" {OUTLINE}/>");
}

/// The symbol of a feature of `kind` centred on `(x, y)` in pixels.
pub(super) fn feature_symbol(s: &mut String, kind: SvgFeatureKind, x: f32, y: f32) {
    match kind {
        SvgFeatureKind::Spawn { team, yaw } => {
            let fill = team_colour(team);
            if let Some(yaw) = yaw.filter(|y| y.is_finite()) {
                // World y is up, the picture's is down.
                let (sin, cos) = yaw.to_radians().sin_cos();
                let _ = write!(
                    s,
                    r##"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="#0a0a0a" stroke-width="4" stroke-linecap="round"/><line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="{fill}" stroke-width="2" stroke-linecap="round"/>"##,
                    x + cos * 14.0,
                    y - sin * 14.0,
                    x + cos * 14.0,
                    y - sin * 14.0,
                );
            }
            let _ = write!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="5.5" fill="{fill}" {OUTLINE}/>"#);
        }
        SvgFeatureKind::Flag(team) => {
            let fill = team_colour(Some(team));
            // A pole standing on the spot with a pennant at its top.
            let _ = write!(
                s,
                r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#0a0a0a" stroke-width="3.5" stroke-linecap="round"/><line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e8e8e8" stroke-width="1.6" stroke-linecap="round"/>"##,
                y + 4.0,
                y - 20.0,
                y + 4.0,
                y - 20.0,
            );
            polygon(s, x, y, &[(0.0, -20.0), (17.0, -14.0), (0.0, -8.0)], fill);
            let _ = write!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{fill}" {OUTLINE}/>"#);
        }
        SvgFeatureKind::Item(item) => {
            let fill = item_colour(item);
            match item {
                SvgItemKind::Weapon => polygon(s, x, y, &[(0.0, -7.0), (7.0, 0.0), (0.0, 7.0), (-7.0, 0.0)], fill),
                SvgItemKind::Armor => polygon(s, x, y, &[(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)], fill),
                SvgItemKind::Health => polygon(
                    s,
                    x,
                    y,
                    &[
                        (-2.0, -6.0),
                        (2.0, -6.0),
                        (2.0, -2.0),
                        (6.0, -2.0),
                        (6.0, 2.0),
                        (2.0, 2.0),
                        (2.0, 6.0),
                        (-2.0, 6.0),
                        (-2.0, 2.0),
                        (-6.0, 2.0),
                        (-6.0, -2.0),
                        (-2.0, -2.0),
                    ],
                    fill,
                ),
                SvgItemKind::Powerup => {
                    let star: Vec<(f32, f32)> = (0..10)
                        .map(|i| {
                            let r = if i % 2 == 0 { 8.0 } else { 3.5 };
                            let a = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
                            (r * a.cos(), r * a.sin())
                        })
                        .collect();
                    polygon(s, x, y, &star, fill);
                }
                SvgItemKind::Ammo => polygon(s, x, y, &[(0.0, -5.0), (5.0, 4.0), (-5.0, 4.0)], fill),
                SvgItemKind::Other => {
                    let _ = write!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{fill}" {OUTLINE}/>"#);
                }
            }
        }
    }
}
