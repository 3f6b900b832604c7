//! Swept-box probes: the only way generation, snapping, string pulling and
//! live validation look at the world, so a link exists only where the
//! player box can really make that move.
//!
//! A step from a standing origin toward a neighbour cell tries, cheapest
//! first (`try_step`):
//!
//! 1. **flat**: sweep across 1 unit above the ground, then fall onto the
//!    floor below (at most `max_drop`): WALK if the height changes by at
//!    most a step, DROP if it falls further (unless a walkable ramp or
//!    stairs lead down, which is WALK);
//! 2. **step**: lift by the step height (clipped by the ceiling, as pmove's
//!    step-up is), across, fall: WALK if it rose at most a step;
//! 3. **ramp**: when the first two hit a slope or rose too far, walk the
//!    way in sub-steps no higher than a step, as pmove climbs a ramp or a
//!    steep stair: WALK;
//! 4. **jump**: lift by the jump height, across, fall: JUMP, whatever the
//!    rise (a railing hop lands level but still needs the jump).
//!
//! A vertical lift that starts in solid ends the step; a horizontal sweep
//! that hits something tries the next lift; no floor within the bounded
//! drop ends the step (a higher lift has the same bottom). A floor steeper
//! than the physics' slope limit is no floor.

use std::cell::{Cell, RefCell};
use rustc_hash::FxHashMap as HashMap;

use glam::{Vec2, Vec3};
use quarry_map::{Contents, EntityId, Nearby, Trace, TraceResult};

use crate::agent::Agent;
use crate::footing::{self, Footprint};
use crate::graph::LinkKind;

/// Probes start this far above the ground so a flat sweep does not scrape
/// the floor it stands on (the reference's `NAV_GROUND_OFFSET`).
pub(crate) const GROUND_OFFSET: f32 = 1.0;
/// What stops the agent: solid and player clip. Other players are never
/// in the mask, so nobody standing in a doorway erases it.
pub(crate) const MASK: Contents = Contents::MASK_PLAYER_SOLID;
/// Falls a flood thread's cache has room for before it grows.
const FALL_CACHE_CAPACITY: usize = 1 << 15;
/// Slack on height comparisons: traces stop 1/32 unit short of surfaces,
/// so two standing origins on one floor agree to well within this.
const EPS: f32 = 0.1;
/// Share of the physical running-jump range a gap jump may use, leaving
/// room for imperfect take-offs.
const JUMP_RANGE_MARGIN: f32 = 0.8;

/// Where a probe landed and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    /// The standing origin it landed at.
    pub(crate) origin: Vec3,
    /// How the move is made.
    pub(crate) kind: LinkKind,
    /// Made by the flat attempt: the box swept across 1 unit up and fell
    /// less than a step. The same probe the other way then succeeds too,
    /// which the flood uses to skip the reverse probe.
    pub(crate) flat: bool,
}

/// How a running jump across a gap turned out ([`Prober::gap_jump`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum GapJump {
    /// It lands there.
    Landed(Step),
    /// The box cannot lift by the jump height here: no jump from this spot
    /// goes anywhere.
    NoRoom,
    /// Something stands in the way across: every target further along the
    /// same line from the same spot is blocked too.
    Blocked,
    /// No usable landing within range.
    Missed,
}

/// The agent's box against one world.
pub(crate) struct Prober<'a> {
    world: &'a dyn Trace,
    pub(crate) agent: Agent,
    mins: Vec3,
    maxs: Vec3,
    /// Sample spacing for ground checks under a straight line.
    spacing: f32,
    /// Touch-open doors: a sweep they stop counts as clear (live checks only;
    /// builds probe a world with those doors open).
    doors: &'a [EntityId],
    /// Whether straight lines check the ground under them for lava and
    /// slime (off for meshes whose build met none: saves a contents query
    /// per ground sample).
    hazards: bool,
    /// Jump pad and teleporter volumes: a straight line that passes through
    /// one (other than the one it ends in) is not walkable, since touching
    /// it sends the player elsewhere (route queries only).
    warps: &'a [(Vec3, Vec3)],
    /// Falls already swept from a point by a depth (flood probers only).
    falls: Option<RefCell<HashMap<[u32; 4], TraceResult>>>,
    /// How far (as a fraction) the last [`Prober::try_step`]'s furthest
    /// horizontal sweep got before something stopped it.
    reach: Cell<f32>,
    /// Whether the last [`Prober::try_step`] swept across at the jump
    /// height and was stopped: a running jump further along the same line
    /// from the same spot ([`Prober::gap_jump`]) starts the same and is
    /// stopped by the same thing.
    jump_blocked: Cell<bool>,
    /// The lifts already swept from one standing origin: every step and
    /// gap jump out of a node lifts from the same origin by the same few
    /// heights. Keyed by the origin's and the height's bits; cleared when
    /// the origin changes.
    lifts: RefCell<LiftMemo>,
    /// The hulls around the spot being probed, when the world offers that
    /// ([`Prober::with_nearby`], [`Prober::focus`]).
    near: Option<RefCell<Nearby<'a>>>,
    /// Whether each straight line ([`Prober::walkable_line`]) gathers the
    /// hulls around itself first (route queries: a line's falls and floor
    /// probes, a dozen to a hundred short traces, then skip the tree).
    line_focus: bool,
}

/// The lifts swept from one origin ([`Prober::lift`]).
#[derive(Default)]
struct LiftMemo {
    from: [u32; 3],
    heights: Vec<(u32, Option<f32>)>,
}

impl<'a> Prober<'a> {
    /// A prober for `agent` in `world`; `doors` are the touch-open doors to see through.
    pub(crate) fn new(
        world: &'a dyn Trace,
        agent: &Agent,
        cell_size: f32,
        doors: &'a [EntityId],
    ) -> Prober<'a> {
        let spacing = cell_size.min(agent.half_width * 2.0).max(4.0);
        Prober {
            world,
            agent: *agent,
            mins: agent.mins(),
            maxs: agent.maxs(),
            spacing,
            doors,
            hazards: true,
            warps: &[],
            falls: None,
            reach: Cell::new(0.0),
            jump_blocked: Cell::new(false),
            lifts: RefCell::new(LiftMemo::default()),
            near: None,
            line_focus: false,
        }
    }

    /// This prober tracing through a [`Nearby`] view of its world where
    /// the world has one: after [`Prober::focus`], sweeps inside the box
    /// skip the world's tree (same results).
    pub(crate) fn with_nearby(mut self) -> Prober<'a> {
        self.near = self.world.nearby().map(RefCell::new);
        self
    }

    /// This prober gathering the hulls around every straight line it
    /// proves before the line's short probes (where the world offers a
    /// [`Nearby`] view; same results): for route queries, never for the
    /// flood, whose focus is the node it probes out of.
    pub(crate) fn with_line_focus(mut self) -> Prober<'a> {
        if self.near.is_none() {
            self.near = self.world.nearby().map(RefCell::new);
        }
        self.line_focus = self.near.is_some();
        self
    }

    /// Gathers the hulls around the straight line `a`..`b` for
    /// [`Prober::walkable_line`]'s falls and floor probes under it.
    fn focus_line(&self, a: Vec3, b: Vec3) {
        if let Some(near) = &self.near {
            let ag = &self.agent;
            let side = Vec2::splat(ag.half_width + 2.0);
            let below = ag.min_z - 2.0 * ag.step_height - 4.0 * GROUND_OFFSET - 2.0;
            let above = ag.max_z + ag.step_height + 4.0 * GROUND_OFFSET + 2.0;
            let (lo, hi) = (a.min(b), a.max(b));
            near.borrow_mut().focus(lo + (-side).extend(below), hi + side.extend(above));
        }
    }

    /// Gathers the hulls around `origin` for the probes out of a node
    /// standing there: neighbour steps (`reach` across), lifts up to the
    /// jump height and falls of a step or two. Longer sweeps still work,
    /// through the whole world.
    pub(crate) fn focus(&self, origin: Vec3, reach: f32) {
        if let Some(near) = &self.near {
            let a = &self.agent;
            let side = Vec2::splat(reach + a.half_width + 2.0);
            let below = a.min_z - 2.0 * a.step_height - 4.0 * GROUND_OFFSET;
            let above = a.max_z + a.jump_height + 4.0 * GROUND_OFFSET;
            let lo = origin + (-side).extend(below);
            let hi = origin + side.extend(above);
            near.borrow_mut().focus(lo, hi);
        }
    }

    /// One trace of the agent box from `a` to `b` against `mask`.
    fn trace_box(&self, a: Vec3, b: Vec3, mask: Contents) -> TraceResult {
        self.trace(a, b, self.mins, self.maxs, mask)
    }

    /// One trace of the box `mins..maxs` through the focused hulls (when
    /// there are any and it stays among them) or the world.
    pub(crate) fn trace(
        &self,
        a: Vec3,
        b: Vec3,
        mins: Vec3,
        maxs: Vec3,
        mask: Contents,
    ) -> TraceResult {
        match &self.near {
            Some(near) => near.borrow().trace(a, b, mins, maxs, mask),
            None => self.world.trace(a, b, mins, maxs, mask),
        }
    }

    /// The world this prober traces.
    pub(crate) fn world(&self) -> &'a dyn Trace {
        self.world
    }

    /// This prober remembering every fall it sweeps (for one flood thread).
    pub(crate) fn with_fall_cache(mut self) -> Prober<'a> {
        // Sized for a large map's share of falls: growing it rehashes the
        // whole cache again and again during the flood.
        self.falls = Some(RefCell::new(HashMap::with_capacity_and_hasher(FALL_CACHE_CAPACITY, Default::default())));
        self
    }

    /// This prober with the jump pad and teleporter volumes straight lines
    /// must not pass through.
    pub(crate) fn with_warps(mut self, warps: &'a [(Vec3, Vec3)]) -> Prober<'a> {
        self.warps = warps;
        self
    }

    /// Whether the box swept from origin `a` to origin `b` passes through a
    /// jump pad or teleporter volume that `b` is not in.
    fn crosses_warp(&self, a: Vec3, b: Vec3) -> bool {
        self.warps.iter().any(|&(lo, hi)| {
            // The volume grown by the box: the origins whose box touches it.
            let (lo, hi) = (lo - self.maxs, hi - self.mins);
            let ends_inside = b.cmpge(lo).all() && b.cmple(hi).all();
            !ends_inside && segment_hits_box(a, b, lo, hi)
        })
    }

    /// This prober with the lava and slime checks of straight lines on or off.
    pub(crate) fn with_hazards(mut self, on: bool) -> Prober<'a> {
        self.hazards = on;
        self
    }

    /// Whether door `entity` opens to this prober's touch (it sees through it).
    pub(crate) fn opens_to_touch(&self, entity: EntityId) -> bool {
        self.doors.contains(&entity)
    }

    /// Sweeps the agent box from `a` to `b`.
    pub(crate) fn sweep(&self, a: Vec3, b: Vec3) -> TraceResult {
        let tr = self.trace_box(a, b, MASK);
        if tr.hit()
            && !tr.start_solid
            && tr.entity.is_some_and(|e| self.doors.contains(&e))
            && tr.normal.z < self.agent.walkable_normal_z
        {
            return TraceResult::clear(b);
        }
        tr
    }

    /// Falls from `from` by at most `depth`: the standing origin on a
    /// walkable floor, or `None` (started in solid, no floor, too steep).
    pub(crate) fn fall(&self, from: Vec3, depth: f32) -> Option<Vec3> {
        self.landing(&self.drop_trace(from, depth))
    }

    /// [`Prober::fall`] through the fall cache when it is on.
    fn cached_fall(&self, from: Vec3, depth: f32) -> Option<Vec3> {
        self.landing(&self.cached_drop(from, depth))
    }

    /// Where a fall swept as `tr` stands, if on a walkable floor.
    fn landing(&self, tr: &TraceResult) -> Option<Vec3> {
        (!tr.start_solid && tr.hit() && tr.normal.z >= self.agent.walkable_normal_z)
            .then_some(tr.end)
    }

    /// Sweeps straight down by `depth`, first a short way (most floors are
    /// within a step and a short sweep touches fewer hulls), then the rest.
    fn drop_trace(&self, from: Vec3, depth: f32) -> TraceResult {
        let short = self.agent.step_height + 2.0 * GROUND_OFFSET;
        if depth <= short * 2.0 {
            return self.sweep(from, from - Vec3::Z * depth);
        }
        let first = self.sweep(from, from - Vec3::Z * short);
        if first.hit() || first.start_solid {
            return first;
        }
        self.sweep(first.end, from - Vec3::Z * depth)
    }

    /// [`Prober::drop_trace`] through the fall cache when it is on: the
    /// flood probes each cell centre from up to 8 neighbours, usually from
    /// the same height, and the fall from there is the same every time.
    fn cached_drop(&self, from: Vec3, depth: f32) -> TraceResult {
        let Some(cache) = &self.falls else {
            return self.drop_trace(from, depth);
        };
        let key = [
            from.x.to_bits(),
            from.y.to_bits(),
            from.z.to_bits(),
            depth.to_bits(),
        ];
        *cache.borrow_mut().entry(key).or_insert_with(|| self.drop_trace(from, depth))
    }

    /// Whether standing at `origin` puts the feet in lava or slime: the
    /// contents 1 unit above the floor under the box's centre and its four
    /// corners (a box half over a lava pool still burns).
    pub(crate) fn lethal(&self, origin: Vec3) -> bool {
        let feet = origin + Vec3::Z * (self.agent.min_z + GROUND_OFFSET);
        let w = (self.agent.half_width - GROUND_OFFSET).max(0.0);
        [
            Vec2::ZERO,
            Vec2::new(w, w),
            Vec2::new(-w, w),
            Vec2::new(w, -w),
            Vec2::new(-w, -w),
        ]
        .into_iter()
        .any(|c| {
            self.world
                .point_contents_in(feet + c.extend(0.0), Contents::LAVA | Contents::SLIME)
                .intersects(Contents::LAVA | Contents::SLIME)
        })
    }

    /// Whether a box standing at `origin` has a deadly edge beside it: a
    /// thin probe (the box's middle, [`footing::FOOTING_HALF_WIDTH`] either
    /// way) moved `margin` plus the box's half width out along any of
    /// eight directions, with no wall between, finds no floor within a
    /// safe drop ([`Agent::max_drop`](crate::Agent::max_drop)), or lava or
    /// slime: a bot coming down there a box width off its mark falls or
    /// burns. A landing there is precarious (a strip of floor between lava
    /// pools, a ledge over the void), and the thin probe finds a strip
    /// narrower than the box, which the box itself straddles.
    pub(crate) fn deadly_edge_near(&self, origin: Vec3, margin: f32) -> bool {
        let (mins, maxs) = self.footprint().middle();
        let reach = self.agent.half_width + margin;
        let start = origin + Vec3::Z * GROUND_OFFSET;
        let diag = std::f32::consts::FRAC_1_SQRT_2;
        [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (diag, diag), (diag, -diag), (-diag, diag), (-diag, -diag)].into_iter().any(|(x, y)| {
            let end = start + Vec3::new(x, y, 0.0) * reach;
            let across = self.trace(start, end, mins, maxs, MASK);
            !across.hit() && !across.start_solid && self.deadly_below_middle(across.end, self.agent.max_drop)
        })
    }

    /// Whether a probe as thin as the box's middle, lowered from `origin`
    /// by `depth`, finds no floor, or lava or slime: a box coming down
    /// there with its middle off the floor falls or burns.
    fn deadly_below_middle(&self, origin: Vec3, depth: f32) -> bool {
        let (mins, maxs) = self.footprint().middle();
        let hazard = MASK | Contents::LAVA | Contents::SLIME;
        let down = self.trace(origin, origin - Vec3::Z * depth, mins, maxs, hazard);
        !down.start_solid && (!down.hit() || down.contents.intersects(Contents::LAVA | Contents::SLIME))
    }

    /// The agent box's footprint, for the [`footing`] checks.
    fn footprint(&self) -> Footprint {
        Footprint { half_width: self.agent.half_width, min_z: self.mins.z, max_z: self.maxs.z }
    }

    /// Whether the feet of a box standing at `origin` are in lava or slime
    /// under its centre only (the cheap check for ground under a line).
    pub(crate) fn lethal_at_centre(&self, origin: Vec3) -> bool {
        let feet = origin + Vec3::Z * (self.agent.min_z + GROUND_OFFSET);
        self.world
            .point_contents_in(feet, Contents::LAVA | Contents::SLIME)
            .intersects(Contents::LAVA | Contents::SLIME)
    }

    /// Whether the agent box fits at `origin`.
    pub(crate) fn fits(&self, origin: Vec3) -> bool {
        !self.trace_box(origin, origin, MASK).start_solid
    }

    /// Whether the agent box at `origin` overlaps a trigger volume.
    pub(crate) fn in_trigger(&self, origin: Vec3) -> bool {
        self.trace_box(origin, origin, Contents::TRIGGER)
            .start_solid
    }

    /// The standing origin below `point` within `depth`. The box is placed
    /// at `point` lifted by a step (a seed just under a lip lands on it),
    /// else at `point`, else at `point` taken as a spot on the floor (lifted
    /// by the box's depth below the origin, for entity origins and trigger
    /// centres near the ground), whichever fits first, and falls from there.
    pub(crate) fn ground_below(&self, point: Vec3, depth: f32) -> Option<Vec3> {
        let (step, below) = (self.agent.step_height, -self.agent.min_z);
        [step, 0.0, below, below + step]
            .into_iter()
            .find_map(|lift| {
                let start = point + Vec3::Z * lift;
                let fits = !self.trace_box(start, start, MASK).start_solid;
                fits.then(|| self.fall(start, depth + lift)).flatten()
            })
    }

    /// Lifts from `from` (standing) by `lift` above the ground offset,
    /// clipped by the ceiling: the height reached above `from`, or `None`
    /// if the box cannot even start.
    fn lift(&self, from: Vec3, lift: f32) -> Option<f32> {
        let base = from + Vec3::Z * GROUND_OFFSET;
        if lift <= GROUND_OFFSET {
            return Some(GROUND_OFFSET);
        }
        let key = [from.x.to_bits(), from.y.to_bits(), from.z.to_bits()];
        {
            let mut memo = self.lifts.borrow_mut();
            if memo.from != key {
                memo.from = key;
                memo.heights.clear();
            } else if let Some(&(_, reached)) = memo.heights.iter().find(|(h, _)| *h == lift.to_bits()) {
                return reached;
            }
        }
        let up = self.sweep(base, from + Vec3::Z * lift);
        let reached = (!up.start_solid).then_some(up.end.z - from.z);
        self.lifts.borrow_mut().heights.push((lift.to_bits(), reached));
        reached
    }

    /// How far the last [`Prober::try_step`] got across before it was
    /// stopped, 0 to 1 (1: a sweep got all the way).
    pub(crate) fn last_reach(&self) -> f32 {
        self.reach.get()
    }

    /// Whether the last [`Prober::try_step`]'s sweep across at the jump
    /// height (the one [`Prober::gap_jump`] starts with) hit something.
    pub(crate) fn last_jump_blocked(&self) -> bool {
        self.jump_blocked.get()
    }

    /// One step from standing origin `from` toward the cell centre
    /// `target`; see the module docs for the order of attempts.
    pub(crate) fn try_step(&self, from: Vec3, target: Vec2) -> Option<Step> {
        self.reach.set(0.0);
        self.jump_blocked.set(false);
        let a = &self.agent;
        let dist = (target - from.truncate()).length();
        let ramp_possible = dist * a.slope_tan() > a.step_height + EPS;
        let mut reached = 0.0f32;
        let mut ramp_hint = false;
        for (want, kind) in [
            (GROUND_OFFSET, 0),
            (a.step_height + GROUND_OFFSET, 1),
            (a.jump_height + GROUND_OFFSET, 2),
        ] {
            if kind == 2
                && ramp_hint
                && ramp_possible
                && let Some(end) = self.walk_substeps(from, target)
            {
                return Some(Step {
                    origin: end,
                    kind: LinkKind::Walk,
                    flat: false,
                });
            }
            let lift = self.lift(from, want)?;
            if lift <= reached + EPS && kind > 0 {
                continue; // The ceiling stopped this lift where the last one was.
            }
            reached = lift;
            let start = from + Vec3::Z * lift;
            let across = self.sweep(start, target.extend(start.z));
            if kind == 2 {
                self.jump_blocked.set(across.hit() || across.start_solid);
            }
            if across.start_solid {
                continue;
            }
            self.reach.set(self.reach.get().max(across.fraction));
            if across.hit() {
                ramp_hint |= across.normal.z >= a.walkable_normal_z;
                continue;
            }
            let tr = self.cached_drop(across.end, lift + a.max_drop);
            if tr.start_solid || tr.normal.z < a.walkable_normal_z && tr.hit() {
                continue;
            }
            if !tr.hit() {
                return None;
            }
            let landing = tr.end;
            let rise = landing.z - from.z;
            if kind == 2 {
                return (rise <= a.jump_height + EPS).then_some(Step {
                    origin: landing,
                    kind: LinkKind::Jump,
                    flat: false,
                });
            }
            if rise > a.step_height + EPS {
                ramp_hint = true;
                continue;
            }
            if -rise <= a.step_height + EPS {
                return Some(Step {
                    origin: landing,
                    kind: LinkKind::Walk,
                    flat: kind == 0,
                });
            }
            // A fall: stairs or a ramp going down are still a walk.
            let down_ramp = -rise <= dist * a.slope_tan() + a.step_height
                && self
                    .walk_substeps(from, landing.truncate())
                    .is_some_and(|e| (e.z - landing.z).abs() <= a.step_height);
            let kind = if down_ramp {
                LinkKind::Walk
            } else {
                LinkKind::Drop
            };
            return Some(Step {
                origin: landing,
                kind,
                flat: false,
            });
        }
        None
    }

    /// A running jump from `from` to the cell centre `target` (further than
    /// a neighbour): lift by the jump height, cross, fall; accepted when the
    /// distance is within the jump's range at the landing height.
    pub(crate) fn try_gap_jump(&self, from: Vec3, target: Vec2) -> Option<Step> {
        match self.gap_jump(from, target) {
            GapJump::Landed(step) => Some(step),
            _ => None,
        }
    }

    /// [`Prober::try_gap_jump`], saying why a jump fails where that tells
    /// the flood to stop trying further along the same line.
    pub(crate) fn gap_jump(&self, from: Vec3, target: Vec2) -> GapJump {
        let a = &self.agent;
        let Some(lift) = self.lift(from, a.jump_height + GROUND_OFFSET) else {
            return GapJump::NoRoom;
        };
        let start = from + Vec3::Z * lift;
        let across = self.sweep(start, target.extend(start.z));
        if across.hit() || across.start_solid {
            return GapJump::Blocked;
        }
        // Neighbouring nodes at one height aim at the same far cells.
        let Some(landing) = self.cached_fall(across.end, lift + a.max_drop) else {
            return GapJump::Missed;
        };
        let rise = landing.z - from.z;
        let Some(time) = a.jump_air_time(rise.min(a.jump_height)) else {
            return GapJump::Missed;
        };
        let dist = (target - from.truncate()).length();
        if rise <= a.jump_height + EPS && dist <= JUMP_RANGE_MARGIN * a.ground_speed() * time {
            GapJump::Landed(Step {
                origin: landing,
                kind: LinkKind::Jump,
                flat: false,
            })
        } else {
            GapJump::Missed
        }
    }

    /// How far a running jump can carry the agent over level ground, with the margin.
    pub(crate) fn gap_jump_range(&self) -> f32 {
        let t = self.agent.jump_air_time(0.0).unwrap_or(0.0).min(4.0);
        JUMP_RANGE_MARGIN * self.agent.ground_speed() * t
    }

    /// Walks from `from` toward `target` in sub-steps that each rise or
    /// fall at most a step (pmove's step-up over a ramp or steep stairs);
    /// the standing origin at the end, or `None`.
    fn walk_substeps(&self, from: Vec3, target: Vec2) -> Option<Vec3> {
        let a = &self.agent;
        let dist = (target - from.truncate()).length();
        let n = ((dist * a.slope_tan()) / (0.9 * a.step_height.max(1.0)))
            .ceil()
            .clamp(2.0, 16.0) as u32;
        let mut cur = from;
        for i in 1..=n {
            let p = from.truncate().lerp(target, i as f32 / n as f32);
            let lift = self.lift(cur, a.step_height + GROUND_OFFSET)?;
            let start = cur + Vec3::Z * lift;
            let across = self.sweep(start, p.extend(start.z));
            if across.hit() || across.start_solid {
                return None;
            }
            let next = self.fall(across.end, lift + a.step_height + GROUND_OFFSET)?;
            if (next.z - cur.z).abs() > a.step_height + EPS {
                return None;
            }
            cur = next;
        }
        Some(cur)
    }

    /// Whether the agent can walk straight from `a` to `b` (standing
    /// origins): the box sweeps clear 1 unit up, or a step up (stairs); and
    /// under evenly spaced samples the ground is walkable, not lethal and
    /// never more than a step below the line (no shortcut over a pit).
    /// Directional: the box starts at `a`.
    pub(crate) fn walkable_line(&self, a: Vec3, b: Vec3) -> bool {
        let mut lift = GROUND_OFFSET;
        let up = Vec3::Z * lift;
        let tr = self.sweep(a + up, b + up);
        if tr.hit() || tr.start_solid {
            lift = self.agent.step_height + GROUND_OFFSET;
            let up = Vec3::Z * lift;
            let tr = self.sweep(a + up, b + up);
            if tr.hit() || tr.start_solid {
                return false;
            }
        }
        let len = (b - a).truncate().length();
        let n = ((len / self.spacing).ceil() as u32).clamp(2, 256);
        let dip = self.agent.step_height;
        if self.crosses_warp(a, b) {
            return false;
        }
        if self.line_focus {
            self.focus_line(a, b);
        }
        (1..n).all(|i| {
            let p = a.lerp(b, i as f32 / n as f32) + Vec3::Z * lift;
            match self.fall(p, lift + dip) {
                Some(ground) => self.footing_at_centre(ground) && !(self.hazards && self.lethal_at_centre(ground)),
                None => false,
            }
        })
    }

    /// Whether a box standing at `ground` has floor (within a step down)
    /// under its middle ([`footing::middle_has_floor`]), not only under an
    /// edge: a line walked with the centre out over a drop leaves a bot
    /// one steering slip from falling off.
    fn footing_at_centre(&self, ground: Vec3) -> bool {
        let depth = self.agent.step_height + 2.0 * GROUND_OFFSET;
        footing::middle_has_floor(self, ground + Vec3::Z * GROUND_OFFSET, depth, self.footprint(), MASK, |tr| tr.hit() || tr.start_solid)
    }
}

/// A prober traces as its world does, through the hulls it has gathered
/// where it has some (the same answers): so shared probes such as
/// [`footing::middle_has_floor`] take the gathered list too.
impl Trace for Prober<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        Prober::trace(self, start, end, mins, maxs, mask)
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.world.point_contents_in(point, mask)
    }

    fn mover_offset_of(&self, entity: EntityId) -> Option<Vec3> {
        self.world.mover_offset_of(entity)
    }
}

/// Whether the segment `a`..`b` meets the box `lo..hi` (slab test).
fn segment_hits_box(a: Vec3, b: Vec3, lo: Vec3, hi: Vec3) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for axis in 0..3 {
        if d[axis].abs() < 1e-6 {
            if a[axis] < lo[axis] || a[axis] > hi[axis] {
                return false;
            }
            continue;
        }
        let (mut near, mut far) = ((lo[axis] - a[axis]) / d[axis], (hi[axis] - a[axis]) / d[axis]);
        if near > far {
            std::mem::swap(&mut near, &mut far);
        }
        t0 = t0.max(near);
        t1 = t1.min(far);
        if t0 > t1 {
            return false;
        }
    }
    true
}
