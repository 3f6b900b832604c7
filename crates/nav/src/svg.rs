//! A top-down SVG picture of a mesh: nodes as cell squares coloured by
//! height (blue low, red high), links coloured by type, jump pad and
//! teleporter links as arrows, and optionally one route and a set of
//! [`SvgMark`]s (stuck hotspots, say) drawn on top.
//! World x is right, world y is up (the picture flips y).

use std::fmt::Write;

use glam::Vec3;

use crate::graph::LinkKind;
use crate::mesh::NavMesh;
use crate::route::Route;

/// Width of the picture's longer side in pixels.
const PICTURE_PX: f32 = 2048.0;
/// Margin around the mesh in pixels.
const MARGIN_PX: f32 = 16.0;

fn colour(kind: LinkKind) -> &'static str {
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

/// Blue (t = 0) through green to red (t = 1).
fn height_colour(t: f32) -> String {
    let hue = 240.0 * (1.0 - t.clamp(0.0, 1.0));
    format!("hsl({hue:.0},70%,55%)")
}

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

/// `text` with the characters XML gives meaning to escaped.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl NavMesh {
    /// The mesh as an SVG document; see the module docs.
    pub fn export_svg(&self, route: Option<&Route>) -> String {
        self.export_svg_marked(route, &[])
    }

    /// The mesh as an SVG document with `marks` drawn on top (red circles
    /// with their labels as tooltips).
    pub fn export_svg_marked(&self, route: Option<&Route>, marks: &[SvgMark]) -> String {
        let nodes = &self.graph.nodes;
        let cs = self.cell_size();
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for n in nodes {
            lo = lo.min(n.origin);
            hi = hi.max(n.origin);
        }
        if nodes.is_empty() {
            (lo, hi) = (Vec3::ZERO, Vec3::ONE);
        }
        let extent = (hi - lo).truncate().max_element().max(1.0) + cs;
        let scale = (PICTURE_PX - 2.0 * MARGIN_PX) / extent;
        let (w, h) = (
            (hi.x - lo.x + cs) * scale + 2.0 * MARGIN_PX,
            (hi.y - lo.y + cs) * scale + 2.0 * MARGIN_PX,
        );
        let px = |p: Vec3| {
            (
                MARGIN_PX + (p.x - lo.x + cs * 0.5) * scale,
                MARGIN_PX + (hi.y - p.y + cs * 0.5) * scale,
            )
        };
        let mut s = String::with_capacity(nodes.len() * 80 + self.graph.links.len() * 60);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
        );
        s.push_str("<defs>");
        for kind in [LinkKind::JumpPad, LinkKind::Teleport, LinkKind::Lift, LinkKind::Swim] {
            let _ = write!(
                s,
                r#"<marker id="arrow-{}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
                kind.name(),
                colour(kind)
            );
        }
        s.push_str(
            "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#101010\"/>\n<g id=\"nodes\">\n",
        );
        let zspan = (hi.z - lo.z).max(1.0);
        let side = (cs * scale).max(1.0);
        for n in nodes {
            let (x, y) = px(n.origin);
            let _ = writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{}" fill-opacity="0.55"/>"#,
                x - side * 0.5,
                y - side * 0.5,
                height_colour((n.origin.z - lo.z) / zspan)
            );
        }
        s.push_str("</g>\n<g id=\"links\" stroke-linecap=\"round\">\n");
        for (li, l) in self.graph.links.iter().enumerate() {
            let Some(from) = self.graph.source.get(li).copied() else {
                continue;
            };
            let (Some(a), Some(b)) = (nodes.get(from as usize), nodes.get(l.to.index())) else {
                continue;
            };
            let two_way_walk = l.kind == LinkKind::Walk
                && from > l.to.0
                && self
                    .graph
                    .links_from(l.to.0)
                    .1
                    .iter()
                    .any(|r| r.to.0 == from && r.kind == LinkKind::Walk);
            if two_way_walk {
                continue;
            }
            let ((x1, y1), (x2, y2)) = (px(a.origin), px(b.origin));
            let (width, marker) = match l.kind {
                LinkKind::Walk => (0.6, String::new()),
                LinkKind::Drop | LinkKind::Jump => (1.0, String::new()),
                k => (2.0, format!(r#" marker-end="url(#arrow-{})""#, k.name())),
            };
            let _ = writeln!(
                s,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{width}"{marker}/>"#,
                colour(l.kind)
            );
        }
        s.push_str("</g>\n");
        if let Some(r) = route {
            let mut points = vec![px(r.routed_start)];
            points.extend(r.corners.iter().map(|c| px(c.origin)));
            let list: Vec<String> = points
                .iter()
                .map(|(x, y)| format!("{x:.1},{y:.1}"))
                .collect();
            let _ = writeln!(
                s,
                r##"<g id="route"><polyline points="{}" fill="none" stroke="#ffffff" stroke-width="3"/>"##,
                list.join(" ")
            );
            for (x, y) in &points {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="#ffff00"/>"##
                );
            }
            s.push_str("</g>\n");
        }
        if !marks.is_empty() {
            s.push_str("<g id=\"marks\">\n");
            for m in marks {
                let (x, y) = px(m.pos);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#ff2020" fill-opacity="0.35" stroke="#ff4040" stroke-width="2"><title>{}</title></circle>"##,
                    (m.radius * scale).max(3.0),
                    xml_escape(&m.label)
                );
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}
