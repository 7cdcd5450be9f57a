//! Mesh levels through the C ABI: `ps_level_load_file` reads an OBJ by its extension as the
//! library's mesh compile does, `ps_level_load_file_with_mesh` reads one drawn Y up in
//! metres as the same level, and refuses an unknown axis or a bad scale.

use std::ffi::{CStr, CString};
use std::path::Path;
use std::ptr::null;

use planeshift_c::PsLevel;
use planeshift_c::ffi::PsVec3;
use planeshift_c::level::*;
use planeshift_c::status::{PsStatus, ps_last_error};
use planeshift_c::{PS_CONTENTS_SOLID, PS_CONTENTS_WATER};
use planeshift_testkit::obj_text::obj_y_up_scaled;
use planeshift_testkit::real_maps::repo_root;

fn c(path: &Path) -> CString {
    CString::new(path.to_str().expect("UTF-8 path")).expect("no NUL")
}

fn message() -> String {
    // SAFETY: ps_last_error gives a NUL-terminated string valid until the next failure.
    unsafe { CStr::from_ptr(ps_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Loads `path` with `mesh` (null: none given); the status and the level.
fn load(path: &Path, mesh: Option<&PsMeshOptions>) -> (PsStatus, PsLevel) {
    let path = c(path);
    let mut level = PsLevel::default();
    let mesh = mesh.map_or(null(), |m| m as *const PsMeshOptions);
    // SAFETY: a NUL-terminated path, null or valid options, a writable handle.
    let status = unsafe { ps_level_load_file_with_mesh(path.as_ptr(), null(), mesh, &mut level) };
    (status, level)
}

/// The contents at each of `points` (map units).
fn contents(level: PsLevel, points: &[[f32; 3]]) -> Vec<u32> {
    points
        .iter()
        .map(|&[x, y, z]| {
            let mut out = u32::MAX;
            // SAFETY: a writable out.
            let status = unsafe { ps_level_point_contents(level, PsVec3 { x, y, z }, &mut out) };
            assert_eq!(status, PsStatus::Ok, "{}", message());
            out
        })
        .collect()
}

/// In the bundled mesh room (`maps/README.md`): the air above the floor, the floor's solid,
/// the pool's water, the air above the stairs' top and the solid under it.
const PROBES: [[f32; 3]; 5] = [
    [900.0, 256.0, 100.0],
    [900.0, 256.0, -16.0],
    [700.0, 256.0, -32.0],
    [448.0, 256.0, 100.0],
    [448.0, 256.0, 32.0],
];

#[test]
fn a_mesh_level_loads_by_its_extension_and_with_its_axis_and_scale() {
    let room = repo_root().join("maps/mesh_room.obj");
    let (status, level) = load(&room, None);
    assert_eq!(status, PsStatus::Ok, "{}", message());
    // The same through the plain entry point.
    let mut plain = PsLevel::default();
    // SAFETY: as in `load`.
    let status = unsafe { ps_level_load_file(c(&room).as_ptr(), null(), &mut plain) };
    assert_eq!(status, PsStatus::Ok, "{}", message());
    let expected = contents(level, &PROBES);
    assert_eq!(
        expected,
        [
            0,
            PS_CONTENTS_SOLID,
            PS_CONTENTS_WATER,
            0,
            PS_CONTENTS_SOLID
        ],
        "the room's own contents"
    );
    assert_eq!(contents(plain, &PROBES), expected);

    // The room written Y up in metres of 32 units: map (x, y, z) is file (x, z, −y) / 32.
    let text = std::fs::read_to_string(&room).expect("the mesh room");
    let y_up = obj_y_up_scaled(&text, 32.0);
    let dir = std::env::temp_dir().join(format!("planeshift-c-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mesh_room_y_up.obj");
    std::fs::write(&file, y_up).expect("write");
    let metres = PsMeshOptions {
        up: PS_MESH_UP_Y,
        scale: 32.0,
    };
    let (status, read_right) = load(&file, Some(&metres));
    assert_eq!(status, PsStatus::Ok, "{}", message());
    assert_eq!(contents(read_right, &PROBES), expected);
    let (status, read_plain) = load(&file, None);
    assert_eq!(status, PsStatus::Ok, "{}", message());
    assert_ne!(
        contents(read_plain, &PROBES),
        expected,
        "the options changed nothing"
    );

    // Bad options are refused with a message; a `.map` ignores good ones.
    for bad in [
        PsMeshOptions { up: 7, scale: 1.0 },
        PsMeshOptions {
            up: PS_MESH_UP_Z,
            scale: 0.0,
        },
        PsMeshOptions {
            up: PS_MESH_UP_Z,
            scale: f64::NAN,
        },
    ] {
        let (status, _) = load(&file, Some(&bad));
        assert_eq!(status, PsStatus::InvalidArgument, "{bad:?}");
        assert!(message().contains("mesh."), "{bad:?}: {}", message());
    }
    let (status, _) = load(&repo_root().join("maps/box_room.map"), Some(&metres));
    assert_eq!(status, PsStatus::Ok, "{}", message());
    for level in [level, plain, read_right, read_plain] {
        assert_eq!(ps_level_free(level), PsStatus::Ok);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
