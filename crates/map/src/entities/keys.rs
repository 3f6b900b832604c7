//! Reading typed values from an entity's key/value strings, with a warning
//! (and the default) for any value that does not parse.

use glam::Vec3;

use crate::parse::RawEntity;
use crate::warning::{MapWarning, SourceLocation, WarningKind};

/// Typed access to one entity's keys; collects warnings for bad values.
pub(crate) struct Keys<'a> {
    ent: &'a RawEntity,
    location: SourceLocation,
    pub(crate) warnings: Vec<MapWarning>,
}

impl<'a> Keys<'a> {
    /// A reader for `ent`, entity `index` of `file`.
    pub(crate) fn new(ent: &'a RawEntity, file: &str, index: usize) -> Keys<'a> {
        let location = SourceLocation { file: file.to_owned(), line: ent.line, entity: Some(index), primitive: None };
        Keys { ent, location, warnings: Vec::new() }
    }

    /// Records a warning about this entity.
    pub(crate) fn warn(&mut self, kind: WarningKind) {
        self.warnings.push(MapWarning { location: self.location.clone(), kind });
    }

    fn bad(&mut self, key: &str, value: &str) {
        self.warn(WarningKind::BadValue { key: key.to_owned(), value: value.to_owned() });
    }

    /// The raw value, if present.
    pub(crate) fn str(&self, key: &str) -> Option<&'a str> {
        self.ent.get(key)
    }

    /// A non-empty string value.
    pub(crate) fn string(&self, key: &str) -> Option<String> {
        self.str(key).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
    }

    /// A number, or `None` if absent; warns and returns `None` if unreadable.
    pub(crate) fn opt_f32(&mut self, key: &str) -> Option<f32> {
        let raw = self.str(key)?;
        match raw.trim().parse::<f32>() {
            Ok(v) if v.is_finite() => Some(v),
            _ => {
                self.bad(key, raw);
                None
            }
        }
    }

    /// A number with a default for absent or unreadable values.
    pub(crate) fn f32_or(&mut self, key: &str, default: f32) -> f32 {
        self.opt_f32(key).unwrap_or(default)
    }

    /// A number where 0 (Quake's "unset") also means the default.
    pub(crate) fn nonzero_f32_or(&mut self, key: &str, default: f32) -> f32 {
        self.opt_f32(key).filter(|v| *v != 0.0).unwrap_or(default)
    }

    /// `spawnflags` as bits (a negative or fractional value warns and reads 0).
    pub(crate) fn spawnflags(&mut self) -> u32 {
        let Some(raw) = self.str("spawnflags") else {
            return 0;
        };
        match raw.trim().parse::<f64>() {
            Ok(v) if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => v as u32,
            _ => {
                self.bad("spawnflags", raw);
                0
            }
        }
    }

    /// Three numbers, e.g. `origin`.
    pub(crate) fn vec3(&mut self, key: &str) -> Option<Vec3> {
        let raw = self.str(key)?;
        let nums: Vec<f32> = raw.split_whitespace().filter_map(|s| s.parse::<f32>().ok()).collect();
        match nums.as_slice() {
            &[x, y, z] if x.is_finite() && y.is_finite() && z.is_finite() => Some(Vec3::new(x, y, z)),
            _ => {
                self.bad(key, raw);
                None
            }
        }
    }

    /// Yaw in degrees: `angle`, else the second of `angles`, else 0.
    pub(crate) fn yaw(&mut self) -> f32 {
        if let Some(a) = self.opt_f32("angle") {
            return a;
        }
        self.vec3("angles").map(|a| a.y).unwrap_or(0.0)
    }

    /// Movement direction as Quake's `SetMovedir`: `angle` -1 is up, -2 is
    /// down, any other `angle` a yaw; `angles` is pitch, yaw, roll.
    pub(crate) fn move_dir(&mut self) -> Vec3 {
        let angles = match self.opt_f32("angle") {
            Some(-1.0) => return Vec3::Z,
            Some(-2.0) => return Vec3::NEG_Z,
            Some(a) => Vec3::new(0.0, a, 0.0),
            None => self.vec3("angles").unwrap_or(Vec3::ZERO),
        };
        forward(angles)
    }
}

/// Quake's `AngleVectors` forward vector for (pitch, yaw, roll) in degrees:
/// positive pitch looks down. Components within `f32` noise of zero (from
/// `cos(90°)`) are made exactly zero, so a door at angle 90 moves along +Y.
pub(crate) fn forward(angles: Vec3) -> Vec3 {
    let (sp, cp) = angles.x.to_radians().sin_cos();
    let (sy, cy) = angles.y.to_radians().sin_cos();
    let snap = |v: f32| if v.abs() < 1e-6 { 0.0 } else { v };
    Vec3::new(snap(cp * cy), snap(cp * sy), snap(-sp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ent(keys: &[(&str, &str)]) -> RawEntity {
        RawEntity {
            line: 7,
            keys: keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            primitives: Vec::new(),
        }
    }

    #[test]
    fn numbers_vectors_and_warnings() {
        let e = ent(&[("speed", "abc"), ("origin", "1 2 3"), ("wait", "-1"), ("spawnflags", "9"), ("dmg", "0")]);
        let mut k = Keys::new(&e, "m.map", 4);
        assert_eq!(k.f32_or("speed", 100.0), 100.0);
        assert_eq!(k.f32_or("wait", 3.0), -1.0);
        assert_eq!(k.nonzero_f32_or("dmg", 5.0), 5.0);
        assert_eq!(k.vec3("origin"), Some(Vec3::new(1.0, 2.0, 3.0)));
        assert_eq!(k.spawnflags(), 9);
        assert_eq!(k.warnings.len(), 1);
        let w = &k.warnings[0];
        assert_eq!((w.location.line, w.location.entity), (7, Some(4)));
        assert!(matches!(&w.kind, WarningKind::BadValue { key, .. } if key == "speed"));
    }

    #[test]
    fn move_dirs() {
        let dir = |keys: &[(&str, &str)]| Keys::new(&ent(keys), "m", 0).move_dir();
        assert_eq!(dir(&[("angle", "-1")]), Vec3::Z);
        assert_eq!(dir(&[("angle", "-2")]), Vec3::NEG_Z);
        assert_eq!(dir(&[("angle", "90")]), Vec3::Y);
        assert_eq!(dir(&[("angles", "-90 0 0")]), Vec3::Z);
        assert!((dir(&[]) - Vec3::X).length() < 1e-6);
        // A Quake 1 push pad: pitch -86 points almost straight up.
        let up = dir(&[("angles", "-86 270 0")]);
        assert!(up.z > 0.99 && up.y < 0.0, "{up}");
    }

    #[test]
    fn yaw_from_angle_or_angles() {
        assert_eq!(Keys::new(&ent(&[("angle", "180")]), "m", 0).yaw(), 180.0);
        assert_eq!(Keys::new(&ent(&[("angles", "0 45 0")]), "m", 0).yaw(), 45.0);
        assert_eq!(Keys::new(&ent(&[]), "m", 0).yaw(), 0.0);
    }
}
