//! The camera and everything drawn in the world besides the map: players
//! as boxes in their team colour, items as turning shapes coloured by
//! kind, projectiles with their trails, flags.

use glam::Vec3;
use macroquad::models::{DrawSphereParams, draw_sphere_ex};
use macroquad::prelude::{Camera3D, Color, Projection, draw_cube, draw_cube_wires, draw_line_3d, vec3};
use quarry_net::snapshot::EntityKind;

use super::gpu::Eye;
use super::session::Drawn;

/// Entity flag: dead (the server's `EF_DEAD`).
const EF_DEAD: u16 = 1;
/// Entity flag: crouched.
const EF_CROUCHED: u16 = 1 << 1;
/// Entity flag: an item waiting to respawn.
const EF_HIDDEN: u16 = 1 << 2;

/// Near and far planes (units): the largest maps are about 8,000 across.
const Z_NEAR: f32 = 4.0;
const Z_FAR: f32 = 16_384.0;

/// A world point as macroquad's vector (the same axes: the camera is set up in Quake's).
pub(super) fn mq(v: Vec3) -> macroquad::math::Vec3 {
    vec3(v.x, v.y, v.z)
}

/// A ball of few triangles (macroquad's default sphere has 512, which a
/// software renderer feels when a fight draws dozens).
pub(super) fn ball(at: Vec3, radius: f32, colour: Color) {
    draw_sphere_ex(mq(at), radius, None, colour, DrawSphereParams { rings: 6, slices: 8, ..DrawSphereParams::default() });
}

/// The forward vector of Quake angles (pitch down positive, yaw from +X).
pub fn forward(pitch: f32, yaw: f32) -> Vec3 {
    let (sp, cp) = pitch.to_radians().sin_cos();
    let (sy, cy) = yaw.to_radians().sin_cos();
    Vec3::new(cp * cy, cp * sy, -sp)
}

/// The vertical field of view for a 4:3 horizontal `fov` on a screen of
/// `aspect` (Hor+: wider screens see more to the sides, the same up and down).
pub fn vertical_fov(fov_x_degrees: f32) -> f32 {
    let half = (fov_x_degrees.clamp(1.0, 179.0).to_radians() / 2.0).tan();
    2.0 * (half * 3.0 / 4.0).atan()
}

/// The camera at `eye` looking along the view angles.
pub fn camera(eye: Vec3, pitch: f32, yaw: f32, fov: f32) -> Camera3D {
    Camera3D {
        position: mq(eye),
        target: mq(eye + forward(pitch, yaw)),
        up: vec3(0.0, 0.0, 1.0),
        fovy: vertical_fov(fov),
        projection: Projection::Perspective,
        z_near: Z_NEAR,
        z_far: Z_FAR,
        ..Camera3D::default()
    }
}

/// The GPU's view of the same camera.
pub fn eye_of(camera: &Camera3D, eye: Vec3) -> Eye {
    use macroquad::camera::Camera;
    Eye { view_proj: camera.matrix().to_cols_array(), position: eye.to_array() }
}

/// A team's colour (0 free: by slot, 1 red, 2 blue).
pub fn team_colour(team: u8, slot: u32) -> Color {
    match team {
        1 => Color::new(0.85, 0.2, 0.18, 1.0),
        2 => Color::new(0.2, 0.35, 0.9, 1.0),
        _ => {
            // Free for all: a bright colour per slot, eight before they repeat.
            const FREE: [[f32; 3]; 8] = [
                [0.95, 0.75, 0.1],
                [0.2, 0.8, 0.35],
                [0.9, 0.35, 0.75],
                [0.2, 0.75, 0.9],
                [0.95, 0.5, 0.15],
                [0.6, 0.4, 0.95],
                [0.85, 0.9, 0.3],
                [0.95, 0.95, 0.95],
            ];
            let [r, g, b] = FREE[slot as usize % FREE.len()];
            Color::new(r, g, b, 1.0)
        }
    }
}

/// An item's colour from its class name.
pub fn item_colour(classname: &str) -> Color {
    let c = classname.to_ascii_lowercase();
    if c.starts_with("weapon_") {
        Color::new(0.95, 0.8, 0.2, 1.0)
    } else if c.starts_with("ammo_") {
        Color::new(0.6, 0.55, 0.3, 1.0)
    } else if c.contains("health") {
        if c.contains("mega") { Color::new(0.3, 0.6, 1.0, 1.0) } else { Color::new(0.3, 0.9, 0.4, 1.0) }
    } else if c.contains("armor") {
        if c.contains("shard") { Color::new(0.9, 0.9, 0.3, 1.0) } else { Color::new(1.0, 0.55, 0.1, 1.0) }
    } else {
        // Powerups and anything else.
        Color::new(0.8, 0.3, 0.95, 1.0)
    }
}

/// Draws every entity (the 3D camera must be set).
pub fn draw_entities(drawn: &[Drawn], items: &[String], own_slot: Option<u8>, time: f32) {
    for d in drawn {
        let e = &d.view.state;
        let o = d.origin;
        match d.view.kind {
            EntityKind::Player => {
                if own_slot.is_some_and(|s| u32::from(s) == e.aux) {
                    continue;
                }
                let dead = e.flags & EF_DEAD != 0;
                let crouched = e.flags & EF_CROUCHED != 0;
                let mut colour = team_colour(e.team, e.aux);
                let (height, centre) = if dead {
                    colour = Color::new(colour.r * 0.4, colour.g * 0.4, colour.b * 0.4, 1.0);
                    (12.0, -18.0)
                } else if crouched {
                    (40.0, -4.0)
                } else {
                    (56.0, 4.0)
                };
                draw_cube(mq(o + Vec3::Z * centre), vec3(30.0, 30.0, height), None, colour);
                draw_cube_wires(mq(o + Vec3::Z * centre), vec3(30.5, 30.5, height + 0.5), Color::new(0.0, 0.0, 0.0, 0.6));
                if !dead {
                    // Where it looks: a short bar from the head.
                    let look = forward(d.view.angles[0], d.view.angles[1]);
                    draw_line_3d(mq(o + Vec3::Z * 26.0), mq(o + Vec3::Z * 26.0 + look * 24.0), Color::new(1.0, 1.0, 1.0, 0.9));
                }
            }
            EntityKind::Item => {
                if e.flags & EF_HIDDEN != 0 {
                    continue;
                }
                let name = items.get(usize::from(e.model)).map_or("", String::as_str);
                let bob = (time * 2.0 + e.id as f32).sin() * 3.0;
                let colour = item_colour(name);
                let size = if name.starts_with("weapon_") { 18.0 } else { 12.0 };
                draw_turning(o + Vec3::Z * (8.0 + bob), size, time + e.id as f32, colour);
            }
            EntityKind::Projectile => {
                let v = Vec3::from(d.view.velocity);
                let colour = match e.weapon {
                    8 => Color::new(0.4, 0.6, 1.0, 1.0),
                    4 => Color::new(0.3, 0.5, 0.2, 1.0),
                    _ => Color::new(1.0, 0.6, 0.2, 1.0),
                };
                ball(o, 4.0, colour);
                if v.length_squared() > 1.0 {
                    let trail = o - v.normalize() * 48.0;
                    draw_line_3d(mq(o), mq(trail), Color::new(0.8, 0.8, 0.8, 0.7));
                }
            }
            EntityKind::Flag => {
                let colour = team_colour(e.team, 0);
                draw_cube(mq(o + Vec3::Z * 24.0), vec3(3.0, 3.0, 72.0), None, Color::new(0.8, 0.8, 0.8, 1.0));
                draw_cube(mq(o + Vec3::Z * 48.0 + Vec3::X * 12.0), vec3(24.0, 2.0, 16.0), None, colour);
            }
            EntityKind::Mover => {}
        }
    }
}

/// A diamond turning about Z: two pyramids of lines and a small core.
fn draw_turning(centre: Vec3, size: f32, angle: f32, colour: Color) {
    let (s, c) = angle.sin_cos();
    let r = size * 0.6;
    let ring = [Vec3::new(c, s, 0.0), Vec3::new(-s, c, 0.0), Vec3::new(-c, -s, 0.0), Vec3::new(s, -c, 0.0)].map(|v| centre + v * r);
    let top = centre + Vec3::Z * size * 0.7;
    let bottom = centre - Vec3::Z * size * 0.7;
    for (i, p) in ring.iter().enumerate() {
        let q = ring[(i + 1) % 4];
        draw_line_3d(mq(*p), mq(q), colour);
        draw_line_3d(mq(*p), mq(top), colour);
        draw_line_3d(mq(*p), mq(bottom), colour);
    }
    draw_cube(mq(centre), vec3(size * 0.45, size * 0.45, size * 0.45), None, colour);
}

/// Where a world point lands on the screen (pixels), `None` behind the eye.
pub fn to_screen(view_proj: &[f32; 16], p: Vec3, width: f32, height: f32) -> Option<(f32, f32)> {
    let m = glam::Mat4::from_cols_array(view_proj);
    let clip = m * p.extend(1.0);
    if clip.w <= 1.0 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    if ndc.x.abs() > 1.2 || ndc.y.abs() > 1.2 {
        return None;
    }
    Some(((ndc.x + 1.0) * 0.5 * width, (1.0 - ndc.y) * 0.5 * height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_angles_look_where_quake_looks() {
        assert!(forward(0.0, 0.0).distance(Vec3::X) < 1e-6);
        assert!(forward(0.0, 90.0).distance(Vec3::Y) < 1e-6);
        // Positive pitch looks down.
        assert!(forward(89.0, 0.0).z < -0.99);
    }

    #[test]
    fn hor_plus_keeps_the_4_3_vertical_fov() {
        // 90° at 4:3 is 73.74° vertical.
        assert!((vertical_fov(90.0).to_degrees() - 73.74).abs() < 0.01);
    }
}
