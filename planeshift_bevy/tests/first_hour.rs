//! A Bevy game's first hour, as a test: the package README's dependency block names the
//! versions the package is built with, and the program a new user writes (load `e1m2.bsp`,
//! a player at the level's start facing its angle, 5 s of view-angle commands, one hitscan
//! from its eye at a second character) takes under 80 lines with the prelude,
//! `Character::at_spawn` and `LevelQuery::fire_from_eye`.

use planeshift_bevy::prelude::*;

// --- the program (counted) ---
/// Runs the first hour's program on a level's bytes; gives what the shot hit and the target.
fn first_hour(name: &str, bytes: &[u8]) -> Result<(Option<Entity>, Entity), String> {
    let mut app = headless_app(&[(name, bytes)], PlaneshiftPlugin::default());
    let level = load_level(&mut app, name)?;
    app.world_mut().spawn(Level(level.clone()));
    let space = *app.world().resource::<MapSpace>();
    let assets = app.world().resource::<Assets<LevelAsset>>();
    let map = assets.get(&level).ok_or("not loaded")?.map.clone();
    let start = map.level_start().ok_or("no start")?;
    let config = ControllerConfig::default();
    let player = app
        .world_mut()
        .spawn(Character::at_spawn(config, &start, &space));
    let player = player.id();
    // A second character 2 m ahead of the start, along its facing.
    let (sin, cos) = start.yaw.to_radians().sin_cos();
    let ahead = start.player_origin + Vec3::new(cos, sin, 0.0) * space.length_to_map(2.0);
    let target = Character {
        config,
        map_origin: Some(ahead),
    };
    let target = app.world_mut().spawn(target).id();
    app.update();
    // 5 s of commands: keep the view on the target (pitch positive looks down) while
    // backing away from it.
    for _ in 0..625 {
        let me = app.world().get::<CharacterStatus>(player).ok_or("status")?;
        let there = app.world().get::<CharacterStatus>(target).ok_or("status")?;
        let to = space.dir_to_map(there.position - me.eye);
        let pitch = (-to.z).atan2(to.truncate().length()).to_degrees();
        let mut input = app
            .world_mut()
            .get_mut::<CharacterInput>(player)
            .ok_or("input")?;
        input.view = [pitch, to.y.atan2(to.x).to_degrees()];
        input.moves = Vec3::new(-1.0, 0.0, 0.0);
        app.update();
    }
    let shot = QueryFilter::new(Contents::MASK_SHOT);
    let fire = move |query: LevelQuery| query.fire_from_eye(player, 100.0, &shot);
    let hit = app
        .world_mut()
        .run_system_once(fire)
        .map_err(|e| e.to_string())?;
    Ok((hit.and_then(|h| h.entity), target))
}
// --- end of the program ---

#[test]
fn the_first_hour_program_is_short_and_hits_the_second_character() {
    let source = include_str!("first_hour.rs");
    let program = source
        .split("// --- the program (counted) ---")
        .nth(1)
        .and_then(|rest| rest.split("// --- end of the program ---").next())
        .expect("the program's markers");
    let lines = program.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(lines < 80, "the first hour's program takes {lines} lines");
    let Some(dir) = planeshift_testkit::real_maps_dir("first_hour") else {
        return;
    };
    let mut ran = 0;
    for level in ["e1m2", "dm4", "e2m1"] {
        let path = dir.join(format!("id-quake-1996/{level}.bsp"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (hit, target) = first_hour(&format!("{level}.bsp"), &bytes).expect(level);
        assert_eq!(
            hit,
            Some(target),
            "{level}: the shot names the second character"
        );
        ran += 1;
    }
    println!("first hour: {lines} lines, run on {ran} shared levels");
}

/// The README's `[dependencies]` block pins this package's version and the Bevy crates'
/// versions it is built with.
#[test]
fn the_readme_dependency_block_names_the_built_versions() {
    let readme = include_str!("../README.md");
    let manifest = include_str!("../Cargo.toml");
    let block = readme
        .split("```toml")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block in the README");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        block.contains(&format!("planeshift_bevy = \"={version}\"")),
        "the README pins planeshift_bevy {version}:\n{block}"
    );
    let mut bevy_crates = 0;
    for line in block.lines().filter(|l| l.starts_with("bevy_")) {
        let (name, pin) = line.split_once(" = ").expect("name = version");
        let built = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name} = ")))
            .unwrap_or_else(|| panic!("{name} is not a dependency of the package"));
        assert!(
            built.contains(&format!("version = {pin}")),
            "{name}: the README says {pin}, the package builds with `{built}`"
        );
        bevy_crates += 1;
    }
    assert!(
        bevy_crates >= 2,
        "the README names the Bevy crates a game pins"
    );
}
