// Temporary probe (not committed).
use glam::Vec3;
use planeshift::build::import_bsp;
use planeshift::movement::{ShapeQuery, Tracer};
use planeshift::{CompileOptions, Contents, QUAKE3_STOP_DISTANCE, TraceShape};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let out = import_bsp(&bytes, &CompileOptions::default()).unwrap();
    let world = &out.map;
    let p = Vec3::new(
        args[2].parse().unwrap(),
        args[3].parse().unwrap(),
        args[4].parse().unwrap(),
    );
    let shape =
        TraceShape::aabb(Vec3::new(-15.0, -15.0, -28.0), Vec3::new(15.0, 15.0, 28.0)).unwrap();
    let c = p + Vec3::new(0.0, 0.0, 4.0);
    for stop in [planeshift::STOP_DISTANCE, QUAKE3_STOP_DISTANCE] {
        let q = ShapeQuery::new(&shape)
            .with_mask(Contents::MASK_PLAYER_SOLID)
            .with_stop_distance(stop);
        println!("stop {stop}: overlaps {}", Tracer::overlaps(world, &q, c));
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            let d = Vec3::new(a.cos(), a.sin(), 0.0) * 16.0;
            let t = Tracer::trace(world, &q, c, c + d);
            println!(
                "  dir {k}: fraction {} start_solid {} all_solid {} normal {:?}",
                t.fraction, t.start_solid, t.all_solid, t.normal
            );
        }
        let t = Tracer::trace(world, &q, c, c - Vec3::Z * 0.25);
        println!(
            "  down: fraction {} start_solid {} all_solid {} normal {:?}",
            t.fraction, t.start_solid, t.all_solid, t.normal
        );
    }
}
