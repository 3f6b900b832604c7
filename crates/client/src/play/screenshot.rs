//! The window's picture as a PNG file's bytes, for `screenshot` in the
//! game and in the server list.

/// What is on screen now, as PNG bytes, with its width and height.
pub fn capture() -> (Vec<u8>, u16, u16) {
    let image = macroquad::texture::get_screen_data();
    let (w, h) = (usize::from(image.width), usize::from(image.height));
    // The framebuffer's rows run bottom to top.
    let mut rows = Vec::with_capacity(w * h * 4);
    for y in (0..h).rev() {
        rows.extend_from_slice(image.bytes.get(y * w * 4..(y + 1) * w * 4).unwrap_or(&[]));
    }
    (encode_png(&rows, image.width.into(), image.height.into()), image.width, image.height)
}

/// An RGBA image as PNG bytes (alpha made opaque: the framebuffer's
/// alpha means nothing on screen); empty if it could not be encoded.
pub fn encode_png(rgba: &[u8], width: u32, height: u32) -> Vec<u8> {
    let mut opaque = rgba.to_vec();
    for px in opaque.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let written = encoder.write_header().and_then(|mut w| w.write_image_data(&opaque));
        if let Err(e) = written {
            tracing::warn!("could not encode a screenshot: {e}");
            out.clear();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_become_opaque_pngs() {
        let png = encode_png(&[10, 20, 30, 0, 40, 50, 60, 128], 2, 1);
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("header");
        let mut rgba = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut rgba).expect("data");
        assert_eq!(rgba, [10, 20, 30, 255, 40, 50, 60, 255]);
        assert!(encode_png(&[1, 2, 3], 2, 1).is_empty(), "too few bytes for the size");
    }
}
