//! The .map front end: text to raw entities, brushes and patches.
//!
//! One tokenizer-based parser reads every dialect Quarry accepts: Quake 1
//! standard, Valve 220, Quake 3 brushes (standard faces with trailing flags),
//! Quake 3 `brushDef` blocks and `patchDef2` bezier patches. Texture
//! alignment is read and discarded: collision needs only planes and names.
//!
//! Why not the `quake-map` crate: it parses Quake 1 standard, Valve 220 and
//! Quake 3 plain brushes correctly (the tests use it as an oracle on the
//! shared maps, see `oracle.rs`), but it gives no line numbers for entities
//! or brushes, which every warning needs; it stops at the first error where
//! Quarry skips one brush; and it rejects `brushDef` and `patchDef2`, so a
//! pre-pass would have to re-tokenize the file anyway.
//!
//! Errors inside one brush or patch skip that primitive (recorded as a
//! [`Primitive::Skipped`]); only a broken entity structure is fatal.
//! This module must not build geometry or interpret entities.

mod brush;
mod cursor;
#[cfg(test)]
mod oracle;
mod patch;
mod tokenizer;

use std::collections::HashMap;

use glam::DVec3;
use serde::Serialize;

pub(crate) use cursor::SyntaxError;
use cursor::{Cursor, Parsed};
use tokenizer::TokenKind;

use crate::warning::SkipReason;

/// The .map dialect of a file, from the most specific syntax it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// Quake 1 standard: `( p1 ) ( p2 ) ( p3 ) tex xoff yoff rot xscale yscale`.
    Quake1,
    /// Valve 220: texture axes in `[ ux uy uz off ] [ vx vy vz off ]`.
    Valve220,
    /// Quake 3 brushes: standard faces plus `contents flags value`, or patches.
    Quake3,
    /// Quake 3 `brushDef` blocks with a texture matrix.
    Quake3BrushDef,
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dialect::Quake1 => "Quake 1 standard",
            Dialect::Valve220 => "Valve 220",
            Dialect::Quake3 => "Quake 3",
            Dialect::Quake3BrushDef => "Quake 3 brushDef",
        })
    }
}

/// Interned texture index into [`RawMap::textures`].
pub(crate) type TextureId = u32;

/// One brush face: three points on the plane (clockwise seen from outside)
/// and a texture.
#[derive(Debug, Clone)]
pub(crate) struct RawFace {
    pub(crate) points: [DVec3; 3],
    pub(crate) texture: TextureId,
}

/// One brush as written.
#[derive(Debug, Clone)]
pub(crate) struct RawBrush {
    pub(crate) line: u32,
    pub(crate) faces: Vec<RawFace>,
}

/// One `patchDef2`: a `width` x `height` grid of bezier control points,
/// `points[row * width + col]`.
#[derive(Debug, Clone)]
pub(crate) struct RawPatch {
    pub(crate) line: u32,
    pub(crate) texture: TextureId,
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) points: Vec<DVec3>,
}

/// A brush, a patch, or a primitive the parser had to skip.
#[derive(Debug, Clone)]
pub(crate) enum Primitive {
    Brush(RawBrush),
    Patch(RawPatch),
    Skipped { line: u32, reason: SkipReason, is_patch: bool },
}

impl Primitive {
    /// Whether this primitive counts as a brush (anything but a patch).
    pub(crate) fn is_brush(&self) -> bool {
        match self {
            Primitive::Brush(_) => true,
            Primitive::Patch(_) => false,
            Primitive::Skipped { is_patch, .. } => !is_patch,
        }
    }
}

/// One entity: its key/value pairs in file order and its primitives.
#[derive(Debug, Clone, Default)]
pub(crate) struct RawEntity {
    pub(crate) line: u32,
    pub(crate) keys: Vec<(String, String)>,
    pub(crate) primitives: Vec<Primitive>,
}

impl RawEntity {
    /// The value of `key` (the last one if repeated, as Quake does).
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.keys.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }
}

/// How much of a file the parser keeps: past a budget it still reads (to
/// stay in step with the braces) but stores nothing, so a hostile file of
/// millions of tiny entities, brushes or keys costs time linear in its
/// size and bounded memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ParseLimits {
    /// Most entities kept.
    pub(crate) entities: usize,
    /// Most brushes and patches kept, all entities together.
    pub(crate) primitives: usize,
    /// Most key/value pairs kept, all entities together.
    pub(crate) keys: usize,
}

impl ParseLimits {
    /// The limits `options` asks for.
    pub(crate) fn of(options: &crate::LoadOptions) -> ParseLimits {
        ParseLimits { entities: options.max_entities, primitives: options.max_primitives, keys: options.max_entity_keys }
    }
}

impl Default for ParseLimits {
    fn default() -> Self {
        ParseLimits::of(&crate::LoadOptions::default())
    }
}

/// What one budget dropped: how many, and where the first was.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Dropped {
    /// Items dropped.
    pub(crate) count: usize,
    /// Line, entity index and primitive index (within its entity) of the first.
    pub(crate) first: Option<(u32, usize, Option<usize>)>,
}

impl Dropped {
    fn add(&mut self, line: u32, entity: usize, primitive: Option<usize>) {
        self.count += 1;
        self.first.get_or_insert((line, entity, primitive));
    }
}

/// A parsed file.
#[derive(Debug, Clone)]
pub(crate) struct RawMap {
    pub(crate) entities: Vec<RawEntity>,
    pub(crate) textures: Vec<String>,
    pub(crate) dialect: Dialect,
    /// Entities past [`ParseLimits::entities`].
    pub(crate) dropped_entities: Dropped,
    /// Brushes and patches past [`ParseLimits::primitives`].
    pub(crate) dropped_primitives: Dropped,
    /// Key/value pairs past [`ParseLimits::keys`].
    pub(crate) dropped_keys: Dropped,
}

/// A fatal parse error: the entity structure is broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FatalParseError {
    pub(crate) line: u32,
    pub(crate) entity: Option<usize>,
    pub(crate) message: String,
}

/// Parser state shared by the brush and patch readers.
pub(crate) struct MapParser<'a> {
    cur: Cursor<'a>,
    textures: Vec<String>,
    texture_ids: HashMap<&'a [u8], TextureId>,
    dialect: Dialect,
    limits: ParseLimits,
    /// Whether the entity being read is kept (false past the entity budget).
    keep: bool,
    primitives: usize,
    keys: usize,
    dropped_primitives: Dropped,
    dropped_keys: Dropped,
}

impl<'a> MapParser<'a> {
    fn intern(&mut self, name: &'a [u8]) -> TextureId {
        if let Some(&id) = self.texture_ids.get(name) {
            return id;
        }
        let id = self.textures.len() as TextureId;
        self.textures.push(String::from_utf8_lossy(name).into_owned());
        self.texture_ids.insert(name, id);
        id
    }

    fn saw(&mut self, dialect: Dialect) {
        self.dialect = self.dialect.max(dialect);
    }

    /// Parses one `{ … }` primitive whose `{` has been consumed.
    fn primitive(&mut self, line: u32) -> Primitive {
        let depth = self.cur.depth();
        let mut is_patch = false;
        let result = match self.cur.peek() {
            Ok(Some(t)) if t.is_word("brushDef") => {
                self.saw(Dialect::Quake3BrushDef);
                self.brush_def(line)
            }
            Ok(Some(t)) if t.is_word("patchDef2") => {
                is_patch = true;
                self.saw(Dialect::Quake3);
                self.patch_def2(line)
            }
            Ok(Some(t)) if t.kind == TokenKind::Word => {
                let keyword = t.as_str().into_owned();
                is_patch = keyword.to_ascii_lowercase().starts_with("patch");
                let reason = SkipReason::Unsupported { keyword };
                return self.skipped(depth, line, reason, is_patch);
            }
            Ok(_) => self.brush(line),
            Err(e) => Err(e),
        };
        match result {
            Ok(p) => p,
            Err(e) => self.skipped(depth, e.line, SkipReason::Parse { message: e.message }, is_patch),
        }
    }

    fn skipped(&mut self, depth: usize, line: u32, reason: SkipReason, is_patch: bool) -> Primitive {
        // If the input ends here, the entity loop reports the fatal error.
        self.cur.skip_to_depth_below(depth);
        Primitive::Skipped { line, reason, is_patch }
    }

    fn entity(&mut self, index: usize) -> Parsed<RawEntity> {
        let open = self.cur.expect(TokenKind::OpenBrace, "`{` to start an entity")?;
        let mut ent = RawEntity { line: open.line, ..RawEntity::default() };
        let mut primitive_index = 0;
        loop {
            let t = self.cur.next()?.ok_or_else(|| SyntaxError {
                line: self.cur.line(),
                message: format!("end of file inside entity {index} (started at line {})", ent.line),
            })?;
            match t.kind {
                TokenKind::CloseBrace => return Ok(ent),
                TokenKind::Quoted => {
                    let value = self.cur.expect(TokenKind::Quoted, "a quoted value")?;
                    if !self.keep {
                        continue;
                    }
                    if self.keys >= self.limits.keys {
                        self.dropped_keys.add(t.line, index, None);
                        continue;
                    }
                    self.keys += 1;
                    ent.keys.push((t.as_str().into_owned(), value.as_str().into_owned()));
                }
                TokenKind::OpenBrace => {
                    let p = self.primitive(t.line);
                    let j = primitive_index;
                    primitive_index += 1;
                    if !self.keep {
                        continue;
                    }
                    if self.primitives >= self.limits.primitives {
                        self.dropped_primitives.add(t.line, index, Some(j));
                        continue;
                    }
                    self.primitives += 1;
                    ent.primitives.push(p);
                }
                _ => {
                    let message = format!("expected a key, `{{` or `}}`, found {}", t.describe());
                    return Err(SyntaxError { line: t.line, message });
                }
            }
        }
    }
}

/// Parses map text, keeping what `limits` allows. Fails only when the
/// entity structure itself is broken.
pub(crate) fn parse_map(src: &[u8], limits: &ParseLimits) -> Result<RawMap, FatalParseError> {
    let mut p = MapParser {
        cur: Cursor::new(src),
        textures: Vec::new(),
        texture_ids: HashMap::new(),
        dialect: Dialect::Quake1,
        limits: *limits,
        keep: true,
        primitives: 0,
        keys: 0,
        dropped_primitives: Dropped::default(),
        dropped_keys: Dropped::default(),
    };
    let mut entities = Vec::new();
    let mut dropped_entities = Dropped::default();
    loop {
        match p.cur.peek_kind() {
            Ok(None) => break,
            Ok(Some(_)) => {}
            Err(e) => return Err(FatalParseError { line: e.line, entity: None, message: e.message }),
        }
        let index = entities.len() + dropped_entities.count;
        p.keep = entities.len() < limits.entities;
        match p.entity(index) {
            Ok(e) if p.keep => entities.push(e),
            Ok(e) => dropped_entities.add(e.line, index, None),
            Err(e) => return Err(FatalParseError { line: e.line, entity: Some(index), message: e.message }),
        }
    }
    if entities.iter().any(|e| e.get("mapversion") == Some("220")) {
        p.saw(Dialect::Valve220);
    }
    Ok(RawMap {
        entities,
        textures: p.textures,
        dialect: p.dialect,
        dropped_entities,
        dropped_primitives: p.dropped_primitives,
        dropped_keys: p.dropped_keys,
    })
}

/// Whether text looks like a .map file: the first token opens an entity.
pub(crate) fn looks_like_map(src: &[u8]) -> bool {
    let mut c = Cursor::new(src);
    matches!(c.peek_kind(), Ok(Some(TokenKind::OpenBrace)))
}

#[cfg(test)]
mod tests;
