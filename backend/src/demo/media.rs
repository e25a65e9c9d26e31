//! Media the demo tools return, generated in code: a colourful PNG, an uncompressed BMP of
//! any size, and a WAV sine tone.

use std::f32::consts::TAU;

/// Sample rate of the generated tone: low, to keep the base64 payload small.
pub(super) const SAMPLE_RATE: u32 = 16_000;

/// Length of the fade in and out, so the tone starts and stops without a click.
const FADE_MS: u32 = 10;

/// Encodes a `width`×`height` RGB PNG: hue runs left to right, light fades top to bottom,
/// with soft rings from the centre so scaling artefacts are easy to spot.
pub(super) fn png_pattern(width: u32, height: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 3);
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    for y in 0..height {
        for x in 0..width {
            let hue = x as f32 / width as f32;
            let light = 1.0 - 0.6 * (y as f32 / height as f32);
            let distance = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt();
            let ring = 0.85 + 0.15 * (distance / 4.0).sin();
            for channel in hue_to_rgb(hue) {
                pixels.push(to_byte(channel * light * ring));
            }
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(out)
}

/// Size of a BMP file's headers: the 14-byte file header and the 40-byte `BITMAPINFOHEADER`.
pub(super) const BMP_HEADER_LEN: usize = 54;

/// Rows computed pixel by pixel; the rest of the image repeats them, so even a 40 MB image
/// is mostly `memcpy` and stays quick in a debug build.
const BMP_TILE_ROWS: usize = 61;

/// A 24-bit uncompressed BMP of roughly `target_len` bytes, as square as the size allows:
/// a hue gradient left to right, sprinkled with noise. Returns the file, width and height.
pub(super) fn bmp_pattern(target_len: usize) -> (Vec<u8>, u32, u32) {
    let pixel_budget = target_len.saturating_sub(BMP_HEADER_LEN).max(4);
    let width = ((pixel_budget as f64 / 3.0).sqrt().round() as usize).max(1);
    let row_len = (width * 3).div_ceil(4) * 4; // every row is padded to a multiple of 4 bytes
    let height = ((pixel_budget as f64 / row_len as f64).round() as usize).max(1);
    let tile_rows = BMP_TILE_ROWS.min(height);
    let mut tile = vec![0; row_len * tile_rows];
    let mut noise = 0x2545_f491_u32;
    for (y, row) in tile.chunks_exact_mut(row_len).enumerate() {
        let light = 0.55 + 0.45 * (y as f32 / tile_rows as f32);
        for (x, pixel) in row[..width * 3].chunks_exact_mut(3).enumerate() {
            // xorshift32: cheap noise that defeats any idea of compressing the image
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            let grain = 0.8 + 0.2 * (noise & 0xff) as f32 / 255.0;
            let [r, g, b] = hue_to_rgb(x as f32 / width as f32);
            // BMP stores blue, green, red.
            pixel.copy_from_slice(&[b, g, r].map(|channel| to_byte(channel * light * grain)));
        }
    }
    let image_len = row_len * height;
    let mut out = Vec::with_capacity(BMP_HEADER_LEN + image_len);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&((BMP_HEADER_LEN + image_len) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]); // reserved
    out.extend_from_slice(&(BMP_HEADER_LEN as u32).to_le_bytes()); // where the pixels start
    out.extend_from_slice(&40u32.to_le_bytes()); // BITMAPINFOHEADER
    out.extend_from_slice(&(width as i32).to_le_bytes());
    out.extend_from_slice(&(height as i32).to_le_bytes()); // positive: bottom row first
    out.extend_from_slice(&1u16.to_le_bytes()); // planes
    out.extend_from_slice(&24u16.to_le_bytes()); // bits per pixel
    out.extend_from_slice(&0u32.to_le_bytes()); // BI_RGB: uncompressed
    out.extend_from_slice(&(image_len as u32).to_le_bytes());
    out.extend_from_slice(&2835i32.to_le_bytes()); // 72 dpi, horizontally
    out.extend_from_slice(&2835i32.to_le_bytes()); // and vertically
    out.extend_from_slice(&[0; 8]); // no palette
    for y in 0..height {
        let at = (y % tile_rows) * row_len;
        out.extend_from_slice(&tile[at..at + row_len]);
    }
    (out, width as u32, height as u32)
}

/// A fully saturated, bright colour for `hue` in `0.0..1.0` (the usual HSV formula).
fn hue_to_rgb(hue: f32) -> [f32; 3] {
    let channel = |n: f32| {
        let k = (n + hue * 6.0).rem_euclid(6.0);
        1.0 - k.min(4.0 - k).clamp(0.0, 1.0)
    };
    [channel(5.0), channel(3.0), channel(1.0)]
}

fn to_byte(value: f32) -> u8 {
    // The clamp makes the cast lossless apart from the intended rounding.
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Number of samples a tone of `duration_ms` holds at [`SAMPLE_RATE`].
pub(super) fn sample_count(duration_ms: u32) -> u32 {
    (u64::from(SAMPLE_RATE) * u64::from(duration_ms) / 1000) as u32
}

/// A 16-bit mono PCM WAV file holding a sine tone, with a short linear fade in and out.
pub(super) fn wav_tone(frequency: f32, duration_ms: u32) -> Vec<u8> {
    let samples = sample_count(duration_ms);
    let fade = sample_count(FADE_MS).min(samples / 2).max(1);
    let data_len = samples * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    // RIFF header, then the `fmt ` chunk for PCM (format 1), then the `data` chunk.
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes()); // byte rate
    out.extend_from_slice(&2u16.to_le_bytes()); // block align
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for n in 0..samples {
        let envelope = (n.min(samples - 1 - n) as f32 / fade as f32).min(1.0);
        let phase = TAU * frequency * n as f32 / SAMPLE_RATE as f32;
        let value = phase.sin() * envelope * 0.5 * f32::from(i16::MAX);
        out.extend_from_slice(&(value as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_decodes_to_the_requested_size() {
        for (width, height) in [(8, 8), (96, 96), (512, 17)] {
            let bytes = png_pattern(width, height).unwrap();
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let mut reader = decoder.read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut buf).unwrap();
            assert_eq!((info.width, info.height), (width, height));
            assert_eq!(info.color_type, png::ColorType::Rgb);
            // A pattern, not a flat fill.
            assert!(buf.iter().any(|&b| b != buf[0]));
        }
    }

    fn u16_at(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    #[test]
    fn bmp_header_matches_its_size() {
        for target in [0, 100, 1_000_000, 2 * 1_048_576] {
            let (bytes, width, height) = bmp_pattern(target);
            let row_len = (width as usize * 3).div_ceil(4) * 4;
            assert_eq!(&bytes[0..2], b"BM");
            assert_eq!(u32_at(&bytes, 2) as usize, bytes.len());
            assert_eq!(u32_at(&bytes, 10), 54);
            assert_eq!(u32_at(&bytes, 14), 40);
            assert_eq!((u32_at(&bytes, 18), u32_at(&bytes, 22)), (width, height));
            assert_eq!((u16_at(&bytes, 26), u16_at(&bytes, 28), u32_at(&bytes, 30)), (1, 24, 0));
            assert_eq!(u32_at(&bytes, 34) as usize, row_len * height as usize);
            assert_eq!(bytes.len(), 54 + row_len * height as usize);
            if target >= 1_000_000 {
                assert!(bytes.len().abs_diff(target) < target / 100, "{target}: {}", bytes.len());
                assert!(width.abs_diff(height) < width / 50, "{width}×{height}");
            }
        }
    }

    #[test]
    fn wav_header_and_sample_count() {
        let bytes = wav_tone(440.0, 800);
        assert_eq!(&bytes[0..4], b"RIFF");
        assert_eq!(u32_at(&bytes, 4) as usize, bytes.len() - 8);
        assert_eq!(&bytes[8..16], b"WAVEfmt ");
        assert_eq!(u32_at(&bytes, 16), 16);
        assert_eq!(u16_at(&bytes, 20), 1, "pcm");
        assert_eq!(u16_at(&bytes, 22), 1, "mono");
        assert_eq!(u32_at(&bytes, 24), 16_000);
        assert_eq!(u32_at(&bytes, 28), 32_000);
        assert_eq!(u16_at(&bytes, 32), 2);
        assert_eq!(u16_at(&bytes, 34), 16);
        assert_eq!(&bytes[36..40], b"data");
        assert_eq!(u32_at(&bytes, 40), 12_800 * 2);
        assert_eq!(bytes.len(), 44 + 12_800 * 2);
    }

    #[test]
    fn wav_fades_in_and_out_and_is_audible() {
        let bytes = wav_tone(440.0, 100);
        let samples: Vec<i16> =
            bytes[44..].chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect();
        assert_eq!(samples.len(), 1_600);
        assert_eq!(samples[0], 0);
        assert!(samples[samples.len() - 1].abs() < 100);
        assert!(samples.iter().any(|s| s.abs() > 10_000));
    }
}
