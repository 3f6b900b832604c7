//! Grammar tests on small inline maps, one per dialect and per failure mode.

use super::*;

fn parse(src: &str) -> RawMap {
    parse_map(src.as_bytes(), &ParseLimits::default()).expect("parses")
}

fn brushes(e: &RawEntity) -> Vec<&RawBrush> {
    e.primitives.iter().filter_map(|p| if let Primitive::Brush(b) = p { Some(b) } else { None }).collect()
}

const Q1: &str = r#"// comment
{
"classname" "worldspawn"
"wad" "gfx/base.wad"
{
( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) {grate 0 0 0 1 1
( 0 0 64 ) ( 1 0 64 ) ( 0 1 64 ) TECH04_5 0 0 0 1.000000 1.000000
( 0 0 0 ) ( 0 0 1 ) ( 0 1 0 ) *WATER1 0 0 0 1 1
( 64 0 0 ) ( 64 1 0 ) ( 64 0 1 ) SKY4 0 0 0 1 1
( 0 0 0 ) ( 1 0 0 ) ( 0 0 1 ) A 0 0 0 1 1
( 0 64 0 ) ( 0 64 1 ) ( 1 64 0 ) A 0 0 0 1 1
}
}
{
"classname"	"info_player_deathmatch"
"origin" "32 32 24"
}
"#;

#[test]
fn quake1_standard() {
    let m = parse(Q1);
    assert_eq!(m.dialect, Dialect::Quake1);
    assert_eq!(m.entities.len(), 2);
    let world = &m.entities[0];
    assert_eq!(world.line, 2);
    assert_eq!(world.get("classname"), Some("worldspawn"));
    let b = brushes(world);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].line, 5);
    assert_eq!(b[0].faces.len(), 6);
    assert_eq!(m.textures[b[0].faces[0].texture as usize], "{grate");
    assert_eq!(b[0].faces[1].points[0], DVec3::new(0.0, 0.0, 64.0));
    assert_eq!(m.entities[1].get("origin"), Some("32 32 24"));
}

#[test]
fn valve220_and_quake3_flags() {
    let valve = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) floor [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1\n}\n}\n";
    assert_eq!(parse(valve).dialect, Dialect::Valve220);
    let q3 = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) common/caulk 0 0 0 0.5 0.5 0 0 0\n}\n}\n";
    assert_eq!(parse(q3).dialect, Dialect::Quake3);
    let versioned = "{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n}\n";
    assert_eq!(parse(versioned).dialect, Dialect::Valve220);
}

#[test]
fn brush_def_block() {
    let src = "{\n\"classname\" \"worldspawn\"\n {\nbrushDef\n {\n  ( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) ( ( 0.1 0 0 ) ( 0 0.1 0 ) ) base/floor\n  ( 0 0 8 ) ( 1 0 8 ) ( 0 1 8 ) ( ( 0.1 0 0 ) ( 0 0.1 0 ) ) base/floor 0 0 0\n }\n }\n}\n";
    let m = parse(src);
    assert_eq!(m.dialect, Dialect::Quake3BrushDef);
    let b = brushes(&m.entities[0]);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].faces.len(), 2);
    assert_eq!(b[0].line, 3);
}

#[test]
fn patch_def2_grid_order() {
    let src = "{\n\"classname\" \"worldspawn\"\n{\npatchDef2\n{\nbase/curve\n( 3 3 0 0 0 )\n(\n( ( 0 0 0 0 0 ) ( 0 1 0 0 0 ) ( 0 2 0 0 0 ) )\n( ( 1 0 0 0 0 ) ( 1 1 0 0 0 ) ( 1 2 0 0 0 ) )\n( ( 2 0 0 0 0 ) ( 2 1 0 0 0 ) ( 2 2 5 0 0 ) )\n)\n}\n}\n}\n";
    let m = parse(src);
    assert_eq!(m.dialect, Dialect::Quake3);
    let Primitive::Patch(p) = &m.entities[0].primitives[0] else { panic!("expected a patch") };
    assert_eq!((p.width, p.height, p.line), (3, 3, 3));
    // Row j of the file holds points (i * width + j) for i in 0..height.
    assert_eq!(p.points[1], DVec3::new(1.0, 0.0, 0.0));
    assert_eq!(p.points[3], DVec3::new(0.0, 1.0, 0.0));
    assert_eq!(p.points[8], DVec3::new(2.0, 2.0, 5.0));
}

#[test]
fn bad_brush_is_skipped_and_the_rest_parses() {
    let src = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 x 0 ) ( 1 0 0 ) A 0 0 0 1 1\n}\n{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) A 0 0 0 1 1\n}\n}\n{\n\"classname\" \"light\"\n}\n";
    let m = parse(src);
    assert_eq!(m.entities.len(), 2);
    let prims = &m.entities[0].primitives;
    assert_eq!(prims.len(), 2);
    match &prims[0] {
        Primitive::Skipped { line, reason: SkipReason::Parse { message }, is_patch: false } => {
            assert_eq!(*line, 4);
            assert!(message.contains("`x`"), "{message}");
        }
        other => panic!("expected a skipped brush, got {other:?}"),
    }
    assert!(matches!(prims[1], Primitive::Brush(_)));
}

#[test]
fn bad_patch_size_and_unsupported_keywords_are_skipped() {
    let src = "{\n\"classname\" \"worldspawn\"\n{\npatchDef2\n{\nx\n( 4 3 0 0 0 )\n( ( ( 0 0 0 0 0 ) ) )\n}\n}\n{\nbrushDef3\n{\n( 0 0 1 0 ) ( ( 1 0 0 ) ( 0 1 0 ) ) \"t\" 0 0 0\n}\n}\n}\n";
    let m = parse(src);
    let prims = &m.entities[0].primitives;
    assert!(matches!(&prims[0], Primitive::Skipped { reason: SkipReason::BadPatchSize { width: 4, height: 3 }, is_patch: true, .. }));
    assert!(matches!(&prims[1], Primitive::Skipped { reason: SkipReason::Unsupported { .. }, is_patch: false, .. }));
    assert!(prims[1].is_brush() && !prims[0].is_brush());
}

#[test]
fn fatal_errors_carry_line_and_entity() {
    let err = parse_map(b"{\n\"classname\" \"worldspawn\"\n}\n{\n\"a\" \"b\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) A 0 0 0 1 1\n", &ParseLimits::default()).unwrap_err();
    assert_eq!(err.entity, Some(1));
    assert!(err.message.contains("end of file inside entity 1"), "{}", err.message);
    let err = parse_map(b"{\n\"classname\" \"worldspawn\"\nbogus\n}", &ParseLimits::default()).unwrap_err();
    assert_eq!((err.line, err.entity), (3, Some(0)));
    let err = parse_map(b"{\n\"classname\n}", &ParseLimits::default()).unwrap_err();
    assert!(err.message.contains("unterminated"));
}

#[test]
fn sniffing() {
    assert!(looks_like_map(b"// x\n{\n}"));
    assert!(!looks_like_map(b"IBSP\x2e\x00"));
    assert!(!looks_like_map(b""));
}

#[test]
fn empty_input_has_no_entities() {
    assert!(parse("").entities.is_empty());
}
