//! The side panel beside the mesh: title, figures, scale bar, height
//! gradient and the legend of links, features, marks and route.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::symbols::{FeatureClass, arrowed, feature_symbol, height_colour, link_colour};
use super::xml_escape;
use crate::graph::LinkKind;

/// Lengths the scale bar may have, world units.
const SCALE_LENGTHS: [f32; 9] = [16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0];
/// The scale bar's preferred length, pixels.
const SCALE_TARGET_PX: f32 = 150.0;
/// Padding inside the panel.
const PAD: f32 = 14.0;
/// Text colours: main and secondary.
const TEXT: &str = "#d8dade";
const DIM: &str = "#8a8f98";
/// Characters of title per line (20 px bold in a 272 px column).
const TITLE_CHARS: usize = 22;

/// What the panel shows.
#[derive(Debug, Clone)]
pub(super) struct Panel<'a> {
    /// Top-left corner and width, pixels.
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) width: f32,
    /// The map's name.
    pub(super) title: Option<&'a str>,
    /// Mesh figures.
    pub(super) nodes: usize,
    pub(super) areas: usize,
    pub(super) cell: f32,
    /// Pixels per world unit.
    pub(super) scale: f32,
    /// Lowest and highest floor, world z.
    pub(super) floor: (f32, f32),
    /// Links of each kind, in [`LinkKind::ALL`] order.
    pub(super) links: [usize; LinkKind::ALL.len()],
    /// Features drawn, by class.
    pub(super) features: BTreeMap<FeatureClass, usize>,
    /// Marks drawn, and what they are.
    pub(super) marks: usize,
    pub(super) marks_label: &'a str,
    /// Whether a route is drawn.
    pub(super) route: bool,
}

/// The scale bar's length in world units: the one of [`SCALE_LENGTHS`]
/// nearest [`SCALE_TARGET_PX`] pixels at `scale` that fits in `max_px`.
pub(super) fn scale_length(scale: f32, max_px: f32) -> f32 {
    SCALE_LENGTHS
        .into_iter()
        .filter(|l| l * scale <= max_px)
        .min_by(|a, b| (a * scale - SCALE_TARGET_PX).abs().total_cmp(&(b * scale - SCALE_TARGET_PX).abs()))
        .unwrap_or(SCALE_LENGTHS[0])
}

/// A link kind's name in the legend.
fn link_label(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Walk => "walk",
        LinkKind::Drop => "drop",
        LinkKind::Jump => "jump",
        LinkKind::JumpPad => "jump pad",
        LinkKind::Teleport => "teleporter",
        LinkKind::Lift => "lift",
        LinkKind::Swim => "swim",
        LinkKind::Crouch => "crouch",
    }
}

/// `text` cut into lines of at most `max` characters at spaces (a longer
/// word gets a line of its own).
pub(super) fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// Writes text at `(x, y)` (baseline) in `size` px.
fn text(s: &mut String, x: f32, y: f32, size: f32, fill: &str, extra: &str, body: &str) {
    let _ = writeln!(
        s,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}"{extra}>{}</text>"#,
        xml_escape(body)
    );
}

/// A row's name at the left and its count at the right.
fn row(s: &mut String, p: &Panel<'_>, y: f32, name: &str, count: usize) {
    text(s, p.x + PAD + 36.0, y + 4.5, 13.0, TEXT, "", name);
    text(s, p.x + p.width - PAD, y + 4.5, 12.0, DIM, r#" text-anchor="end""#, &count.to_string());
}

/// A section heading with a rule above it; moves `y` past it.
fn heading(s: &mut String, p: &Panel<'_>, y: &mut f32, title: &str) {
    *y += 10.0;
    let _ = writeln!(
        s,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#2c2f36" stroke-width="1"/>"##,
        p.x + PAD,
        *y,
        p.x + p.width - PAD,
        *y
    );
    *y += 20.0;
    text(s, p.x + PAD, *y, 11.5, DIM, r#" font-weight="bold" letter-spacing="1""#, title);
    *y += 18.0;
}

/// Writes the panel; returns its height.
pub(super) fn panel(out: &mut String, p: &Panel<'_>) -> f32 {
    let (x0, inner) = (p.x + PAD, p.width - 2.0 * PAD);
    let mut s = String::new();
    let mut y = p.y + PAD + 6.0;
    for line in wrap(p.title.unwrap_or("Navigation mesh"), TITLE_CHARS) {
        y += 20.0;
        text(&mut s, x0, y, 20.0, "#f4f5f7", r#" font-weight="bold" class="title""#, &line);
        y += 4.0;
    }
    y += 18.0;
    let links: usize = p.links.iter().sum();
    let cell = match p.title {
        Some(_) => format!("navigation mesh, cells of {:.0} units", p.cell),
        None => format!("cells of {:.0} units", p.cell),
    };
    text(&mut s, x0, y, 12.5, DIM, "", &cell);
    y += 17.0;
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let figures = [plural(p.nodes, "node"), plural(links, "link"), plural(p.areas, "area")].join(", ");
    text(&mut s, x0, y, 12.5, DIM, "", &figures);
    y += 4.0;

    heading(&mut s, p, &mut y, "SCALE");
    let units = scale_length(p.scale, inner);
    let bar = units * p.scale;
    let _ = writeln!(
        s,
        r#"<path class="scale-bar" d="M{x0:.1},{:.1} V{:.1} H{:.1} V{:.1} M{:.1},{:.1} V{:.1}" fill="none" stroke="{TEXT}" stroke-width="2"/>"#,
        y - 6.0,
        y + 2.0,
        x0 + bar,
        y - 6.0,
        x0 + bar * 0.5,
        y + 2.0,
        y - 3.0
    );
    y += 20.0;
    text(&mut s, x0, y, 13.0, TEXT, r#" class="scale-label""#, &format!("{units:.0} units"));
    text(&mut s, x0 + inner, y, 12.0, DIM, r#" text-anchor="end""#, &format!("1 px = {:.2} units", 1.0 / p.scale));
    y += 4.0;

    heading(&mut s, p, &mut y, "FLOOR HEIGHT");
    let _ = write!(s, r#"<defs><linearGradient id="height-gradient">"#);
    for i in 0..=8 {
        let t = i as f32 / 8.0;
        let _ = write!(s, r#"<stop offset="{t:.3}" stop-color="{}"/>"#, height_colour(t));
    }
    s.push_str("</linearGradient></defs>\n");
    // The nodes' own opacity over the mesh's background, so the colours match.
    let _ = writeln!(
        s,
        r##"<rect class="gradient-back" x="{x0:.1}" y="{:.1}" width="{inner:.1}" height="14" fill="#101010"/><rect class="gradient" x="{x0:.1}" y="{:.1}" width="{inner:.1}" height="14" fill="url(#height-gradient)" fill-opacity="0.55"/>"##,
        y - 8.0,
        y - 8.0
    );
    y += 24.0;
    // Rounded, without a minus sign on zero.
    let (lo, hi) = (p.floor.0.round() + 0.0, p.floor.1.round() + 0.0);
    text(&mut s, x0, y, 12.5, TEXT, r#" class="height-low""#, &format!("{lo:.0}"));
    text(&mut s, x0 + inner * 0.5, y, 12.0, DIM, r#" text-anchor="middle""#, "z, units");
    text(&mut s, x0 + inner, y, 12.5, TEXT, r#" text-anchor="end" class="height-high""#, &format!("{hi:.0}"));
    y += 4.0;

    heading(&mut s, p, &mut y, "LINKS");
    for (kind, count) in LinkKind::ALL.into_iter().zip(p.links) {
        let marker = if arrowed(kind) { format!(r#" marker-end="url(#arrow-{})""#, kind.name()) } else { String::new() };
        let width = if arrowed(kind) { 2.0 } else { 3.0 };
        let _ = writeln!(
            s,
            r#"<line class="legend-link" data-kind="{}" x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="{width}" stroke-linecap="round"{marker}/>"#,
            kind.name(),
            x0 + 2.0,
            x0 + 26.0,
            link_colour(kind)
        );
        row(&mut s, p, y, link_label(kind), count);
        y += 21.0;
    }

    if !p.features.is_empty() {
        heading(&mut s, p, &mut y, "MAP");
        for (class, count) in &p.features {
            let _ = write!(s, r#"<g class="legend-feature" data-kind="{}">"#, class.tag());
            // A flag stands on its spot: lower it so the pennant is on the row.
            let (dy, step) = if matches!(class, FeatureClass::Flag(_)) { (10.0, 28.0) } else { (0.0, 22.0) };
            feature_symbol(&mut s, class.sample(), x0 + 10.0, y + dy);
            s.push_str("</g>\n");
            row(&mut s, p, y, class.name(), *count);
            y += step;
        }
    }
    if p.marks > 0 || p.route {
        heading(&mut s, p, &mut y, "MARKS");
    }
    if p.marks > 0 {
        let _ = writeln!(
            s,
            r##"<circle class="legend-mark" cx="{:.1}" cy="{y:.1}" r="8" fill="#ff2020" fill-opacity="0.35" stroke="#ff4040" stroke-width="2"/>"##,
            x0 + 12.0
        );
        let label = if p.marks_label.is_empty() { "marked spot" } else { p.marks_label };
        row(&mut s, p, y, label, p.marks);
        y += 22.0;
    }
    if p.route {
        let _ = writeln!(
            s,
            r##"<polyline class="legend-route" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="none" stroke="#ffffff" stroke-width="3"/><circle cx="{:.1}" cy="{:.1}" r="4" fill="#ffff00"/>"##,
            x0 + 2.0,
            y + 5.0,
            x0 + 13.0,
            y - 5.0,
            x0 + 26.0,
            y + 3.0,
            x0 + 13.0,
            y - 5.0
        );
        row(&mut s, p, y, "route", 1);
        y += 22.0;
    }
    if !p.features.is_empty() || p.marks > 0 {
        y += 6.0;
        text(&mut s, x0, y, 11.5, DIM, r#" font-style="italic""#, "Point at a symbol for its name.");
        y += 4.0;
    }
    let height = y + PAD - p.y;
    let _ = writeln!(
        out,
        r##"<g id="legend"><rect class="panel" x="{:.1}" y="{:.1}" width="{:.1}" height="{height:.1}" rx="6" fill="#17191d" stroke="#2c2f36"/>"##,
        p.x, p.y, p.width
    );
    out.push_str(&s);
    out.push_str("</g>\n");
    height
}
