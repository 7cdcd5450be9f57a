//! Spawn points with their facing (`CompiledMap::spawn_points`, `level_start`), on every
//! shared `.bsp` of every game.
//!
//! Two independent checks: the games' own recorded runs (`reference-moves/`) start where
//! the game put its player, so each run's spawn must be a spawn entity's `player_origin`
//! (Quake 3 lifts 9, QuakeWorld 1); and each `.bsp`'s entity lump, read here by a reader of
//! its own (lump 0 of every Quake-family format), gives every spawn's origin and yaw by the
//! engines' rule (keys in file order, the later of `angle` and `angles` wins).

use std::path::Path;

use glam::Vec3;
use planeshift::level::SpawnRole;
use planeshift::{CompileOptions, CompiledMap, build::compile_level};

use crate::support::{files_in, read, real_maps_dir};

/// The classnames the engines spawn players at, and the role each is.
const SPAWN_CLASSES: [&str; 11] = [
    "info_player_start",
    "info_player_start2",
    "info_player_deathmatch",
    "info_player_coop",
    "team_CTF_redplayer",
    "team_CTF_redspawn",
    "team_CTF_blueplayer",
    "team_CTF_bluespawn",
    "info_player_team1",
    "info_player_team2",
    "info_player_teamspawn",
];

/// The entity lump's text: lump 0 of every format (Quake and Half-Life at bytes 4..12,
/// Quake 2 (and Qbism's `QBSP`) and Quake 3 after their magic and version at 8..16).
fn entity_text(bytes: &[u8]) -> String {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let at = if matches!(&bytes[0..4], b"IBSP" | b"VBSP" | b"QBSP") {
        8
    } else {
        4
    };
    let (offset, len) = (word(at), word(at + 4));
    String::from_utf8_lossy(&bytes[offset..offset + len])
        .trim_end_matches('\0')
        .to_string()
}

/// The entities as key/value lists: every quoted string inside braces, in pairs.
fn entities(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => current = Some(Vec::new()),
            '}' => {
                if let Some(strings) = current.take() {
                    out.push(
                        strings
                            .chunks(2)
                            .filter(|p| p.len() == 2)
                            .map(|p| (p[0].clone(), p[1].clone()))
                            .collect(),
                    );
                }
            }
            '"' => {
                let s: String = chars.by_ref().take_while(|&c| c != '"').collect();
                if let Some(strings) = current.as_mut() {
                    strings.push(s);
                }
            }
            _ => {}
        }
    }
    out
}

/// What the game reads of a spawn entity: its origin and yaw.
fn expected_spawns(text: &str) -> Vec<(Vec3, f32)> {
    let number = |s: &str| s.trim().parse::<f32>().unwrap_or(0.0);
    entities(text)
        .iter()
        .filter(|e| {
            e.iter()
                .any(|(k, v)| k == "classname" && SPAWN_CLASSES.contains(&v.as_str()))
        })
        .filter_map(|e| {
            let origin = e.iter().find(|(k, _)| k == "origin")?;
            let xyz: Vec<f32> = origin.1.split_whitespace().map(number).collect();
            let mut yaw = 0.0;
            for (k, v) in e {
                if k == "angle" {
                    yaw = number(v);
                } else if k == "angles" {
                    yaw = v.split_whitespace().nth(1).map_or(0.0, number);
                }
            }
            Some((Vec3::new(xyz[0], xyz[1], xyz[2]), yaw))
        })
        .collect()
}

fn compiled(path: &Path) -> CompiledMap {
    compile_level(&read(path), &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map
}

#[test]
fn every_shared_bsp_gives_each_spawn_its_origin_and_facing() {
    let Some(dir) = real_maps_dir("spawns") else {
        return;
    };
    let levels = files_in(&dir, "bsp");
    assert!(!levels.is_empty(), "no .bsp under {}", dir.display());
    let (mut spawns, mut faced, mut started) = (0, 0, 0);
    for (name, path) in &levels {
        let map = compiled(path);
        let expected = expected_spawns(&entity_text(&read(path)));
        let got: Vec<(Vec3, f32)> = map.spawn_points().map(|s| (s.origin, s.yaw)).collect();
        assert_eq!(got, expected, "{name}");
        spawns += got.len();
        faced += got.iter().filter(|(_, yaw)| *yaw != 0.0).count();
        if let Some(start) = map.level_start() {
            started += 1;
            let first_start = map.spawn_points().find(|s| s.role == SpawnRole::Start);
            if let Some(first) = first_start {
                assert_eq!(start.entity.index(), first.entity.index(), "{name}");
            }
            let lift = start.player_origin - start.origin;
            let game = map.game_name();
            let want = match game {
                "quake3" | "quake2" => 9.0,
                "quake" | "halflife" => 1.0,
                _ => 0.0,
            };
            assert_eq!(lift, Vec3::Z * want, "{name} ({game})");
        } else {
            assert!(expected.is_empty(), "{name}: spawns but no start");
        }
    }
    println!(
        "spawns: {} levels, {spawns} spawn points ({faced} facing other than 0), {started} with a start",
        levels.len()
    );
    assert!(faced > 0, "no spawn faces anywhere: the facing is not read");
}

/// The spawn line of every recorded run (the origin the game gave its player) is a spawn
/// entity's `player_origin` on that run's level.
#[test]
fn the_games_own_runs_start_at_a_spawn_points_player_origin() {
    let Some(dir) = real_maps_dir("spawns") else {
        return;
    };
    let runs = files_in(&dir.join("reference-moves"), "jsonl");
    let mut checked = 0;
    // Each level compiled once (15 runs share a level).
    let mut levels = std::collections::BTreeMap::new();
    for (name, path) in runs.iter().filter(|(n, _)| n.ends_with(".in.jsonl")) {
        let mut parts = name.split('/');
        let (Some(game), Some(level)) = (parts.next(), parts.next()) else {
            continue;
        };
        let folder = match game {
            "quake3" => "openarena-lostlevels",
            "quakeworld" => "id-quake-1996",
            other => panic!("{name}: unknown game folder {other}"),
        };
        let map = levels
            .entry((folder, level))
            .or_insert_with(|| compiled(&dir.join(folder).join(format!("{level}.bsp"))));
        let text = std::fs::read_to_string(path).expect("a run");
        let first: serde_json::Value =
            serde_json::from_str(text.lines().next().expect("a spawn line")).expect("json");
        let spawn: Vec<f32> = first["spawn"]
            .as_array()
            .expect("spawn")
            .iter()
            .map(|v| v.as_f64().expect("number") as f32)
            .collect();
        let spawn = Vec3::new(spawn[0], spawn[1], spawn[2]);
        assert!(
            map.spawn_points().any(|s| s.player_origin == spawn),
            "{name}: the game spawned at {spawn}, no spawn point's player origin"
        );
        checked += 1;
    }
    println!("spawns: {checked} recorded runs start at a spawn point's player origin");
    assert!(checked > 0 || runs.is_empty());
}
