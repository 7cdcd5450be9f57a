//! The profiles' soak residuals of issue 37, each cause pinned on the spot the full-size
//! soak (64 bots × 20,000 ticks, seed 11, `--scatter`) found it:
//! - dm17ish (Quake 3): bots falling along a double banner (two flat patches at y = 706 and
//!   706.125, facing through each other) rest exactly on the inner patch's back plane, where
//!   the game's sweep stops 1/8 in front of the outer one: touching, not inside
//!   (`planeshift_harness::inside`, `CompiledMap::inside_game_world`).
//! - e2m2 (Quake 3): a bot at water level 2 in the pool under a downward sloped ceiling was
//!   sent its wish without a view, which the profile sees from yaw 0, so every tick it took
//!   the water jump (`PM_CheckWaterJump`) into the ceiling on +x whatever its wish; the soak
//!   now sends a profile bot a player's command looking along its wish
//!   (`planeshift_harness::soak::facing_wish`).
//! - end (QuakeWorld): a bot at water level 2 took the water jump (`CheckWaterJump`) into a
//!   ledge it cannot clear and kept its velocity (50, 5, 310) 30 seconds whatever its wish:
//!   id's `pmove.c` runs the jump's clock only with jump down (`JumpButton`), so a player who
//!   does not press it stays too; the soak's bot now holds jump after a stuck second
//!   (`planeshift_harness::soak::struggling`).
//! - dm6, e2m1, e2m2, lq_e0m3 (QuakeWorld): ticks ending with the origin in solid in clip
//!   hull 1 where the game's own walk leaves its player, which the game's next command
//!   nudges out (`pmove.c NudgePosition`): e2m2's bot 10 at tick 11,928 ran a sweep whose
//!   impact `PM_RecursiveHullCheck` backed off past the segment's start and kept the last
//!   solid point ("backup past 0"); such a tick is `Inside::Nudged`, counted apart.
//! - QuakeWorld characters whose configuration names another box: their body is the box
//!   clip hull 1 was grown by, so a crowd places and meets them as the game's `physents`.
//!
//! Takes the shared levels (skipped, said so, when absent) and `maps/box_room.map`; gives
//! pass or fail.

use glam::Vec3;
use planeshift::build::compile_level;
use planeshift::movement::Movement;
use planeshift::{
    CharacterController, CompileOptions, CompiledMap, ControllerConfig, Crowd, CrowdConfig,
    MoveInput,
};
use planeshift_harness::inside::{Inside, inside};
use planeshift_harness::mix::Mix;
use planeshift_harness::soak::{SoakOptions, facing_wish, soak, struggling};

use crate::support::{read, real_maps_dir, repo_root};

/// `folder/name` of the shared levels, compiled with the folder's shader scripts.
fn shared_level(test: &str, folder: &str, name: &str) -> Option<CompiledMap> {
    let dir = real_maps_dir(test)?.join(folder);
    let Ok(bytes) = std::fs::read(dir.join(name)) else {
        println!("skipped: no {name} under {}", dir.display());
        return None;
    };
    let scripts = dir.join("scripts");
    let options = CompileOptions {
        shader_folders: scripts.is_dir().then_some(scripts).into_iter().collect(),
        ..CompileOptions::default()
    };
    Some(compile_level(&bytes, &options).unwrap().map)
}

/// A point from its coordinates' f32 bits.
fn from_bits(bits: [u32; 3]) -> Vec3 {
    Vec3::from_array(bits.map(f32::from_bits))
}

/// A QuakeWorld profile bot with its origin at `at`.
fn quakeworld_at(at: Vec3) -> CharacterController {
    CharacterController::new(ControllerConfig::quakeworld(), at).unwrap()
}

/// A Quake 3 profile bot with its origin at `at`.
fn quake3_at(at: Vec3) -> CharacterController {
    CharacterController::new(ControllerConfig::quake3(), at).unwrap()
}

#[test]
fn a_quake3_bot_resting_exactly_on_a_banner_facets_back_is_not_inside() {
    let Some(world) = shared_level(
        "a_quake3_bot_resting_exactly",
        "openarena-lostlevels",
        "dm17ish.bsp",
    ) else {
        return;
    };
    // Where the soak's bot 6 fell at tick 866: its box's face at y = 706 exactly, on the
    // back plane of the banner patch at 706 (its front faces +y), the stop 1/8 in front of
    // the patch at 706.125 (facing −y).
    let resting = quake3_at(Vec3::new(-438.744_23, 691.0, -48.524_605));
    assert_eq!(inside(&world, &resting), Inside::Clear);
    // The game's own position test counts that contact as inside.
    assert!(resting.overlaps(&world), "the game's test at the contact");
    // Half a unit into the banner is inside; half a unit off it, clear.
    assert_eq!(
        inside(
            &world,
            &quake3_at(Vec3::new(-438.744_23, 691.5, -48.524_605))
        ),
        Inside::Solid
    );
    assert_eq!(
        inside(
            &world,
            &quake3_at(Vec3::new(-438.744_23, 690.5, -48.524_605))
        ),
        Inside::Clear
    );
}

#[test]
fn a_quake3_bot_in_e2m2s_pool_swims_along_its_wish_under_the_sloped_ceiling() {
    let Some(world) = shared_level("a_quake3_bot_in_e2m2s_pool", "id-quake-1996", "e2m2.bsp")
    else {
        return;
    };
    // Where the soak's bot 55 stood still for 28 seconds: water level 2, a ledge 30 units
    // ahead on +x under a ceiling sloping down toward +x; the wish is away from it.
    let spot = Vec3::new(-231.323_06, -396.217_1, -295.633_36);
    let wish = Vec3::new(-0.941_955_3, 0.335_738_18, 0.0);
    let yaw = wish.y.atan2(wish.x).to_degrees();
    let run = |input: MoveInput| {
        let mut bot = quake3_at(spot);
        for _ in 0..125 {
            bot.step(&world, &input);
        }
        (bot.position() - spot).length()
    };
    let plain = MoveInput {
        wish,
        ..MoveInput::default()
    };
    // Seen from yaw 0 the bot faces the ledge and water-jumps into the ceiling every tick.
    assert!(run(plain) < 1.0, "the wish alone, seen from yaw 0");
    // Looking along its wish, it swims away.
    let moved = run(facing_wish(plain, yaw, Movement::Quake3));
    assert!(moved > 16.0, "moved {moved}");
    // planeshift's own movement already faces its wish: its input is left as it is.
    assert_eq!(facing_wish(plain, yaw, Movement::Planeshift), plain);
}

#[test]
fn a_quakeworld_characters_body_is_its_hull_box_whatever_the_configuration_says() {
    let config = ControllerConfig {
        movement: Movement::QuakeWorld,
        ..ControllerConfig::default()
    };
    let c = CharacterController::new(config, Vec3::ZERO).unwrap();
    let (low, high) = c.shape().bounds();
    assert_eq!(
        (c.shape_center() + low, c.shape_center() + high),
        (Vec3::new(-16.0, -16.0, -24.0), Vec3::new(16.0, 16.0, 32.0))
    );
    // Two of them 31 apart on a floor, each walking away from the other: both move (with a
    // 30-wide body each stood in the other's 32-wide physent and never moved).
    let world = planeshift::compile_map(&read(&repo_root().join("maps/box_room.map")))
        .unwrap()
        .map;
    let mut crowd = Crowd::new(CrowdConfig::default());
    let (a, b) = (Vec3::new(-15.5, 0.0, 24.0), Vec3::new(15.5, 0.0, 24.0));
    crowd.insert(0, CharacterController::new(config, a).unwrap());
    crowd.insert(1, CharacterController::new(config, b).unwrap());
    for _ in 0..125 {
        crowd.step(&world, |id| MoveInput {
            wish: if id == 0 { -Vec3::X } else { Vec3::X },
            ..MoveInput::default()
        });
    }
    let moved = |id: u32, from: Vec3| (crowd.get(id).unwrap().position() - from).length();
    assert!(
        moved(0, a) > 16.0 && moved(1, b) > 16.0,
        "{} {}",
        moved(0, a),
        moved(1, b)
    );
}

#[test]
fn a_quakeworld_bot_wedged_in_its_water_jump_on_end_holds_jump_and_gets_out() {
    let Some(dir) = real_maps_dir("a_quakeworld_bot_wedged") else {
        return;
    };
    let Ok(bytes) = std::fs::read(dir.join("id-quake-1996/end.bsp")) else {
        println!("skipped: no id-quake-1996/end.bsp under {}", dir.display());
        return;
    };
    // The full-size soak's start (seed 11, 64 bots, scattered) for 16 s: its bot 39 is
    // wedged in its water jump from tick ~1,000, at water level 2 with (50, 5, 310) kept
    // whatever its wish. Tapping jump once in 500 ticks it stood there every second it
    // held a wish (4 stuck seconds by tick 2,000, 30 by 20,000); holding jump after the
    // first, its 2 s clock runs out and it swims off: the stuck second, and one more
    // while the clock runs.
    let options = SoakOptions {
        bots: 64,
        ticks: 2_000,
        seed: 11,
        config: ControllerConfig::quakeworld(),
        report: false,
        compile: CompileOptions::default(),
        collide: true,
        threads: None,
        scatter: true,
        mix: Mix::default(),
    };
    let summary = soak(&bytes, &options).unwrap();
    assert_eq!(summary.stuck, 2, "stuck seconds");
    assert_eq!(summary.inside_solid, 0);
    // `struggling` only adds the jump key.
    let plain = MoveInput::default();
    assert_eq!(struggling(plain, false), plain);
    assert!(struggling(plain, true).jump);
}

#[test]
fn a_quakeworld_bot_the_games_walk_leaves_in_solid_is_nudged_not_inside() {
    let Some(world) = shared_level(
        "a_quakeworld_bot_the_games_walk",
        "id-quake-1996",
        "e2m2.bsp",
    ) else {
        return;
    };
    // e2m2's bot 10 before and after tick 11,928 of the full-size soak (seed 11): wading at
    // water level 2 along (50.13, 233.94) near the corner of two hull-1 walls.
    let before = from_bits([0x4496_f861, 0x41f5_f778, 0xc357_ffbd]);
    let after = from_bits([0x4496_ff3e, 0x41ff_20dd, 0xc357_ffbd]);
    let Some(walk) = world.walk_clip_hull(1, before, Vec3::new(1208.1143, 32.62778, -215.99898))
    else {
        panic!("e2m2.bsp keeps clip hull 1");
    };
    // The game's walk: an impact, backed off by tenths past the start, keeps its last point,
    // which the game's point test finds solid.
    assert_eq!(walk.end, after);
    assert!(!walk.all_solid && walk.fraction > 0.0);
    assert_eq!(world.clip_hull_contents(1, before), Some(-1));
    assert_eq!(world.clip_hull_contents(1, after), Some(-2));
    // The game's next command nudges it 1/8 out: named apart (and still inside solid).
    assert_eq!(inside(&world, &quakeworld_at(after)), Inside::Nudged);
    assert_eq!(inside(&world, &quakeworld_at(before)), Inside::Clear);
    // Deep in the wall no nudge frees it: inside.
    let deep = after + Vec3::new(8.0, 8.0, 0.0);
    assert_eq!(world.clip_hull_contents(1, deep), Some(-2));
    assert_eq!(inside(&world, &quakeworld_at(deep)), Inside::Solid);
}

/// void2 keeps no clip hull (a Quake 3 level): QuakeWorld's player is hull 1's box swept
/// through the brushes. The full-size soak's bot 41 (seed 11, `--no-collide`, tick 1,480)
/// fell beside a wall of normal (0.894, 0.447, 0) with its velocity exactly along it, the
/// box 1/32 off the wall: the exact sweep met the wall at fraction 0 in every `PM_FlyMove`
/// bump (the distances of a move along a plane round either way), and it hung in the air
/// for two seconds. A move along the plane it met at its start is swept again from just
/// beyond it (`games/quakeworld/world.rs`, `WALL_LIFT`): it falls, and never into the wall.
#[test]
fn a_quakeworld_bot_falling_along_a_wall_of_a_level_without_a_hull_does_not_hang() {
    let Some(world) =
        lost_level_without_a_hull("a_quakeworld_bot_falling_along_a_wall", "void2.bsp")
    else {
        return;
    };
    let start = Vec3::new(776.60077, -801.13165, -6.8327456);
    falls_clear(
        &world,
        start,
        Vec3::new(202.7436, -405.4872, -1003.60144),
        305.281,
    );
}

/// The OpenArena lost level `name` (as [`shared_level`]), checked to keep no clip hull 1,
/// so QuakeWorld's player is its box swept through the brushes.
fn lost_level_without_a_hull(test: &str, name: &str) -> Option<CompiledMap> {
    let world = shared_level(test, "openarena-lostlevels", name)?;
    assert!(world.walk_clip_hull(1, Vec3::ZERO, Vec3::ZERO).is_none());
    Some(world)
}

/// A QuakeWorld bot at `start` moving at `velocity`, running forward toward `yaw`: four
/// ticks, each ending clear of the brushes, and it falls more than 10 units.
fn falls_clear(world: &CompiledMap, start: Vec3, velocity: Vec3, yaw: f32) {
    let mut bot = quakeworld_at(start);
    let mut state = bot.state().clone();
    state.velocity = velocity;
    assert!(bot.set_state(state));
    let input = MoveInput::from_command(planeshift::MoveCommand {
        yaw,
        forward: 1.0,
        ..planeshift::MoveCommand::default()
    });
    for _ in 0..4 {
        bot.step(world, &input);
        assert_eq!(inside(world, &bot), Inside::Clear, "{}", bot.position());
    }
    let end = bot.position();
    assert!(end.z < start.z - 10.0, "it falls: {start} to {end}");
}

/// am_underworks keeps no clip hull either. The full-size soak's bot 21 (seed 11, tick
/// 6,499), launched by a jump pad, fell along a wall of normal (0.707, 0.707, 0) with its box
/// 0.014 off it, nearer than the stop distance: every move met the wall at fraction 0, and a
/// start lifted by 1/256 was still nearer than 1/32, so it met it again; it hung in the air
/// for three seconds. A start nearer the plane it met than the stop distance is lifted back
/// out to it (`games/quakeworld/world.rs`, `DRIFT_TOLERANCE`): it falls, and never into the
/// wall.
#[test]
fn a_quakeworld_bot_nearer_a_wall_than_the_stop_distance_does_not_hang() {
    let Some(world) = lost_level_without_a_hull(
        "a_quakeworld_bot_nearer_a_wall_than_the_stop_distance",
        "am_underworks.bsp",
    ) else {
        return;
    };
    let start = Vec3::new(-126.95647, 47.985966, -982.8327);
    // Nearer the wall than the stop distance: a sweep toward it stops where it starts.
    let player = planeshift::TraceShape::quake1_player();
    let toward = start - Vec3::new(1.0, 1.0, 0.0);
    let wall = world.trace(&player, start, toward, planeshift::Contents::SOLID);
    assert_eq!(wall.fraction, 0.0, "{wall:?}");
    assert_eq!(inside(&world, &quakeworld_at(start)), Inside::Clear);
    falls_clear(
        &world,
        start,
        Vec3::new(-281.40546, 281.40546, -1509.2034),
        85.63847,
    );
}
