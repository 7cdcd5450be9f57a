//! Headless frames as PNG: render a [`Scene`] into a new pixmap, encode and decode PNGs.
//!
//! Takes a scene, a world and an image size (or RGBA bytes); gives PNG bytes and files, and
//! reads PNGs back as RGBA8 for tests and capture checks. Guarantees: no window, GPU or
//! display is touched; the PNG holds straight (not premultiplied) RGBA8; every failure is a
//! [`ScreenshotError`], never a panic.

use std::path::Path;

use tiny_skia::Pixmap;

use super::{IMAGE_SIDE_RANGE, Scene, render};
use planeshift::CompiledMap;

/// Why a screenshot could not be made, written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScreenshotError {
    /// The image size is outside [`IMAGE_SIDE_RANGE`] or does not match the data.
    #[error("image size {width}x{height} is invalid (each side {}..{})", IMAGE_SIDE_RANGE.0, IMAGE_SIDE_RANGE.1)]
    Size {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed")]
    Encode(#[from] png::EncodingError),
    /// The bytes are not a readable PNG.
    #[error("not a readable PNG")]
    Decode(#[from] png::DecodingError),
    /// The PNG is readable but not one this module takes (8-bit grey, RGB or RGBA).
    #[error("unsupported PNG: {0}")]
    Unsupported(String),
    /// Writing the file failed.
    #[error("writing the screenshot failed")]
    Io(#[from] std::io::Error),
}

/// An image as straight RGBA8, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width · height · 4` bytes.
    pub data: Vec<u8>,
}

impl RgbaImage {
    /// The RGBA of pixel `(x, y)`, or `None` outside the image.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.data.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// How many different colours the image holds.
    #[must_use]
    pub fn distinct_colors(&self) -> usize {
        let mut colors: Vec<u32> = self
            .data
            .chunks_exact(4)
            .map(|p| u32::from_be_bytes([p[0], p[1], p[2], p[3]]))
            .collect();
        colors.sort_unstable();
        colors.dedup();
        colors.len()
    }
}

/// Renders `scene` over `world` into a new `width`×`height` pixmap.
///
/// # Errors
/// [`ScreenshotError::Size`] when a side is outside [`IMAGE_SIDE_RANGE`].
pub fn render(
    scene: &Scene,
    world: &CompiledMap,
    width: u32,
    height: u32,
) -> Result<Pixmap, ScreenshotError> {
    let valid = |side: u32| (IMAGE_SIDE_RANGE.0..=IMAGE_SIDE_RANGE.1).contains(&side);
    let mut pixmap = (valid(width) && valid(height))
        .then(|| Pixmap::new(width, height))
        .flatten()
        .ok_or(ScreenshotError::Size { width, height })?;
    render::draw(scene, world, &mut pixmap);
    Ok(pixmap)
}

/// The pixmap as straight RGBA8.
#[must_use]
pub fn to_rgba(pixmap: &Pixmap) -> RgbaImage {
    let data = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    RgbaImage {
        width: pixmap.width(),
        height: pixmap.height(),
        data,
    }
}

/// Encodes straight RGBA8 bytes as a PNG.
///
/// # Errors
/// [`ScreenshotError::Size`] when `rgba` does not hold `width · height` pixels;
/// [`ScreenshotError::Encode`] when the encoder fails.
pub fn encode_rgba(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, ScreenshotError> {
    if rgba.len() as u64 != u64::from(width) * u64::from(height) * 4 || width == 0 || height == 0 {
        return Err(ScreenshotError::Size { width, height });
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(out)
}

/// Encodes a pixmap as a PNG.
///
/// # Errors
/// [`ScreenshotError::Encode`] when the encoder fails.
pub fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, ScreenshotError> {
    let image = to_rgba(pixmap);
    encode_rgba(image.width, image.height, &image.data)
}

/// Writes a pixmap to `path` as a PNG.
///
/// # Errors
/// [`ScreenshotError::Encode`] or [`ScreenshotError::Io`].
pub fn save_png(pixmap: &Pixmap, path: &Path) -> Result<(), ScreenshotError> {
    std::fs::write(path, encode_png(pixmap)?).map_err(ScreenshotError::Io)
}

/// Reads an 8-bit grey, grey-alpha, RGB or RGBA PNG (palettes expanded) as RGBA8.
///
/// # Errors
/// [`ScreenshotError::Decode`] for corrupt data, [`ScreenshotError::Unsupported`] for
/// anything else.
pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, ScreenshotError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| ScreenshotError::Unsupported("image too large".into()))?;
    let mut buffer = vec![0; size];
    let info = reader.next_frame(&mut buffer)?;
    buffer.truncate(info.buffer_size());
    let (width, height) = (info.width, info.height);
    let data: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => buffer,
        png::ColorType::Rgb => buffer
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::Grayscale => buffer.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => buffer
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Indexed => {
            return Err(ScreenshotError::Unsupported("unexpanded palette".into()));
        }
    };
    if data.len() as u64 != u64::from(width) * u64::from(height) * 4 {
        return Err(ScreenshotError::Unsupported(
            "pixel data has the wrong size".into(),
        ));
    }
    Ok(RgbaImage {
        width,
        height,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip_keeps_every_byte() {
        let rgba: Vec<u8> = (0..16 * 16 * 4).map(|i| (i * 7 % 251) as u8 | 3).collect();
        let png = encode_rgba(16, 16, &rgba).unwrap();
        let back = decode_png(&png).unwrap();
        assert_eq!((back.width, back.height), (16, 16));
        assert_eq!(back.data, rgba);
        assert!(back.distinct_colors() > 1);
        assert!(encode_rgba(16, 15, &rgba).is_err());
        assert!(decode_png(b"not a png").is_err());
    }
}
