//! The demo catalogue's pictures, drawn here (never fetched): a diagonal gradient with soft
//! circles for activity cards and featured banners, and a flat drawing per category icon.
//! Every picture is a PNG, the same bytes on every run. Its videos are drawn by ffmpeg's
//! own sources ([`clip`]), when ffmpeg is installed. A drawn clip is kept in a folder of
//! the system's temporary directory, named by a hash of the whole ffmpeg command that drew
//! it: the demo is seeded by many tests, and drawing its five clips took most of a seed's
//! time. Any change to the drawing changes the command, hence the name.

use std::io::Cursor;
use std::path::PathBuf;
use std::process::Command;

use image::{ImageFormat, Rgb, RgbImage};
use sha2::{Digest, Sha256};

pub const CARD_SIZE: (u32, u32) = (640, 360);
pub const FEATURED_SIZE: (u32, u32) = (1200, 400);
pub const ICON_SIZE: u32 = 128;

/// Two colours a picture is painted with.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    pub from: [u8; 3],
    pub to: [u8; 3],
}

/// The drawing on a category icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motif {
    Gift,
    Star,
    Heart,
}

/// A banner of `size` in `palette`, its circles placed by `variant` so pictures differ.
pub fn banner(size: (u32, u32), palette: Palette, variant: u32) -> anyhow::Result<Vec<u8>> {
    let (width, height) = size;
    let mut picture = RgbImage::from_fn(width, height, |x, y| {
        let t = (x as f32 / width as f32 + y as f32 / height as f32) / 2.0;
        mix(palette.from, palette.to, t)
    });
    let unit = height as f32;
    for i in 0..4u32 {
        let step = variant.wrapping_mul(37).wrapping_add(i * 53) % 100;
        let cx = width as f32 * (0.15 + 0.7 * step as f32 / 100.0);
        let cy = unit * (0.2 + 0.6 * ((step * 7 + i * 13) % 100) as f32 / 100.0);
        let radius = unit * (0.12 + 0.06 * i as f32);
        disc(
            &mut picture,
            (cx, cy),
            radius,
            [255, 255, 255],
            0.12 + 0.04 * i as f32,
        );
    }
    // A light band at the bottom, where a card's text sits.
    let band_top = height - height / 5;
    for y in band_top..height {
        for x in 0..width {
            blend(&mut picture, x, y, [255, 255, 255], 0.08);
        }
    }
    png(&picture)
}

/// A round icon in `palette` with `motif` drawn in white.
pub fn icon(palette: Palette, motif: Motif) -> anyhow::Result<Vec<u8>> {
    let size = ICON_SIZE;
    let centre = (size as f32 / 2.0, size as f32 / 2.0);
    let mut picture = RgbImage::from_pixel(size, size, [255, 255, 255].into());
    let radius = size as f32 / 2.0 - 2.0;
    for y in 0..size {
        for x in 0..size {
            let t = y as f32 / size as f32;
            if distance((x as f32 + 0.5, y as f32 + 0.5), centre) <= radius {
                picture.put_pixel(x, y, mix(palette.from, palette.to, t));
            }
        }
    }
    let white = [255, 255, 255];
    let s = size as f32;
    match motif {
        Motif::Gift => {
            rect(
                &mut picture,
                (0.28 * s, 0.45 * s),
                (0.72 * s, 0.74 * s),
                white,
            );
            rect(
                &mut picture,
                (0.24 * s, 0.36 * s),
                (0.76 * s, 0.45 * s),
                white,
            );
            rect(
                &mut picture,
                (0.47 * s, 0.36 * s),
                (0.53 * s, 0.74 * s),
                palette.to,
            );
            disc(&mut picture, (0.42 * s, 0.3 * s), 0.07 * s, white, 1.0);
            disc(&mut picture, (0.58 * s, 0.3 * s), 0.07 * s, white, 1.0);
        }
        Motif::Star => {
            let points: Vec<(f32, f32)> = (0..10)
                .map(|i| {
                    let angle =
                        std::f32::consts::PI * (i as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
                    let r = if i % 2 == 0 { 0.3 * s } else { 0.13 * s };
                    (centre.0 + r * angle.cos(), centre.1 + r * angle.sin())
                })
                .collect();
            polygon(&mut picture, &points, white);
        }
        Motif::Heart => {
            disc(&mut picture, (0.4 * s, 0.42 * s), 0.12 * s, white, 1.0);
            disc(&mut picture, (0.6 * s, 0.42 * s), 0.12 * s, white, 1.0);
            let point = [
                (0.29 * s, 0.47 * s),
                (0.71 * s, 0.47 * s),
                (0.5 * s, 0.76 * s),
            ];
            polygon(&mut picture, &point, white);
        }
    }
    png(&picture)
}

pub const CLIP_SIZE: (u32, u32) = (640, 360);
pub const CLIP_SECONDS: u32 = 6;

/// A clip of [`CLIP_SECONDS`] s, [`CLIP_SIZE`], H.264 in MP4 (`+faststart`, so it plays
/// while it loads), no sound: a gradient in `palette` sweeping across, with a white and a
/// yellow disc moving over it (their paths set by `variant`). Drawn by ffmpeg's `lavfi`
/// sources, nothing fetched and no font needed. `None` when ffmpeg is not installed.
pub async fn clip(palette: Palette, variant: u32) -> anyhow::Result<Option<Vec<u8>>> {
    tokio::task::spawn_blocking(move || draw_clip(palette, variant)).await?
}

fn draw_clip(palette: Palette, variant: u32) -> anyhow::Result<Option<Vec<u8>>> {
    let hex = |[r, g, b]: [u8; 3]| format!("0x{r:02X}{g:02X}{b:02X}");
    let (width, height) = CLIP_SIZE;
    let seconds = CLIP_SECONDS;
    let turns = 1 + variant % 3;
    let background = format!(
        "gradients=s={width}x{height}:r=25:d={seconds}:c0={}:c1={}:speed=0.02:seed={variant}",
        hex(palette.from),
        hex(palette.to)
    );
    let disc = |size: u32, [r, g, b]: [u8; 3]| {
        format!(
            "color=c=black@0:s={size}x{size}:r=25:d={seconds},format=rgba,\
             geq=r={r}:g={g}:b={b}:a='if(lt(hypot(X-{half},Y-{half}),{radius}),220,0)'",
            half = size / 2,
            radius = size / 2 - 4
        )
    };
    let graph = format!(
        "[0][1]overlay=x='(W-w)*(0.5+0.4*sin(2*PI*{turns}*t/{seconds}))':\
         y='(H-h)*(0.5+0.35*cos(2*PI*t/{seconds}))'[a];\
         [a][2]overlay=x='(W-w)*(0.5-0.42*cos(2*PI*t/{seconds}))':\
         y='(H-h)*(0.5+0.4*sin(2*PI*{turns}*t/{seconds}))',format=yuv420p"
    );
    let white = disc(112, [255, 255, 255]);
    let yellow = disc(64, [255, 214, 102]);
    #[rustfmt::skip]
    let arguments = [
        "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
        "-f", "lavfi", "-i", &background,
        "-f", "lavfi", "-i", &white,
        "-f", "lavfi", "-i", &yellow,
        "-filter_complex", &graph,
        "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main",
        "-threads", "1", "-bitexact", "-map_metadata", "-1",
        "-movflags", "+faststart", "-an",
    ];
    let kept = kept_clip(&arguments);
    if let Ok(bytes) = std::fs::read(&kept) {
        return Ok(Some(bytes));
    }
    let out = std::env::temp_dir().join(format!(
        "filia-demo-clip-{}.mp4",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let run = Command::new("ffmpeg").args(arguments).arg(&out).output();
    let output = match run {
        Ok(output) => output,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err.into()),
    };
    let bytes = std::fs::read(&out);
    std::fs::remove_file(&out).ok();
    if !output.status.success() {
        anyhow::bail!(
            "ffmpeg failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let bytes = bytes?;
    keep(&kept, &bytes);
    Ok(Some(bytes))
}

/// Where the clip ffmpeg draws with `arguments` is kept between seeds.
fn kept_clip(arguments: &[&str]) -> PathBuf {
    std::env::temp_dir().join("filia-demo-clips").join(format!(
        "{}.mp4",
        hex::encode(Sha256::digest(arguments.join("\n").as_bytes()))
    ))
}

/// Keeps a drawn clip under `path`, written aside and renamed so that a seed running at the
/// same time never reads half a file. A clip that cannot be kept is drawn again next time.
fn keep(path: &std::path::Path, bytes: &[u8]) {
    let Some(folder) = path.parent() else { return };
    let aside = folder.join(format!(
        ".{}.part",
        ulid::Ulid::generate().to_string().to_lowercase()
    ));
    let kept = std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(&aside, bytes))
        .and_then(|()| std::fs::rename(&aside, path));
    if let Err(err) = kept {
        std::fs::remove_file(&aside).ok();
        tracing::debug!(%err, "a demo clip was not kept");
    }
}

fn png(picture: &RgbImage) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Cursor::new(Vec::new());
    picture.write_to(&mut bytes, ImageFormat::Png)?;
    Ok(bytes.into_inner())
}

fn mix(from: [u8; 3], to: [u8; 3], t: f32) -> Rgb<u8> {
    let t = t.clamp(0.0, 1.0);
    Rgb(std::array::from_fn(|i| {
        (f32::from(from[i]) * (1.0 - t) + f32::from(to[i]) * t).round() as u8
    }))
}

fn blend(picture: &mut RgbImage, x: u32, y: u32, colour: [u8; 3], alpha: f32) {
    let pixel = picture.get_pixel_mut(x, y);
    *pixel = mix(pixel.0, colour, alpha);
}

fn distance(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn disc(picture: &mut RgbImage, centre: (f32, f32), radius: f32, colour: [u8; 3], alpha: f32) {
    let (width, height) = picture.dimensions();
    let x0 = (centre.0 - radius).max(0.0) as u32;
    let x1 = ((centre.0 + radius).ceil() as u32).min(width);
    let y0 = (centre.1 - radius).max(0.0) as u32;
    let y1 = ((centre.1 + radius).ceil() as u32).min(height);
    for y in y0..y1 {
        for x in x0..x1 {
            if distance((x as f32 + 0.5, y as f32 + 0.5), centre) <= radius {
                blend(picture, x, y, colour, alpha);
            }
        }
    }
}

fn rect(picture: &mut RgbImage, from: (f32, f32), to: (f32, f32), colour: [u8; 3]) {
    for y in from.1 as u32..to.1 as u32 {
        for x in from.0 as u32..to.0 as u32 {
            picture.put_pixel(x, y, colour.into());
        }
    }
}

/// Fills a simple polygon by the even-odd rule.
fn polygon(picture: &mut RgbImage, points: &[(f32, f32)], colour: [u8; 3]) {
    let (width, height) = picture.dimensions();
    for y in 0..height {
        for x in 0..width {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let mut inside = false;
            for (i, &(ax, ay)) in points.iter().enumerate() {
                let (bx, by) = points[(i + 1) % points.len()];
                if (ay > py) != (by > py) && px < ax + (py - ay) * (bx - ax) / (by - ay) {
                    inside = !inside;
                }
            }
            if inside {
                picture.put_pixel(x, y, colour.into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PALETTE: Palette = Palette {
        from: [14, 124, 102],
        to: [242, 165, 65],
    };

    #[tokio::test]
    async fn clips_are_mp4_with_h264() {
        // The tests require ffmpeg (ops/ installs it): no clip is a failure, not a skip.
        let bytes = clip(PALETTE, 1)
            .await
            .expect("clip")
            .expect("ffmpeg is installed and drew a clip");
        // An MP4 starts with its `ftyp` box; `+faststart` puts `moov` before `mdat`.
        assert_eq!(&bytes[4..8], b"ftyp");
        let find = |name: &[u8]| bytes.windows(4).position(|w| w == name);
        let (moov, mdat) = (find(b"moov").expect("moov"), find(b"mdat").expect("mdat"));
        assert!(moov < mdat);
        assert!(find(b"avc1").is_some(), "H.264");
        assert!(bytes.len() > 5_000, "{} bytes", bytes.len());
    }

    #[tokio::test]
    async fn a_drawn_clip_is_kept_and_served_from_where_it_is_kept() {
        // A variant no seed draws, so no other test reads the file this one replaces.
        let drawn = clip(PALETTE, 9_901).await.expect("clip").expect("drawn");
        let kept = std::fs::read_dir(std::env::temp_dir().join("filia-demo-clips"))
            .expect("the clips' folder")
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|path| std::fs::read(path).is_ok_and(|bytes| bytes == drawn))
            .expect("the drawn clip is kept");
        std::fs::write(&kept, b"kept").expect("replace the kept clip");
        let served = clip(PALETTE, 9_901).await.expect("clip").expect("served");
        std::fs::remove_file(&kept).expect("remove the replaced clip");
        assert_eq!(served, b"kept", "the second seed reads the kept clip");
    }

    #[test]
    fn pictures_are_pngs_of_their_sizes() {
        let card =
            image::load_from_memory(&banner(CARD_SIZE, PALETTE, 3).expect("card")).expect("png");
        assert_eq!((card.width(), card.height()), CARD_SIZE);
        for motif in [Motif::Gift, Motif::Star, Motif::Heart] {
            let icon = image::load_from_memory(&icon(PALETTE, motif).expect("icon")).expect("png");
            assert_eq!((icon.width(), icon.height()), (ICON_SIZE, ICON_SIZE));
        }
    }
}
