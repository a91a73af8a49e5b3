//! Exact references for the segment tests (`segments2d.rs`, `segments3d.rs`): rationals of
//! `i128`s and the ray parameter ranges they are checked over.

use proptest::prelude::*;

/// A rational `num / den`, `den > 0`.
#[derive(Clone, Copy, Debug)]
pub struct Q(pub i128, pub i128);

impl Q {
    pub fn new(num: i128, den: i128) -> Q {
        if den < 0 { Q(-num, -den) } else { Q(num, den) }
    }
    pub fn le(self, o: Q) -> bool {
        self.0 * o.1 <= o.0 * self.1
    }
    pub fn f(self) -> f64 {
        self.0 as f64 / self.1 as f64
    }
}

/// `t` bounds, in the units the test scales them by: `None` for infinite.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// Ranges from `[0, inf)`, `(-inf, inf)`, and bounded or half-bounded ones within `±12`.
pub fn range() -> impl Strategy<Value = Range> {
    prop_oneof![
        Just(Range { lo: Some(0), hi: None }),
        Just(Range { lo: None, hi: None }),
        (-12i64..=12, 0i64..=12).prop_map(|(a, w)| Range { lo: Some(a), hi: Some(a + w) }),
        (-12i64..=12).prop_map(|a| Range { lo: Some(a), hi: None }),
    ]
}
