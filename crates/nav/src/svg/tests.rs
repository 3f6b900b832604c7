//! The picture's legend, scale bar, features and well-formedness.

use glam::Vec3;

use super::legend::scale_length;
use super::{SvgFeature, SvgFeatureKind, SvgItemKind, SvgMark, SvgOptions, SvgTeam};
use crate::NavMesh;
use crate::tests::{TestMap, floor};

/// A floor at z 0 with a raised platform 16 units up at its east end, and
/// a spawn and an item to seed the mesh.
fn two_level_mesh() -> NavMesh {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [512.0, 128.0]);
    m.solid([256.0, -128.0, -16.0], [512.0, 128.0, 16.0]);
    m.spawn([-420.0, 0.0, 0.0]).item([400.0, 0.0, 16.0]);
    m.build(16.0).1
}

fn feature(x: f32, y: f32, kind: SvgFeatureKind, label: &str) -> SvgFeature {
    SvgFeature { pos: Vec3::new(x, y, 24.0), kind, label: label.to_owned() }
}

/// One feature of every kind; the last stands far east of the mesh.
fn every_feature() -> Vec<SvgFeature> {
    use SvgFeatureKind::{Flag, Item, Spawn};
    vec![
        feature(-420.0, 0.0, Spawn { team: None, yaw: Some(90.0) }, "info_player_deathmatch"),
        feature(-380.0, 60.0, Spawn { team: Some(SvgTeam::Red), yaw: None }, "team_CTF_redspawn"),
        feature(-380.0, -60.0, Spawn { team: Some(SvgTeam::Blue), yaw: Some(0.0) }, "team_CTF_bluespawn"),
        feature(-300.0, 0.0, Item(SvgItemKind::Weapon), "weapon_railgun"),
        feature(-200.0, 0.0, Item(SvgItemKind::Armor), "item_armor_body"),
        feature(-100.0, 0.0, Item(SvgItemKind::Health), "item_health_mega"),
        feature(0.0, 0.0, Item(SvgItemKind::Powerup), "item_quad"),
        feature(100.0, 0.0, Item(SvgItemKind::Ammo), "ammo_slugs"),
        feature(-450.0, 100.0, Flag(SvgTeam::Red), "team_CTF_redflag"),
        feature(450.0, 100.0, Flag(SvgTeam::Blue), "team_CTF_blueflag"),
        feature(0.0, 100.0, Flag(SvgTeam::Neutral), "team_CTF_neutralflag"),
        feature(1500.0, 0.0, Item(SvgItemKind::Other), "holdable_medkit <far away>"),
    ]
}

/// Checks the document is well formed enough: every tag closed in order,
/// attributes quoted, text and attribute values with `&` escaped only as
/// entities, one `svg` root. Returns the number of elements.
fn check_well_formed(svg: &str) -> usize {
    let mut stack: Vec<&str> = Vec::new();
    let mut elements = 0;
    let mut rest = svg;
    let mut roots = 0;
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open]);
        let Some(close) = rest[open..].find('>') else { panic!("unclosed tag at {}", &rest[open..]) };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        assert!(!tag.contains('<'), "'<' inside <{tag}>");
        check_text(tag);
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "</{name}> closes the wrong element");
            continue;
        }
        let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("");
        assert!(!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()), "bad tag <{tag}>");
        elements += 1;
        if stack.is_empty() {
            roots += 1;
            assert_eq!(name, "svg", "the root is <svg>");
        }
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    check_text(rest);
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
    elements
}

/// Every `&` starts an entity.
fn check_text(text: &str) {
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#"].iter().any(|e| entity.starts_with(e)),
            "unescaped & in {text}"
        );
    }
}

/// The number after `attr="` in `element`.
fn attr(element: &str, name: &str) -> f32 {
    let key = format!(" {name}=\"");
    let at = element.find(&key).unwrap_or_else(|| panic!("no {name} in {element}")) + key.len();
    let end = element[at..].find('"').unwrap_or_else(|| panic!("unquoted {name}")) + at;
    element[at..end].parse().unwrap_or_else(|e| panic!("{name} in {element}: {e}"))
}

/// Every element of `svg` starting with `prefix` (up to its `>`).
fn elements<'a>(svg: &'a str, prefix: &str) -> Vec<&'a str> {
    svg.match_indices(prefix)
        .map(|(i, _)| {
            let end = svg[i..].find('>').map_or(svg.len(), |e| i + e + 1);
            &svg[i..end]
        })
        .collect()
}

#[test]
fn the_picture_has_a_legend_a_scale_bar_and_one_symbol_per_feature() {
    let mesh = two_level_mesh();
    let features = every_feature();
    let marks = [SvgMark { pos: Vec3::new(0.0, 0.0, 24.0), radius: 20.0, label: "5.0 s stuck".into() }];
    let svg = mesh.export_svg_with(&SvgOptions {
        title: Some("test <map> & co"),
        route: None,
        marks: &marks,
        marks_label: "stuck hotspot",
        features: &features,
    });
    let count = check_well_formed(&svg);
    assert!(count > mesh.node_count(), "{count} elements");
    // The mesh as before: one square per node.
    assert_eq!(svg.matches("<rect x=").count(), mesh.node_count());
    // One symbol per feature, each with its label as a tooltip.
    assert_eq!(svg.matches(r#"<g class="feature""#).count(), features.len());
    for f in &features {
        let label = super::xml_escape(&f.label);
        assert_eq!(svg.matches(&format!("<title>{label}</title>")).count(), 1, "{label}");
    }
    assert!(svg.contains("<title>holdable_medkit &lt;far away&gt;</title>"));
    // The title, escaped.
    assert!(svg.contains(">test &lt;map&gt; &amp; co</text>"), "title");
    // Every link kind in the legend, with its colour.
    assert_eq!(svg.matches(r#"<line class="legend-link""#).count(), crate::LinkKind::ALL.len());
    for name in ["walk", "drop", "jump", "jump pad", "teleporter", "lift", "swim", "crouch"] {
        assert!(svg.contains(&format!(">{name}</text>")), "legend lacks {name}");
    }
    // Every kind of feature drawn, once each in the legend.
    for name in [
        "spawn point",
        "red spawn point",
        "blue spawn point",
        "red flag",
        "blue flag",
        "neutral flag",
        "weapon",
        "armor",
        "health",
        "powerup",
        "ammo",
        "other item",
    ] {
        assert_eq!(svg.matches(&format!(">{name}</text>")).count(), 1, "legend lacks {name}");
    }
    assert_eq!(svg.matches(r#"<g class="legend-feature""#).count(), 12);
    // The marks, in the legend too.
    assert!(svg.contains(">stuck hotspot</text>") && svg.contains("<title>5.0 s stuck</title>"));
    // The height gradient runs from the floor (z 0) to the platform (z 16).
    assert!(svg.contains(r#"class="height-low">0</text>"#), "lowest floor");
    assert!(svg.contains(r#"class="height-high">16</text>"#), "highest floor");
    assert!(svg.contains("url(#height-gradient)"));
    // A scale bar of a round length, about 150 px long.
    let bar = elements(&svg, r#"<path class="scale-bar""#);
    assert_eq!(bar.len(), 1);
    let label = svg.split(r#"class="scale-label">"#).nth(1).and_then(|t| t.split(" units<").next()).expect("scale label");
    let units: f32 = label.parse().expect("a length");
    assert!([64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0].contains(&units), "{units}");
    let d = bar[0].split(" d=\"M").nth(1).expect("d");
    let x0: f32 = d.split(',').next().and_then(|v| v.parse().ok()).expect("start");
    let x1: f32 = d.split(" H").nth(1).and_then(|v| v.split(' ').next()).and_then(|v| v.parse().ok()).expect("end");
    assert!((75.0..=300.0).contains(&(x1 - x0)), "bar of {} px", x1 - x0);
    // The legend is beside the mesh, never over it; the canvas holds both.
    let panel = elements(&svg, r#"<rect class="panel""#);
    assert_eq!(panel.len(), 1);
    let panel_x = attr(panel[0], "x");
    let mesh_right = elements(&svg, "<rect x=").iter().map(|r| attr(r, "x") + attr(r, "width")).fold(0.0, f32::max);
    let symbols_right = svg
        .match_indices(r#"<g class="feature""#)
        .filter_map(|(i, _)| svg[i..].find(" cx=\"").map(|c| attr(&svg[i + c..], "cx")))
        .fold(0.0, f32::max);
    assert!(mesh_right < panel_x && symbols_right + 8.0 < panel_x, "{mesh_right} {symbols_right} {panel_x}");
    let root = elements(&svg, "<svg")[0];
    assert!(attr(root, "width") >= panel_x + attr(panel[0], "width"));
    assert!(attr(root, "height") >= attr(panel[0], "y") + attr(panel[0], "height"));
}

#[test]
fn spawn_ticks_point_where_the_player_faces() {
    let mesh = two_level_mesh();
    let north = [feature(0.0, 0.0, SvgFeatureKind::Spawn { team: None, yaw: Some(90.0) }, "north")];
    let svg = mesh.export_svg_with(&SvgOptions { features: &north, ..SvgOptions::default() });
    let at = svg.find(r#"<g class="feature""#).expect("the spawn");
    let line = elements(&svg[at..], "<line")[0];
    let (x1, y1, x2, y2) = (attr(line, "x1"), attr(line, "y1"), attr(line, "x2"), attr(line, "y2"));
    assert!((x2 - x1).abs() < 0.5 && y2 < y1 - 10.0, "facing +y is up the picture: {line}");
    let unknown = [feature(0.0, 0.0, SvgFeatureKind::Spawn { team: None, yaw: None }, "any way")];
    let svg = mesh.export_svg_with(&SvgOptions { features: &unknown, ..SvgOptions::default() });
    let at = svg.find(r#"<g class="feature""#).expect("the spawn");
    let end = svg[at..].find("</g>").expect("closed") + at;
    assert!(!svg[at..end].contains("<line"), "no facing, no tick");
}

#[test]
fn the_old_exports_draw_the_legend_without_features() {
    let mesh = two_level_mesh();
    let plain = mesh.export_svg(None);
    check_well_formed(&plain);
    assert!(plain.contains(">Navigation mesh</text>") && plain.contains(r#"class="scale-bar""#));
    assert!(!plain.contains(r#"class="feature""#) && !plain.contains(">MAP</text>") && !plain.contains(">MARKS</text>"));
    let marks = [SvgMark { pos: Vec3::ZERO, radius: 10.0, label: "here".into() }];
    let marked = mesh.export_svg_marked(None, &marks);
    check_well_formed(&marked);
    assert!(marked.contains(">marked spot</text>") && marked.contains("<title>here</title>"));
}

#[test]
fn scale_bars_are_round_and_near_150_px() {
    assert_eq!(scale_length(1.0, 272.0), 128.0);
    assert_eq!(scale_length(0.3, 272.0), 512.0);
    assert_eq!(scale_length(0.1, 272.0), 1024.0);
    assert_eq!(scale_length(0.06, 272.0), 2048.0);
    // Never wider than the panel.
    assert!(scale_length(2.0, 100.0) * 2.0 <= 100.0);
    assert_eq!(super::legend::scale_length(1000.0, 272.0), 16.0, "the shortest when none fits");
}

#[test]
fn titles_wrap_and_an_empty_frame_is_sane() {
    let frame = super::Frame::around(std::iter::empty(), 16.0);
    assert!(frame.scale.is_finite() && frame.width > 0.0 && frame.height > 0.0);
    let nan = super::Frame::around([glam::Vec2::NAN, glam::Vec2::new(10.0, 10.0)].into_iter(), f32::NAN);
    assert!(nan.scale.is_finite() && nan.width > 0.0, "{nan:?}");
    assert_eq!(
        super::legend::wrap("a very long map title that goes on", 12),
        vec!["a very long", "map title", "that goes on"]
    );
}
