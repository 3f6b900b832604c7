//! `patchDef2` grammar (Quake 3 bezier patches):
//!
//! ```text
//! patchDef2
//! {
//! texture
//! ( width height contents flags value )
//! (
//! ( ( x y z u v ) … height points … )
//! … width rows …
//! )
//! }
//! ```
//!
//! As in q3map2's `ParsePatch`, the outer list has `width` rows of `height`
//! points and point `(row j, item i)` is control point `i * width + j`.

use glam::DVec3;

use super::cursor::Parsed;
use super::tokenizer::TokenKind;
use super::{MapParser, Primitive, RawPatch};
use crate::warning::SkipReason;

/// Largest control grid side accepted. q3map2 allows 32; editors can write
/// more and the cost is only tessellation, but an absurd size in a corrupt
/// file must not allocate gigabytes.
const MAX_PATCH_SIDE: usize = 129;

fn grid_side(v: f64) -> Option<usize> {
    (v.fract() == 0.0 && (3.0..=MAX_PATCH_SIDE as f64).contains(&v) && v % 2.0 == 1.0).then_some(v as usize)
}

impl MapParser<'_> {
    /// `patchDef2 { … }` followed by the primitive's closing `}`.
    pub(super) fn patch_def2(&mut self, line: u32) -> Parsed<Primitive> {
        let depth = self.cur.depth();
        self.cur.next()?;
        self.cur.expect(TokenKind::OpenBrace, "`{` after patchDef2")?;
        let name = self.cur.expect_name()?;
        let texture = self.intern(name.text);
        let [w, h, _, _, _] = self.cur.expect_numbers::<5>()?;
        let (Some(width), Some(height)) = (grid_side(w), grid_side(h)) else {
            self.cur.skip_to_depth_below(depth);
            let reason = SkipReason::BadPatchSize { width: w.max(0.0) as usize, height: h.max(0.0) as usize };
            return Ok(Primitive::Skipped { line, reason, is_patch: true });
        };
        let mut points = vec![DVec3::ZERO; width * height];
        self.cur.expect(TokenKind::OpenParen, "`(` opening the control grid")?;
        for j in 0..width {
            self.cur.expect(TokenKind::OpenParen, "`(` opening a control row")?;
            for i in 0..height {
                let [x, y, z, _, _] = self.cur.expect_numbers::<5>()?;
                points[i * width + j] = DVec3::new(x, y, z);
            }
            self.cur.expect(TokenKind::CloseParen, "`)` closing a control row")?;
        }
        self.cur.expect(TokenKind::CloseParen, "`)` closing the control grid")?;
        self.cur.expect(TokenKind::CloseBrace, "`}` closing patchDef2")?;
        self.cur.expect(TokenKind::CloseBrace, "`}` closing the patch")?;
        Ok(Primitive::Patch(RawPatch { line, texture, width, height, points }))
    }
}
