//! A small, seeded PCG32 generator (O'Neill 2014, the XSH-RR output), and random
//! shapes built from it.
//!
//! Written here rather than taken from `rand` so that the inputs can never change
//! under a dependency update: the benchmarks' inputs are part of their meaning.

use glam::{Quat, Vec2, Vec3};

/// PCG32: a 64-bit linear congruential state, 32-bit permuted output.
#[derive(Clone, Debug)]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    /// Knuth's MMIX multiplier, as in the reference PCG.
    const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

    /// A generator for `seed`; distinct seeds give independent-looking streams.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        // The increment must be odd; deriving it from the seed separates the streams.
        let mut rng = Self { state: 0, inc: (seed << 1) | 1 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed ^ 0x853c_49e6_748f_ea9b);
        rng.next_u32();
        rng
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(Self::MULTIPLIER).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// Uniform in `[0, 1)`, on the 2^-24 grid (every value exact in `f32`).
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in the square `[-1, 1)^2`.
    pub fn signed2(&mut self) -> Vec2 {
        Vec2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0))
    }

    /// Uniform in the cube `[-1, 1)^3`.
    pub fn signed3(&mut self) -> Vec3 {
        Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0))
    }

    /// Uniform in the unit disc (rejection from the square).
    pub fn in_disc(&mut self) -> Vec2 {
        loop {
            let v = self.signed2();
            if v.length_squared() <= 1.0 {
                return v;
            }
        }
    }

    /// Uniform in the unit ball (rejection from the cube).
    pub fn in_ball(&mut self) -> Vec3 {
        loop {
            let v = self.signed3();
            if v.length_squared() <= 1.0 {
                return v;
            }
        }
    }

    /// A uniformly random unit vector in 2D.
    pub fn unit2(&mut self) -> Vec2 {
        loop {
            let v = self.in_disc();
            if v.length_squared() > 1e-4 {
                return v.normalize();
            }
        }
    }

    /// A uniformly random unit vector in 3D.
    pub fn unit3(&mut self) -> Vec3 {
        loop {
            let v = self.in_ball();
            if v.length_squared() > 1e-4 {
                return v.normalize();
            }
        }
    }

    /// A uniformly random rotation (a normalised point of the 4-ball).
    pub fn rotation(&mut self) -> Quat {
        loop {
            let q = glam::Vec4::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.unit(),
            );
            let l2 = q.length_squared();
            if (1e-4..=1.0).contains(&l2) {
                return Quat::from_vec4(q / l2.sqrt());
            }
        }
    }

    /// An angle in `[-pi, pi)`.
    pub fn angle(&mut self) -> f32 {
        self.range(-std::f32::consts::PI, std::f32::consts::PI)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u32> = (0..8)
            .map({
                let mut r = Pcg32::new(7);
                move |_| r.next_u32()
            })
            .collect();
        let mut r = Pcg32::new(7);
        assert!(a.iter().all(|&x| x == r.next_u32()));
        let mut other = Pcg32::new(8);
        assert_ne!(a[0..4], [other.next_u32(), other.next_u32(), other.next_u32(), other.next_u32()]);
    }

    #[test]
    fn unit_is_in_range_and_spread() {
        let mut r = Pcg32::new(1);
        let xs: Vec<f32> = (0..10_000).map(|_| r.unit()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
    }
}
