//! The layers over the mesh's nodes: links, a route, marks and features,
//! and the frame mapping world points into the picture.

use std::fmt::Write;

use glam::{Vec2, Vec3};

use super::symbols::{FeatureClass, arrowed, feature_symbol, link_colour};
use super::{MARGIN_PX, MESH_PX, SvgFeature, SvgMark, xml_escape};
use crate::graph::LinkKind;
use crate::mesh::NavMesh;
use crate::route::Route;

/// Where the mesh goes in the picture.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// World x of the picture's left edge and y of its top edge (the
    /// corner of the mesh drawing, half a cell out).
    pub(super) left: f32,
    pub(super) top: f32,
    /// Pixels per world unit.
    pub(super) scale: f32,
    /// Size of the mesh drawing, pixels.
    pub(super) width: f32,
    pub(super) height: f32,
}

impl Frame {
    /// The frame holding every point of `points` (and a cell around each),
    /// scaled so its longer side is [`MESH_PX`].
    pub(super) fn around(points: impl Iterator<Item = Vec2>, cell: f32) -> Frame {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for p in points.filter(|p| p.is_finite()) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        if lo.x > hi.x {
            (lo, hi) = (Vec2::ZERO, Vec2::ONE);
        }
        let cell = if cell.is_finite() && cell > 0.0 { cell } else { 1.0 };
        let extent = (hi - lo).max(Vec2::ONE) + Vec2::splat(cell);
        let scale = MESH_PX / extent.max_element();
        Frame {
            left: lo.x - cell * 0.5,
            top: hi.y + cell * 0.5,
            scale,
            width: extent.x * scale,
            height: extent.y * scale,
        }
    }

    /// The picture position of world point `p`.
    pub(super) fn px(&self, p: Vec3) -> (f32, f32) {
        (MARGIN_PX + (p.x - self.left) * self.scale, MARGIN_PX + (self.top - p.y) * self.scale)
    }
}

impl NavMesh {
    /// Every link as a line; a two-way walk once.
    pub(super) fn draw_links(&self, s: &mut String, frame: &Frame) {
        let nodes = &self.graph.nodes;
        s.push_str("<g id=\"links\" stroke-linecap=\"round\">\n");
        for (li, l) in self.graph.links.iter().enumerate() {
            let Some(from) = self.graph.source.get(li).copied() else {
                continue;
            };
            let (Some(a), Some(b)) = (nodes.get(from as usize), nodes.get(l.to.index())) else {
                continue;
            };
            let two_way_walk = l.kind == LinkKind::Walk
                && from > l.to.0
                && self.graph.links_from(l.to.0).1.iter().any(|r| r.to.0 == from && r.kind == LinkKind::Walk);
            if two_way_walk {
                continue;
            }
            let ((x1, y1), (x2, y2)) = (frame.px(a.origin), frame.px(b.origin));
            let (width, marker) = match l.kind {
                LinkKind::Walk => (0.6, String::new()),
                k if arrowed(k) => (2.0, format!(r#" marker-end="url(#arrow-{})""#, k.name())),
                _ => (1.0, String::new()),
            };
            let _ = writeln!(
                s,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{width}"{marker}/>"#,
                link_colour(l.kind)
            );
        }
        s.push_str("</g>\n");
    }
}

/// A route as a white line through its corners, each a yellow dot.
pub(super) fn draw_route(s: &mut String, frame: &Frame, r: &Route) {
    let mut points = vec![frame.px(r.routed_start)];
    points.extend(r.corners.iter().map(|c| frame.px(c.origin)));
    let list: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let _ = writeln!(
        s,
        r##"<g id="route"><polyline points="{}" fill="none" stroke="#ffffff" stroke-width="3"/>"##,
        list.join(" ")
    );
    for (x, y) in &points {
        let _ = writeln!(s, r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="#ffff00"/>"##);
    }
    s.push_str("</g>\n");
}

/// Marks as translucent red circles of their radius, labelled.
pub(super) fn draw_marks(s: &mut String, frame: &Frame, marks: &[SvgMark]) {
    if marks.is_empty() {
        return;
    }
    s.push_str("<g id=\"marks\">\n");
    for m in marks {
        let (x, y) = frame.px(m.pos);
        let _ = writeln!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#ff2020" fill-opacity="0.35" stroke="#ff4040" stroke-width="2"><title>{}</title></circle>"##,
            (m.radius * frame.scale).max(3.0),
            xml_escape(&m.label)
        );
    }
    s.push_str("</g>\n");
}

/// Features as their symbols, labelled: spawns under items under flags.
pub(super) fn draw_features(s: &mut String, frame: &Frame, features: &[SvgFeature]) {
    if features.is_empty() {
        return;
    }
    s.push_str("<g id=\"features\">\n");
    let mut order: Vec<&SvgFeature> = features.iter().collect();
    order.sort_by_key(|f| FeatureClass::of(f.kind));
    for f in order {
        let (x, y) = frame.px(f.pos);
        let _ = write!(
            s,
            r#"<g class="feature" data-kind="{}"><title>{}</title>"#,
            FeatureClass::of(f.kind).tag(),
            xml_escape(&f.label)
        );
        feature_symbol(s, f.kind, x, y);
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n");
}
