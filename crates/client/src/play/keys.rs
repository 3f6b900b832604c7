//! Quake key names for the window's keys and mouse buttons, so bindings
//! read as in every Quake: `w`, `space`, `ctrl`, `mouse1`, `mwheelup`.

use macroquad::prelude::{KeyCode, MouseButton};

/// The Quake name of a key, `None` for keys that cannot be bound.
pub fn key_name(k: KeyCode) -> Option<String> {
    use KeyCode::*;
    let code = k as u32;
    // Letters and digits: their own character.
    if (u32::from(b'A')..=u32::from(b'Z')).contains(&code) || (u32::from(b'0')..=u32::from(b'9')).contains(&code) {
        return char::from_u32(code).map(|c| c.to_ascii_lowercase().to_string());
    }
    let name = match k {
        Space => "space",
        Apostrophe => "'",
        Comma => ",",
        Minus => "-",
        Period => ".",
        Slash => "/",
        Semicolon => ";",
        Equal => "=",
        LeftBracket => "[",
        Backslash => "\\",
        RightBracket => "]",
        GraveAccent => "`",
        Escape => "escape",
        Enter | KpEnter => "enter",
        Tab => "tab",
        Backspace => "backspace",
        Insert => "ins",
        Delete => "del",
        Right => "rightarrow",
        Left => "leftarrow",
        Down => "downarrow",
        Up => "uparrow",
        PageUp => "pgup",
        PageDown => "pgdn",
        Home => "home",
        End => "end",
        F1 => "f1",
        F2 => "f2",
        F3 => "f3",
        F4 => "f4",
        F5 => "f5",
        F6 => "f6",
        F7 => "f7",
        F8 => "f8",
        F9 => "f9",
        F10 => "f10",
        F11 => "f11",
        F12 => "f12",
        LeftShift | RightShift => "shift",
        LeftControl | RightControl => "ctrl",
        LeftAlt | RightAlt => "alt",
        Kp0 => "kp_ins",
        Kp5 => "kp_5",
        _ => return None,
    };
    Some(name.to_owned())
}

/// The Quake name of a mouse button.
pub fn mouse_name(b: MouseButton) -> &'static str {
    match b {
        MouseButton::Left => "mouse1",
        MouseButton::Right => "mouse2",
        MouseButton::Middle => "mouse3",
        MouseButton::Unknown => "mouse4",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_quake_names() {
        assert_eq!(key_name(KeyCode::W).as_deref(), Some("w"));
        assert_eq!(key_name(KeyCode::Key3).as_deref(), Some("3"));
        assert_eq!(key_name(KeyCode::Space).as_deref(), Some("space"));
        assert_eq!(key_name(KeyCode::LeftControl).as_deref(), Some("ctrl"));
        assert_eq!(key_name(KeyCode::GraveAccent).as_deref(), Some("`"));
        assert_eq!(mouse_name(MouseButton::Left), "mouse1");
    }
}
