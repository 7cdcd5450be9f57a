//! Masks and collision groups in movement: a monster stops at monster clip that a player
//! passes (and the reverse at player clip) on `maps/clip_corridor.map`; team mates pass
//! through each other while the other team blocks; a spectator meets no one; a corpse
//! blocks no one.

use glam::Vec3;
use planeshift::Contents;
use planeshift::query::CollisionGroups;
use planeshift::{ControllerConfig, movement::MoveMode};
use planeshift::{Crowd, CrowdConfig};

use super::*;

/// A config moving with `mask` in `groups`.
fn config(mask: Contents, groups: CollisionGroups) -> ControllerConfig {
    ControllerConfig {
        mask,
        groups,
        ..ControllerConfig::default()
    }
}

/// Where a character of `mask` starting at x = 0 ends after running 1.5 s along `direction`.
fn run_through_corridor(mask: Contents, direction: Vec3) -> f32 {
    let map = world("clip_corridor");
    let mut c = standing(config(mask, CollisionGroups::ALL), Vec3::ZERO);
    for _ in 0..190 {
        c.step(map, &run(direction));
    }
    feet(&c).x
}

#[test]
fn a_monster_stops_at_monster_clip_that_a_player_passes() {
    // Monster clip spans x 128..144, player clip x -144..-128; the box is 15 wide.
    let stop = 128.0 - 15.0 - SURFACE_CLIP_EPSILON;
    let player = run_through_corridor(Contents::MASK_PLAYER_SOLID, Vec3::X);
    let monster = run_through_corridor(Contents::MASK_MONSTER_SOLID, Vec3::X);
    assert!(
        player > 300.0,
        "the player runs through monster clip: {player}"
    );
    assert!(
        (monster - stop).abs() < 1e-3,
        "the monster stops at it: {monster}"
    );
    let player_back = run_through_corridor(Contents::MASK_PLAYER_SOLID, -Vec3::X);
    let monster_back = run_through_corridor(Contents::MASK_MONSTER_SOLID, -Vec3::X);
    assert!(
        (player_back + stop).abs() < 1e-3,
        "player clip stops the player: {player_back}"
    );
    assert!(
        monster_back < -300.0,
        "the monster passes player clip: {monster_back}"
    );
    // A bot stops at neither kind of clip but player clip.
    let bot = run_through_corridor(Contents::MASK_BOT_SOLID, Vec3::X);
    assert!(bot > 300.0, "{bot}");
}

#[test]
fn a_mask_without_solid_is_refused() {
    let bad = config(Contents::PLAYERCLIP, CollisionGroups::ALL);
    assert!(bad.validate().is_err());
    assert!(
        config(Contents::MASK_MONSTER_SOLID, CollisionGroups::NONE)
            .validate()
            .is_ok()
    );
}

/// Two characters 100 apart on a floor running at each other for 1 s: their x gap at the
/// end (negative: they passed through each other).
fn head_on(a: ControllerConfig, b: ControllerConfig, dead_b: bool) -> f32 {
    let floor = boxes(&[([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0])]);
    let mut crowd = Crowd::new(CrowdConfig::default());
    crowd.insert(1, standing(a, Vec3::new(-50.0, 0.0, 0.0)));
    crowd.insert(2, standing(b, Vec3::new(50.0, 0.0, 0.0)));
    if dead_b {
        crowd.update(2, |c| c.set_mode(MoveMode::Dead));
    }
    for tick in 0..125 {
        crowd.step(&floor, |id| run(if id == 1 { Vec3::X } else { -Vec3::X }));
        if !dead_b && a.groups.interacts(b.groups) {
            assert_eq!(crowd.overlapping_pairs(), 0, "tick {tick}");
        }
    }
    crowd.get(2).map_or(0.0, |c| c.position().x) - crowd.get(1).map_or(0.0, |c| c.position().x)
}

#[test]
fn team_mates_pass_through_each_other_and_the_other_team_blocks() {
    let player = Contents::MASK_PLAYER_SOLID;
    let red = config(player, CollisionGroups::team(0));
    let blue = config(player, CollisionGroups::team(1));
    let everyone = config(player, CollisionGroups::ALL);
    let spectator = config(player, CollisionGroups::NONE);
    assert!(head_on(red, red, false) < -100.0, "red passes red");
    assert!(head_on(blue, blue, false) < -100.0, "blue passes blue");
    let blocked = head_on(red, blue, false);
    assert!(
        blocked > 29.0 && blocked < 31.0,
        "red and blue block: gap {blocked}"
    );
    let blocked = head_on(red, everyone, false);
    assert!(
        blocked > 29.0 && blocked < 31.0,
        "a team blocks the rest: gap {blocked}"
    );
    assert!(
        head_on(spectator, everyone, false) < -100.0,
        "a spectator meets no one"
    );
    assert!(
        head_on(everyone, spectator, false) < -100.0,
        "no one meets a spectator"
    );
    // A monster meets players (bodies are in its mask); a corpse blocks no one.
    let monster = config(Contents::MASK_MONSTER_SOLID, CollisionGroups::ALL);
    let blocked = head_on(monster, everyone, false);
    assert!(
        blocked > 29.0 && blocked < 31.0,
        "monster and player block: {blocked}"
    );
}

#[test]
fn a_corpse_blocks_no_one_and_is_a_corpse_in_the_bodies() {
    let everyone = ControllerConfig::default();
    let floor = boxes(&[([-1024.0, -1024.0, -16.0], [1024.0, 1024.0, 0.0])]);
    let mut crowd = Crowd::new(CrowdConfig::default());
    crowd.insert(1, standing(everyone, Vec3::new(-50.0, 0.0, 0.0)));
    crowd.insert(2, standing(everyone, Vec3::new(50.0, 0.0, 0.0)));
    crowd.update(2, |c| c.set_mode(MoveMode::Dead));
    assert_eq!(
        crowd.bodies().filter_of(2).map(|f| f.0),
        Some(Contents::CORPSE)
    );
    assert_eq!(
        crowd.bodies().filter_of(1).map(|f| f.0),
        Some(Contents::BODY)
    );
    for _ in 0..125 {
        crowd.step(&floor, |_| run(Vec3::X));
    }
    let a = crowd.get(1).map_or(0.0, |c| c.position().x);
    assert!(a > 150.0, "the living runs through the corpse: {a}");
}
