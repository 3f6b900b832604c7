//! Plays a parsed script: applies each step when its time comes and holds
//! the controls in between.

use std::path::Path;
use std::time::Duration;

use quarry_movement::{Buttons, UserCmd};

use super::script_parse::{ScriptError, ScriptErrorKind, ScriptOp, ScriptStep, parse_script};
use super::{Action, Frame, Input};
use crate::view::View;

/// Input from a script of timed steps (format in [`super::parse_script`]).
#[derive(Debug, Clone)]
pub struct ScriptInput {
    steps: Vec<ScriptStep>,
    next: usize,
    held: UserCmd,
    turn: f32,
    last: Option<Duration>,
}

impl ScriptInput {
    /// Parses script text.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        Ok(Self::from_steps(parse_script(text)?))
    }

    /// Reads and parses a script file; errors name the file.
    pub fn from_file(path: &Path) -> Result<Self, ScriptError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScriptError {
            path: Some(path.to_owned()),
            line: 0,
            token: String::new(),
            kind: ScriptErrorKind::Unreadable(e.to_string()),
        })?;
        Self::parse(&text).map_err(|e| ScriptError {
            path: Some(path.to_owned()),
            ..e
        })
    }

    /// A script from already parsed steps (sorted by time).
    pub fn from_steps(steps: Vec<ScriptStep>) -> Self {
        Self {
            steps,
            next: 0,
            held: UserCmd::default(),
            turn: 0.0,
            last: None,
        }
    }

    /// The steps, in order.
    pub fn steps(&self) -> &[ScriptStep] {
        &self.steps
    }

    /// Whether every step has been applied.
    pub fn is_finished(&self) -> bool {
        self.next >= self.steps.len()
    }

    /// When the last step applies (zero for an empty script).
    pub fn duration(&self) -> Duration {
        self.steps.last().map_or(Duration::ZERO, |s| s.at)
    }

    fn apply(&mut self, op: &ScriptOp, actions: &mut Vec<Action>) {
        let c = &mut self.held;
        match op {
            ScriptOp::Forward(v) => c.forward = *v,
            ScriptOp::Right(v) => c.right = *v,
            ScriptOp::Up(v) => c.up = *v,
            ScriptOp::Yaw(v) => c.yaw = v.rem_euclid(360.0),
            ScriptOp::Pitch(v) => c.pitch = *v,
            ScriptOp::Turn(v) => self.turn = *v,
            ScriptOp::Weapon(v) => c.weapon = *v,
            ScriptOp::SetButtons(b) => c.buttons = *b,
            ScriptOp::Press(b) => c.buttons = c.buttons.with(*b),
            ScriptOp::Release(b) => c.buttons = c.buttons.without(*b),
            ScriptOp::Stop => {
                c.forward = 0;
                c.right = 0;
                c.up = 0;
                c.buttons = Buttons::default();
                self.turn = 0.0;
            }
            ScriptOp::Act(a) => actions.push(a.clone()),
        }
    }
}

impl Input for ScriptInput {
    fn poll(&mut self, elapsed: Duration, _view: &View) -> Frame {
        // Turning runs between polls at the rate in force before this poll's steps.
        let dt = self
            .last
            .map_or(Duration::ZERO, |l| elapsed.saturating_sub(l));
        self.last = Some(elapsed);
        self.held.yaw = (self.held.yaw + self.turn * dt.as_secs_f32()).rem_euclid(360.0);
        let mut actions = Vec::new();
        while let Some(step) = self.steps.get(self.next).filter(|s| s.at <= elapsed) {
            let ops = step.ops.clone();
            self.next += 1;
            for op in &ops {
                self.apply(op, &mut actions);
            }
        }
        Frame {
            cmd: self.held,
            actions,
        }
    }
}
