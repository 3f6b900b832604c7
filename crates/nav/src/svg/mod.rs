//! A top-down SVG picture of a mesh for mappers: nodes as cell squares
//! coloured by floor height (blue low, red high), links coloured by type,
//! jump pad, teleporter, lift and swim links as arrows, the map's features
//! ([`SvgFeature`]: spawn points with their facing, items by category,
//! flags) on top with their names as tooltips, and optionally one route and
//! a set of [`SvgMark`]s (stuck hotspots, say). A side panel beside the
//! mesh (never over it) holds the title, a scale bar of a round length and
//! the legend: every link kind, the height gradient with the lowest and
//! highest floor, every kind of feature drawn, the marks.
//! World x is right, world y is up (the picture flips y).
//!
//! The caller says what each entity is: this crate draws kinds, it does not
//! read class names.

mod draw;
mod legend;
mod symbols;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt::Write;

use glam::Vec3;

use crate::graph::LinkKind;
use crate::mesh::NavMesh;
use crate::route::Route;
use draw::Frame;
use symbols::{FeatureClass, arrowed, height_colour, link_colour};

/// The longer side of the mesh drawing in pixels.
const MESH_PX: f32 = 1200.0;
/// Margin around the mesh and the side panel in pixels.
const MARGIN_PX: f32 = 16.0;
/// Width of the side panel (title, scale bar, legend) in pixels.
const PANEL_PX: f32 = 300.0;

/// A place to mark on the picture: a circle of `radius` units, labelled.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgMark {
    /// Where.
    pub pos: Vec3,
    /// The circle's radius, world units.
    pub radius: f32,
    /// Shown when the pointer rests on it.
    pub label: String,
}

/// A team, for team spawn points and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SvgTeam {
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Neither (the One Flag game type's white flag).
    Neutral,
}

/// What sort of pickup an item is; each has its own shape and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SvgItemKind {
    /// A weapon (orange diamond).
    Weapon,
    /// Armor (yellow square).
    Armor,
    /// Health (green cross).
    Health,
    /// A powerup: quad damage, haste... (violet star).
    Powerup,
    /// Ammo (tan triangle).
    Ammo,
    /// Anything else: holdables, keys (grey dot).
    Other,
}

/// What a map feature is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SvgFeatureKind {
    /// A player spawn point: a dot (white, or its team's colour) with a
    /// tick toward where the player faces.
    Spawn {
        /// Its team; `None` for free-for-all spawns.
        team: Option<SvgTeam>,
        /// Facing in degrees, counter-clockwise from world +x (the
        /// `angle` key), if known.
        yaw: Option<f32>,
    },
    /// A pickup.
    Item(SvgItemKind),
    /// A flag base: a pennant in the team's colour.
    Flag(SvgTeam),
}

/// A map feature to draw on the mesh: a spawn point, an item, a flag.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgFeature {
    /// Where it stands, world units.
    pub pos: Vec3,
    /// What it is.
    pub kind: SvgFeatureKind,
    /// Shown when the pointer rests on it (the class name, say).
    pub label: String,
}

/// What [`NavMesh::export_svg_with`] draws besides the mesh.
#[derive(Debug, Clone, Copy, Default)]
pub struct SvgOptions<'a> {
    /// The title at the top of the side panel (the map's name), if any.
    pub title: Option<&'a str>,
    /// A route to draw (a white line with yellow corners).
    pub route: Option<&'a Route>,
    /// Places to mark with red circles.
    pub marks: &'a [SvgMark],
    /// What the marks are, for the legend (empty: "marked spot").
    pub marks_label: &'a str,
    /// Spawn points, items and flags.
    pub features: &'a [SvgFeature],
}

/// `text` with the characters XML gives meaning to escaped.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl NavMesh {
    /// The mesh as an SVG document; see the module docs.
    pub fn export_svg(&self, route: Option<&Route>) -> String {
        self.export_svg_with(&SvgOptions { route, ..SvgOptions::default() })
    }

    /// The mesh as an SVG document with `marks` drawn on top (red circles
    /// with their labels as tooltips).
    pub fn export_svg_marked(&self, route: Option<&Route>, marks: &[SvgMark]) -> String {
        self.export_svg_with(&SvgOptions { route, marks, ..SvgOptions::default() })
    }

    /// The mesh as an SVG document with a side panel (title, scale bar,
    /// legend) and what `options` asks for drawn on top; see the module docs.
    pub fn export_svg_with(&self, options: &SvgOptions<'_>) -> String {
        let nodes = &self.graph.nodes;
        let cs = self.cell_size();
        let frame = Frame::around(
            nodes
                .iter()
                .map(|n| n.origin.truncate())
                .chain(options.features.iter().map(|f| f.pos.truncate()))
                .chain(options.marks.iter().map(|m| m.pos.truncate())),
            cs,
        );
        let (mut zlo, mut zhi) = (f32::MAX, f32::MIN);
        for n in nodes {
            zlo = zlo.min(n.origin.z);
            zhi = zhi.max(n.origin.z);
        }
        if nodes.is_empty() {
            (zlo, zhi) = (0.0, 0.0);
        }
        let mut link_counts = [0usize; LinkKind::ALL.len()];
        for l in &self.graph.links {
            if let Some(i) = LinkKind::ALL.iter().position(|k| *k == l.kind) {
                link_counts[i] += 1;
            }
        }
        let mut feature_counts: BTreeMap<FeatureClass, usize> = BTreeMap::new();
        for f in options.features {
            *feature_counts.entry(FeatureClass::of(f.kind)).or_default() += 1;
        }
        let panel_x = MARGIN_PX + frame.width + MARGIN_PX;
        let mut panel = String::new();
        let panel_height = legend::panel(
            &mut panel,
            &legend::Panel {
                x: panel_x,
                y: MARGIN_PX,
                width: PANEL_PX,
                title: options.title,
                nodes: nodes.len(),
                areas: self.area_count(),
                cell: cs,
                scale: frame.scale,
                // Nodes are player origins; the floor is `min_z` below.
                floor: (zlo + self.agent().min_z, zhi + self.agent().min_z),
                links: link_counts,
                features: feature_counts,
                marks: options.marks.len(),
                marks_label: options.marks_label,
                route: options.route.is_some(),
            },
        );
        let width = panel_x + PANEL_PX + MARGIN_PX;
        let height = (frame.height + 2.0 * MARGIN_PX).max(panel_height + 2.0 * MARGIN_PX);

        let mut s = String::with_capacity(nodes.len() * 80 + self.graph.links.len() * 60 + panel.len() + 4096);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
        );
        s.push_str("<defs>");
        for kind in LinkKind::ALL.into_iter().filter(|k| arrowed(*k)) {
            let _ = write!(
                s,
                r#"<marker id="arrow-{}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
                kind.name(),
                link_colour(kind)
            );
        }
        s.push_str("</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#101010\"/>\n<g id=\"nodes\">\n");
        let zspan = (zhi - zlo).max(1.0);
        let side = (cs * frame.scale).max(1.0);
        for n in nodes {
            let (x, y) = frame.px(n.origin);
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{}" fill-opacity="0.55"/>"#,
                x - side * 0.5,
                y - side * 0.5,
                height_colour((n.origin.z - zlo) / zspan)
            );
        }
        s.push_str("</g>\n");
        self.draw_links(&mut s, &frame);
        if let Some(r) = options.route {
            draw::draw_route(&mut s, &frame, r);
        }
        draw::draw_marks(&mut s, &frame, options.marks);
        draw::draw_features(&mut s, &frame, options.features);
        s.push_str(&panel);
        s.push_str("</svg>\n");
        s
    }
}
