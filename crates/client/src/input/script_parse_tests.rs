use super::*;
use crate::input::{Frame, Input, ScriptInput};
use crate::view::View;

fn err(text: &str) -> ScriptError {
    match parse_script(text) {
        Ok(steps) => panic!("expected an error for {text:?}, got {steps:?}"),
        Err(e) => e,
    }
}

#[test]
fn parses_every_step_word() {
    let text = "\
# a comment
   # an indented comment

0.0 forward=127 yaw=90 buttons=jump   # trailing comment
1.5 say hello # not a comment: chat runs to the end
2 weapon=5 attack +walk -jump
2.0 right=-127 up=-5 pitch=-30 turn=45.5 buttons=attack,crouch+use
3 buttons=none stop
3 say_team  on my way
4 cmd team red
5.25 quit
";
    let steps = parse_script(text).expect("parses");
    let at: Vec<(f64, usize)> = steps.iter().map(|s| (s.at.as_secs_f64(), s.line)).collect();
    assert_eq!(
        at,
        vec![
            (0.0, 4),
            (1.5, 5),
            (2.0, 6),
            (2.0, 7),
            (3.0, 8),
            (3.0, 9),
            (4.0, 10),
            (5.25, 11)
        ]
    );
    assert_eq!(
        steps[0].ops,
        vec![
            ScriptOp::Forward(127),
            ScriptOp::Yaw(90.0),
            ScriptOp::SetButtons(Buttons::JUMP)
        ]
    );
    assert_eq!(
        steps[1].ops,
        vec![ScriptOp::Act(Action::Say(
            "hello # not a comment: chat runs to the end".into()
        ))]
    );
    assert_eq!(
        steps[2].ops,
        vec![
            ScriptOp::Weapon(5),
            ScriptOp::Press(Buttons::ATTACK),
            ScriptOp::Press(Buttons::WALK),
            ScriptOp::Release(Buttons::JUMP)
        ]
    );
    assert_eq!(
        steps[3].ops,
        vec![
            ScriptOp::Right(-127),
            ScriptOp::Up(-5),
            ScriptOp::Pitch(-30.0),
            ScriptOp::Turn(45.5),
            ScriptOp::SetButtons(Buttons::ATTACK | Buttons::CROUCH | Buttons::USE)
        ]
    );
    assert_eq!(steps[4].ops, vec![ScriptOp::SetButtons(Buttons::default()), ScriptOp::Stop]);
    assert_eq!(
        steps[5].ops,
        vec![ScriptOp::Act(Action::SayTeam("on my way".into()))]
    );
    assert_eq!(
        steps[6].ops,
        vec![ScriptOp::Act(Action::Command("team red".into()))]
    );
    assert_eq!(steps[7].ops, vec![ScriptOp::Act(Action::Quit)]);
    assert!(parse_script("").expect("empty is fine").is_empty());
}

#[test]
fn bad_lines_name_line_and_token() {
    let cases: &[(&str, usize, &str, ScriptErrorKind)] = &[
        ("soon forward=1", 1, "soon", ScriptErrorKind::BadTime),
        ("-1 forward=1", 1, "-1", ScriptErrorKind::BadTime),
        ("NaN forward=1", 1, "NaN", ScriptErrorKind::BadTime),
        (
            "0 forward=1\n# c\n2 jump\n1 jump",
            4,
            "1",
            ScriptErrorKind::TimeGoesBackwards {
                previous: "2".into(),
            },
        ),
        (
            "0 forward=200",
            1,
            "forward=200",
            ScriptErrorKind::BadValue {
                expected: "a move, -127..=127",
            },
        ),
        (
            "0 right=-128",
            1,
            "right=-128",
            ScriptErrorKind::BadValue {
                expected: "a move, -127..=127",
            },
        ),
        (
            "0 forward=",
            1,
            "forward=",
            ScriptErrorKind::BadValue {
                expected: "a move, -127..=127",
            },
        ),
        (
            "\n\n0 pitch=100",
            3,
            "pitch=100",
            ScriptErrorKind::BadValue {
                expected: "a pitch in degrees, -90..=90",
            },
        ),
        (
            "0 yaw=inf",
            1,
            "yaw=inf",
            ScriptErrorKind::BadValue {
                expected: "an angle in degrees",
            },
        ),
        (
            "0 weapon=300",
            1,
            "weapon=300",
            ScriptErrorKind::BadValue {
                expected: "a weapon number, 0..=255",
            },
        ),
        ("0 jump fly", 1, "fly", ScriptErrorKind::UnknownToken),
        ("0 -fly", 1, "-fly", ScriptErrorKind::UnknownToken),
        ("0 speed=3", 1, "speed=3", ScriptErrorKind::UnknownToken),
        ("0 say   ", 1, "say", ScriptErrorKind::MissingText),
        (
            "0 forward=1 say_team",
            1,
            "say_team",
            ScriptErrorKind::MissingText,
        ),
    ];
    for (text, line, token, kind) in cases {
        let e = err(text);
        assert_eq!(
            (e.line, e.token.as_str(), &e.kind),
            (*line, *token, kind),
            "{text:?}"
        );
    }
    let e = err("0 buttons=jump,fly");
    assert_eq!(e.token, "buttons=jump,fly");
    assert!(matches!(e.kind, ScriptErrorKind::BadValue { .. }));
    let shown = err("0 jump\n1 forward=200").to_string();
    assert_eq!(
        shown,
        "line 2: bad value: expected a move, -127..=127 (at `forward=200`)"
    );
}

#[test]
fn file_errors_name_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("moves.txt");
    std::fs::write(&path, "0 forward=1\n1 forwad=1\n").expect("write");
    let e = ScriptInput::from_file(&path).expect_err("bad step");
    assert_eq!(e.path.as_deref(), Some(path.as_path()));
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2: unknown step", path.display())),
        "{e}"
    );
    let missing = dir.path().join("nope.txt");
    let e = ScriptInput::from_file(&missing).expect_err("missing");
    assert!(matches!(e.kind, ScriptErrorKind::Unreadable(_)));
    assert!(
        e.to_string()
            .starts_with(&format!("{}: cannot read the script", missing.display())),
        "{e}"
    );
    // Not UTF-8: an error, not a panic.
    std::fs::write(&path, [0xff, 0xfe, b'0']).expect("write");
    assert!(ScriptInput::from_file(&path).is_err());
}

#[test]
fn script_holds_controls_and_fires_actions_once() {
    let mut s =
        ScriptInput::parse("0 forward=127 yaw=90\n0.5 say hi\n1 turn=90 attack\n2 stop\n3 quit")
            .expect("parses");
    let v = View::default();
    let at = |ms| Duration::from_millis(ms);
    let f = s.poll(at(0), &v);
    assert_eq!((f.cmd.forward, f.cmd.yaw, f.actions.len()), (127, 90.0, 0));
    assert_eq!(s.poll(at(400), &v).cmd.forward, 127, "held");
    assert_eq!(s.poll(at(500), &v).actions, vec![Action::Say("hi".into())]);
    assert!(s.poll(at(600), &v).actions.is_empty(), "once");
    let f = s.poll(at(1000), &v);
    assert!(f.cmd.buttons.contains(Buttons::ATTACK));
    assert_eq!(f.cmd.yaw, 90.0, "turning starts after the step");
    let f = s.poll(at(1500), &v);
    assert!((f.cmd.yaw - 135.0).abs() < 1e-3, "{}", f.cmd.yaw);
    let f = s.poll(at(2000), &v);
    assert_eq!((f.cmd.forward, f.cmd.buttons), (0, Buttons::default()));
    assert!((f.cmd.yaw - 180.0).abs() < 1e-3, "{}", f.cmd.yaw);
    assert!(
        (s.poll(at(2500), &v).cmd.yaw - 180.0).abs() < 1e-3,
        "stopped turning"
    );
    assert!(!s.is_finished());
    // A late poll applies every step that is due, in order.
    let f: Frame = s.poll(at(9000), &v);
    assert_eq!(f.actions, vec![Action::Quit]);
    assert!(s.is_finished());
    assert_eq!(s.duration(), at(3000));
}
