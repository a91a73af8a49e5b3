//! Capsule against segment, 2D and 3D: two segment cores (the second with radius zero),
//! by the kernel of `rounded.rs`.

//! Gated by the pair's `Overlaps` (exact for a capsule of radius zero), so that the
//! contact is `Some` exactly when it says they overlap.

use super::gated_contact;
use crate::{Capsule2, Capsule3, Segment2, Segment3};

gated_contact!(2D: Capsule2, Segment2);
gated_contact!(3D: Capsule3, Segment3);

#[cfg(test)]
mod tests {
    use crate::{Capsule2, Contact, Segment2};
    use glam::Vec2;

    #[test]
    fn segment_dipping_into_the_body() {
        let c = Capsule2::new(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 1.0);
        let s = Segment2::new(Vec2::new(0.5, 0.5), Vec2::new(0.5, 3.0));
        let k = c.contact(&s).unwrap();
        assert_eq!((k.normal, k.depth), (Vec2::Y, 0.5));
        assert_eq!(s.contact(&c).unwrap().normal, Vec2::NEG_Y);
    }
}
