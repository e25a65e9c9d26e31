//! Media the demo tools return, generated in code: a colourful PNG and a WAV sine tone.

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
