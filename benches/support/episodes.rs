//! Timing a crowd through a recorded episode, for the benches that compare two ways of
//! ticking the same characters (`controller`: planeshift against Rapier; `profiles`:
//! planeshift's own movement against a game's).
//!
//! Takes a warmed crowd (anything [`Ticked`]) and the episode's inputs; gives criterion its
//! timed iterations, starting the episode over from the warmed crowd at its end, and the ns
//! per character tick over the last samples criterion measured.

use std::time::{Duration, Instant};

use planeshift::MoveInput;

/// A crowd advanced one tick at a time, `inputs[i]` driving character `i`.
pub trait Ticked: Clone {
    fn tick(&mut self, inputs: &[MoveInput]);
}

/// Times `iters` ticks of `episode` from `now` (the crowd and the next tick), starting over
/// from `warm` at the episode's end; records criterion's call as (iterations, time).
pub fn replay<C: Ticked>(
    warm: &C,
    episode: &[Vec<MoveInput>],
    iters: u64,
    now: &mut (C, usize),
    record: &mut Vec<(u64, Duration)>,
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    while left > 0 {
        if now.1 == episode.len() {
            *now = (warm.clone(), 0);
        }
        let n = left.min((episode.len() - now.1) as u64);
        let t = Instant::now();
        for _ in 0..n {
            now.0.tick(&episode[now.1]);
            now.1 += 1;
        }
        total += t.elapsed();
        left -= n;
    }
    record.push((iters, total));
    total
}

/// ns per character tick over criterion's last `samples` calls in `record`, for a crowd of
/// `characters`.
pub fn per_character_tick(
    record: &[(u64, Duration)],
    samples: usize,
    characters: usize,
) -> Option<f64> {
    let measured = &record[record.len().saturating_sub(samples)..];
    let iters: u64 = measured.iter().map(|r| r.0).sum();
    let time: Duration = measured.iter().map(|r| r.1).sum();
    (iters > 0).then(|| time.as_nanos() as f64 / iters as f64 / characters as f64)
}
