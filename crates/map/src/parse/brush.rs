//! Brush grammar: standard and Valve 220 faces, Quake 3 trailing flags, and
//! Quake 3 `brushDef` blocks.
//!
//! ```text
//! ( x y z ) ( x y z ) ( x y z ) TEX xoff yoff rot xscale yscale              Quake 1
//! ( x y z ) ( x y z ) ( x y z ) TEX [ ux uy uz uoff ] [ vx vy vz voff ] rot sx sy   Valve 220
//! ( x y z ) ( x y z ) ( x y z ) tex xoff yoff rot xscale yscale cont flags value   Quake 3
//! brushDef { ( x y z ) ( x y z ) ( x y z ) ( ( a b c ) ( d e f ) ) tex [cont flags value] }
//! ```
//!
//! Everything after the texture name is alignment, which collision does not
//! need: it is checked to be numbers and brackets only, and its shape decides
//! the dialect.

use glam::DVec3;

use super::cursor::{Parsed, SyntaxError};
use super::tokenizer::TokenKind;
use super::{Dialect, MapParser, Primitive, RawBrush, RawFace};

/// Numbers after a Quake 1 texture name; more means Quake 3 (or Quake 2) flags.
const STANDARD_ALIGNMENT_NUMBERS: usize = 5;

impl MapParser<'_> {
    /// A classic brush: faces until `}`. The opening `{` is consumed.
    pub(super) fn brush(&mut self, line: u32) -> Parsed<Primitive> {
        let mut faces = Vec::with_capacity(8);
        while self.cur.peek_kind()? == Some(TokenKind::OpenParen) {
            faces.push(self.face(false)?);
        }
        self.cur.expect(TokenKind::CloseBrace, "`(` or `}`")?;
        Ok(Primitive::Brush(RawBrush { line, faces }))
    }

    /// `brushDef { faces }` followed by the primitive's closing `}`.
    pub(super) fn brush_def(&mut self, line: u32) -> Parsed<Primitive> {
        self.cur.next()?;
        self.cur.expect(TokenKind::OpenBrace, "`{` after brushDef")?;
        let mut faces = Vec::with_capacity(8);
        while self.cur.peek_kind()? == Some(TokenKind::OpenParen) {
            faces.push(self.face(true)?);
        }
        self.cur.expect(TokenKind::CloseBrace, "`(` or `}` in brushDef")?;
        self.cur.expect(TokenKind::CloseBrace, "`}` closing the brush")?;
        Ok(Primitive::Brush(RawBrush { line, faces }))
    }

    fn point(&mut self) -> Parsed<DVec3> {
        let [x, y, z] = self.cur.expect_numbers::<3>()?;
        Ok(DVec3::new(x, y, z))
    }

    fn face(&mut self, brush_def: bool) -> Parsed<RawFace> {
        let points = [self.point()?, self.point()?, self.point()?];
        if brush_def {
            self.cur.expect(TokenKind::OpenParen, "`(` opening the texture matrix")?;
            self.cur.expect_numbers::<3>()?;
            self.cur.expect_numbers::<3>()?;
            self.cur.expect(TokenKind::CloseParen, "`)` closing the texture matrix")?;
        }
        let name = self.cur.expect_name()?;
        let texture = self.intern(name.text);
        let (mut numbers, mut brackets) = (0usize, false);
        while let Some(t) = self.cur.peek()? {
            match t.kind {
                TokenKind::OpenParen | TokenKind::CloseBrace => break,
                TokenKind::OpenBracket | TokenKind::CloseBracket => brackets = true,
                _ if t.number().is_some() => numbers += 1,
                _ => {
                    let message = format!("unexpected {} after texture name", t.describe());
                    return Err(SyntaxError { line: t.line, message });
                }
            }
            self.cur.next()?;
        }
        if !brush_def {
            if brackets {
                self.saw(Dialect::Valve220);
            } else if numbers > STANDARD_ALIGNMENT_NUMBERS {
                self.saw(Dialect::Quake3);
            }
        }
        Ok(RawFace { points, texture })
    }
}
