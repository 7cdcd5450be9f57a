//! planeshift's shared test support, for the packages whose tests and benches need it.
//!
//! Takes nothing but the environment (`$PLANESHIFT_REAL_MAPS`) and the repository's files;
//! gives where the real and bundled maps are ([`mod@real_maps`], always) and, with the `oracle`
//! feature, the exact sweep oracle on parry3d-f64 ([`oracle`]); `.glb` files written by
//! tests ([`glb`]); OBJ text turned Y up and scaled ([`obj_text`]); a Quake 1 family `.bsp`'s drawn faces as OBJ or glTF ([`drawn_faces`]); with the `c_header` feature, a crate's C header as cbindgen generates it
//! (`c_header`). Guarantees: a missing real
//! maps folder is a printed skip and an empty list, never a panic.

#[cfg(feature = "c_header")]
pub mod c_header;
pub mod drawn_faces;
pub mod glb;
pub mod obj_text;
#[cfg(feature = "oracle")]
pub mod oracle;
pub mod real_maps;

pub use real_maps::{bundled_maps, files_in, maps_in, real_maps, real_maps_dir, repo_root};
