//! Items: how much a pickup is worth to this bot right now, and which one
//! to go for.
//!
//! Utility comes from the live inventory: no health at full health (except
//! a mega health while under twice the maximum), armor by its deficit,
//! missing weapons above everything but powerups (an owned weapon is worth
//! only its ammo), ammo only below capacity, powerups worth a detour.
//! Armor and health are scaled by the bot's [`StackWeights`]: at face value
//! for most bots, more for one that fights for its stack (the tactics).
//!
//! Choosing is two-stage: a cheap ranking by utility over straight-line
//! distance inside the search radius (`itemFocus`), then a route proof for
//! the best, falling back to the next if it has none (the reference proves
//! ten and ranks by route length; route queries are the costliest thing a
//! bot does, so Quarry proves in rank order and stops at the first). The
//! winner's score uses its full route length and it keeps its proven
//! route, so the goal layer does not route twice.

use glam::Vec3;
use quarry_map::entities::items::KeyKind;
use quarry_sim::items::Gift;
use quarry_sim::weapons::WeaponTable;

use crate::content::{Traits, WeaponBias};
use crate::memory::{Blacklist, GoalKey};
use crate::navigate::{GatePlan, Navigator, Route, Traveller};
use crate::view::{BotClock, ItemSnap, PlayerSnap};

/// How many shortlisted items may be tried with a route per selection
/// (the best by straight-line score first; the first that routes wins).
pub const SHORTLIST: usize = 2;
/// Added to distances so a close item does not score without bound.
const DISTANCE_BIAS: f32 = 192.0;
/// An item due back within this many ms more than the run to it takes is
/// worth heading to already.
const RESPAWN_LOOKAHEAD_MS: f32 = 2000.0;
/// The running speed a timed item's run is judged at, units/s (a
/// straight line at Quake 3's run speed: the real route is longer, so the
/// bot arrives about when the item comes back).
const TIMING_RUN_SPEED: f32 = 320.0;

/// How much more than their face value armor and health are worth to a
/// bot (its "stack": what it can take before it dies). Both are 1 at face
/// value ([`StackWeights::FACE`]); a bot with `bot_tactical` 2 and up,
/// not playing an objective, fights for its stack
/// (`crate::tactics::STACK`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackWeights {
    /// Armor's utility is multiplied by this.
    pub armor: f32,
    /// Health's utility (mega health included) is multiplied by this.
    pub health: f32,
}

impl StackWeights {
    /// Face value: the utilities as they are.
    pub const FACE: Self = Self { armor: 1.0, health: 1.0 };
}

/// Whether the bot wants health: below `retreatHealth` of its maximum.
pub fn wants_health(me: &PlayerSnap, t: &Traits) -> bool {
    (me.health as f32) < t.retreat_health * me.max_health as f32
}

/// Whether the bot's health is critical.
pub fn critical_health(me: &PlayerSnap, t: &Traits) -> bool {
    me.health as f32 <= (t.retreat_health * me.max_health as f32 * 0.65).max(15.0)
}

/// What `gift` is worth to `me` now (0: not wanted), armor and health
/// scaled by `stack`.
pub fn utility(gift: &Gift, me: &PlayerSnap, t: &Traits, table: &WeaponTable, bias: &WeaponBias, stack: StackWeights) -> f32 {
    let max = me.max_health.max(1) as f32;
    let scaled = |cap: i32| cap as f32 * max / 100.0;
    match *gift {
        Gift::Health { amount, cap } => {
            let cap = scaled(cap);
            let hp = me.health as f32;
            if hp >= cap {
                return 0.0;
            }
            let below = if hp < max {
                let gain = (max - hp).min(amount as f32);
                let u = 1.0 + 4.0 * gain / max;
                if wants_health(me, t) { u * 2.2 } else { u }
            } else {
                0.0
            };
            // Items that stack over the maximum (mega, small) are worth what
            // they add, like armor; small ones little, a mega a lot.
            let over = if cap > max && hp < 2.0 * max {
                0.8 + 3.0 * (cap - hp).min(amount as f32) / 100.0
            } else {
                0.0
            };
            below.max(over) * stack.health
        }
        Gift::Armor { amount, cap } => {
            let deficit = scaled(cap) - me.armor as f32;
            if deficit <= 0.0 {
                0.0
            } else {
                // Armor wins fights: a red armor is worth about a missing weapon.
                (1.0 + 5.0 * deficit.min(amount as f32) / 100.0) * stack.armor
            }
        }
        Gift::Weapon { weapon, ammo_cap, .. } => {
            if !me.inventory.has(weapon) {
                // Worth twice as much to a bot holding nothing better than a starting weapon.
                let weak = if strong_weapon_held(me, table) { 1.0 } else { 2.0 };
                5.0 * bias.of(weapon).max(0.1) * weak
            } else {
                ammo_utility(me.inventory.ammo_of(weapon), ammo_cap)
            }
        }
        Gift::Ammo { weapon, cap, .. } => {
            let u = ammo_utility(me.inventory.ammo_of(weapon), cap);
            let known = table.get(weapon).is_some();
            if !me.inventory.has(weapon) || !known {
                u * 0.3
            } else {
                u
            }
        }
        Gift::Powerup { .. } => 6.0,
        // A key opens doors to more of the map; one is enough.
        Gift::Key(k) => {
            if me.inventory.has_key(k) {
                0.0
            } else {
                2.5
            }
        }
    }
}

/// Whether `me` holds, with ammo, a weapon good at some range (a range
/// score of 9 or more: shotgun, lightning, rockets, plasma, railgun).
pub fn strong_weapon_held(me: &PlayerSnap, table: &WeaponTable) -> bool {
    table.iter().any(|d| {
        let p = crate::weapons::profile(d);
        p.close.max(p.far) >= 9.0 && table.can_fire(&me.inventory, d.number)
    })
}

/// Shots of ammo a strong weapon must hold for the bot to count as armed
/// ([`armed`]): the weapon choice's ammo factor is full from five shots.
pub const ARMED_SHOTS: i32 = 5;

/// Whether `me` is armed for a fight: it holds a strong weapon (as
/// [`strong_weapon_held`] counts them) with ammo for at least
/// [`ARMED_SHOTS`] shots. A bot fighting for its stack does so only armed
/// (`crate::tactics::Tactics::stack`).
pub fn armed(me: &PlayerSnap, table: &WeaponTable) -> bool {
    table.iter().any(|d| {
        let p = crate::weapons::profile(d);
        let shots = if d.uses_ammo() { me.inventory.ammo_of(d.number) / d.ammo_use.max(1) } else { ARMED_SHOTS };
        p.close.max(p.far) >= 9.0 && me.inventory.has(d.number) && shots >= ARMED_SHOTS
    })
}

fn ammo_utility(current: i32, cap: i32) -> f32 {
    if cap <= 0 || current >= cap {
        return 0.0;
    }
    0.6 + 2.4 * (1.0 - current.max(0) as f32 / cap as f32)
}

/// An item the bot decided to go for, with its proven route.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemChoice {
    /// Which item.
    pub item: ItemSnap,
    /// Its utility.
    pub utility: f32,
    /// Utility over route length (the ranking score).
    pub score: f32,
    /// The route to it (or to the gate's opening).
    pub route: Route,
    /// Where the goal leads: the item, or the opening of a closed gate
    /// that bars the way to it.
    pub target: Vec3,
    /// The gate to open first, if one bars the way.
    pub gate: Option<GatePlan>,
}

/// Picks the best item for `me`: shortlist by straight distance, then route
/// the best [`SHORTLIST`] for `traveller` (`me` on its way) and rank by
/// utility over route length.
#[expect(clippy::too_many_arguments, reason = "the inputs of one decision")]
pub fn choose_item(
    items: &[ItemSnap],
    me: &PlayerSnap,
    t: &Traits,
    table: &WeaponTable,
    bias: &WeaponBias,
    stack: StackWeights,
    blacklist: &Blacklist,
    nav: &mut dyn Navigator,
    traveller: Traveller,
    clock: &BotClock,
) -> Option<ItemChoice> {
    let radius = t.item_search_radius();
    let mut shortlist: Vec<(f32, f32, &ItemSnap)> = items
        .iter()
        .filter(|i| due(i, me.origin, clock))
        .filter(|i| !blacklist.contains(GoalKey::Item(i.id), clock.tick))
        .filter_map(|i| {
            let d = i.origin.distance(me.origin);
            if d > radius {
                return None;
            }
            let u = utility(&i.gift, me, t, table, bias, stack);
            (u > 0.0).then_some((u / (d + DISTANCE_BIAS), u, i))
        })
        .collect();
    shortlist.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.id.cmp(&b.2.id)));
    // Keys lying about, for a key door in the way.
    let keys: Vec<(KeyKind, Vec3)> = items
        .iter()
        .filter(|i| i.available)
        .filter_map(|i| match i.gift {
            Gift::Key(k) => Some((k, item_standing_point(i, me))),
            _ => None,
        })
        .collect();
    for (_, u, item) in shortlist.into_iter().take(SHORTLIST) {
        if !nav.maybe_reachable(me.origin, item.origin) {
            continue;
        }
        let stand = item_standing_point(item, me);
        let (route, gate, detour) = match nav.route(me.origin, stand, traveller) {
            Some(route) => (route, None, 0.0),
            // A closed gate may bar the way: go and open it.
            None => {
                let Some(plan) = nav.gate_opening(me.origin, stand, traveller, &keys) else { continue };
                let Some(route) = nav.route(me.origin, plan.target, traveller) else { continue };
                (route, Some(plan), plan.target.distance(stand))
            }
        };
        let score = u / (route.cost + detour + DISTANCE_BIAS);
        return Some(ItemChoice {
            item: *item,
            utility: u,
            score,
            route,
            target: gate.map_or(item.origin, |g| g.target),
            gate,
        });
    }
    None
}

/// Whether a bot at `from` may head for `item` now: it is there (as the
/// bot believes), or it is timed to come back by about when the bot can
/// get there ([`RESPAWN_LOOKAHEAD_MS`] more than the run at
/// [`TIMING_RUN_SPEED`]).
pub fn due(item: &ItemSnap, from: Vec3, clock: &BotClock) -> bool {
    if item.available {
        return true;
    }
    let run_ms = item.origin.distance(from) / TIMING_RUN_SPEED * 1000.0;
    item.respawn_at > clock.tick && ms_until(clock, item.respawn_at) < RESPAWN_LOOKAHEAD_MS + run_ms
}

fn ms_until(clock: &BotClock, tick: u32) -> f32 {
    tick.saturating_sub(clock.tick) as f32 * 1000.0 / clock.hz.max(1) as f32
}

/// Where a player stands to take an item: above its centre, at player-origin height.
pub fn item_standing_point(item: &ItemSnap, me: &PlayerSnap) -> Vec3 {
    // Items rest with their box bottom on the floor; a player origin is
    // -mins.z above the floor.
    let o = item.origin;
    Vec3::new(o.x, o.y, o.z - item.half.z - me.mins.z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navigate::StraightNavigator;
    use quarry_sim::components::{Inventory, NetId};
    use quarry_sim::Team;

    fn me(health: i32, armor: i32) -> PlayerSnap {
        let table = WeaponTable::quake3();
        PlayerSnap { health, armor, inventory: table.spawn_inventory(), ..PlayerSnap::standing(0, Team::Free, Vec3::ZERO) }
    }

    fn u(gift: Gift, p: &PlayerSnap) -> f32 {
        utility(
            &gift,
            p,
            &Traits::at_skill(3.0),
            &WeaponTable::quake3(),
            &WeaponBias::default(),
            StackWeights::FACE,
        )
    }

    #[test]
    fn utility_follows_the_inventory() {
        let full = me(100, 0);
        let hurt = me(20, 0);
        let health = Gift::Health { amount: 25, cap: 100 };
        assert_eq!(u(health, &full), 0.0, "no health at full health");
        assert!(
            u(health, &hurt) > 2.0 * u(health, &me(80, 0)),
            "much more when wanting health"
        );
        let mega = Gift::Health { amount: 100, cap: 200 };
        assert!(
            u(mega, &full) > 3.0 && u(mega, &me(210, 0)) == 0.0,
            "a mega is worth its +100 at full health"
        );
        let small = Gift::Health { amount: 5, cap: 200 };
        assert!(u(small, &full) < 1.0 && u(small, &full) > 0.0);
        let red = Gift::Armor { amount: 100, cap: 200 };
        assert!(u(red, &me(100, 0)) > u(red, &me(100, 150)));
        assert_eq!(u(red, &me(100, 200)), 0.0);
        let rail = Gift::Weapon {
            weapon: 7,
            ammo: 10,
            ammo_cap: 200,
        };
        assert!(u(rail, &full) >= 10.0, "a missing weapon, with only the starting ones");
        let mut armed = me(100, 0);
        armed.inventory.weapons |= 1 << 5;
        armed.inventory.ammo[5] = 10;
        assert!((5.0..10.0).contains(&u(rail, &armed)), "less once armed");
        let mg = Gift::Weapon {
            weapon: 2,
            ammo: 40,
            ammo_cap: 200,
        };
        assert!(u(mg, &full) < 5.0, "an owned weapon is worth its ammo only");
        let bullets = Gift::Ammo {
            weapon: 2,
            amount: 50,
            cap: 200,
        };
        let mut stocked = me(100, 0);
        stocked.inventory.ammo[2] = 200;
        assert_eq!(u(bullets, &stocked), 0.0, "no ammo at capacity");
        assert!(
            u(
                Gift::Powerup {
                    kind: quarry_sim::items::PowerupKind::Quad,
                    seconds: 30.0
                },
                &armed
            ) > u(rail, &armed)
        );
        let _ = Inventory::default();
    }

    /// An item `id` lying at `origin`, available.
    fn item_at(id: u32, origin: Vec3, gift: Gift) -> ItemSnap {
        ItemSnap { id: NetId(id), classname: "x", gift, origin, half: Vec3::splat(15.0), available: true, respawn_at: 0, respawn_ticks: 0, first_spawn_ticks: 0, dropped: false }
    }

    #[test]
    fn choice_ranks_by_route_and_respects_the_blacklist() {
        let p = me(40, 0);
        let t = Traits::at_skill(3.0);
        let item = |id, x: f32, gift| item_at(id, Vec3::new(x, 0.0, -9.0), gift);
        let near_small = item(1, 200.0, Gift::Health { amount: 5, cap: 200 });
        let far_big = item(2, 600.0, Gift::Health { amount: 50, cap: 100 });
        let too_far = item(
            3,
            9000.0,
            Gift::Powerup {
                kind: quarry_sim::items::PowerupKind::Quad,
                seconds: 30.0,
            },
        );
        let items = [near_small, far_big, too_far];
        let mut nav = StraightNavigator::default();
        let clock = BotClock { tick: 10, hz: 60 };
        let mut bl = Blacklist::default();
        let table = WeaponTable::quake3();
        let bias = WeaponBias::default();
        let c = choose_item(&items, &p, &t, &table, &bias, StackWeights::FACE, &bl, &mut nav, Traveller::default(), &clock).expect("a choice");
        assert_eq!(c.item.id, NetId(2), "the big health is worth the walk");
        assert!(c.route.goal().is_some());
        bl.add(GoalKey::Item(NetId(2)), 1000, 10);
        let c = choose_item(&items, &p, &t, &table, &bias, StackWeights::FACE, &bl, &mut nav, Traveller::default(), &clock).expect("a choice");
        assert_eq!(c.item.id, NetId(1));
    }

    #[test]
    fn armed_takes_a_strong_weapon_with_five_shots() {
        let table = WeaponTable::quake3();
        let mut p = PlayerSnap { inventory: table.spawn_inventory(), ..PlayerSnap::standing(0, Team::Free, Vec3::ZERO) };
        assert!(!armed(&p, &table), "the spawn loadout is no strong weapon");
        let rl = table.by_name("rocket_launcher").expect("rockets");
        p.inventory.weapons |= 1 << rl.number;
        p.inventory.ammo[usize::from(rl.number)] = ARMED_SHOTS * rl.ammo_use - 1;
        assert!(!armed(&p, &table), "a rocket launcher short of five shots");
        p.inventory.ammo[usize::from(rl.number)] = ARMED_SHOTS * rl.ammo_use;
        assert!(armed(&p, &table));
    }

    #[test]
    fn a_bot_fighting_for_its_stack_takes_the_armor_over_a_weapon() {
        let p = me(100, 0);
        let t = Traits::at_skill(3.0);
        let item = |id, y: f32, gift| item_at(id, Vec3::new(500.0, y, -9.0), gift);
        let rockets = item(1, 10.0, Gift::Weapon { weapon: 5, ammo: 10, ammo_cap: 200 });
        let red = item(2, -10.0, Gift::Armor { amount: 100, cap: 200 });
        let items = [rockets, red];
        let mut nav = StraightNavigator::default();
        let clock = BotClock { tick: 10, hz: 60 };
        let bl = Blacklist::default();
        let table = WeaponTable::quake3();
        let bias = WeaponBias::default();
        let face = choose_item(&items, &p, &t, &table, &bias, StackWeights::FACE, &bl, &mut nav, Traveller::default(), &clock).expect("a choice");
        assert_eq!(face.item.id, NetId(1), "at face value a missing weapon outranks a red armor");
        let stack = crate::tactics::STACK;
        let fighting = choose_item(&items, &p, &t, &table, &bias, stack, &bl, &mut nav, Traveller::default(), &clock).expect("a choice");
        assert_eq!(fighting.item.id, NetId(2), "fighting for its stack, the armor comes first");
        let hurt = me(40, 0);
        let health = Gift::Health { amount: 25, cap: 100 };
        assert!(
            utility(&health, &hurt, &t, &table, &bias, stack) > 1.4 * utility(&health, &hurt, &t, &table, &bias, StackWeights::FACE),
            "health is worth more too"
        );
    }
}
