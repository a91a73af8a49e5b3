//! The reference node kernel, in plain Rust: one lane at a time.

use super::{NodeHits, NodeKernel, PACKET, PacketKernel, PreparedRay, WIDE, padded};
use crate::bvh::node::WideNode;

/// The scalar kernel; always available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scalar;

// The packet tests' references, as they are.
impl PacketKernel<PACKET> for Scalar {}
impl PacketKernel<WIDE> for Scalar {}

impl NodeKernel for Scalar {
    #[inline(always)]
    fn intersect_as<const FUSED: bool>(self, ray: &PreparedRay, node: &WideNode, t_max: f32) -> NodeHits {
        let mut hits = NodeHits { mask: 0, t_enter: [f32::INFINITY; 8] };
        for lane in 0..8 {
            let mut t_enter = ray.t_min;
            let mut t_exit = t_max;
            for k in 0..3 {
                // t = (plane - o) / d. A ray parallel to the slab (rdir = ±inf) whose origin
                // lies on the plane gives 0 * inf = NaN: f32::max/min drop it, which is right
                // for a closed slab (the ray is inside it for every t).
                // (The reciprocals are scaled so that no padding is needed: `RDIR_SCALE`.)
                // (`o_near` and `o_far` are the origin but on a line's overflowed axis: `reach`.)
                let t_near = (node.planes[ray.near[k]][lane] - ray.o_near[k]) * ray.r_near[k];
                let t_far = (node.planes[ray.far[k]][lane] - ray.o_far[k]) * ray.r_far[k];
                t_enter = t_enter.max(t_near);
                t_exit = t_exit.min(t_far);
            }
            let verdict =
                if ray.scaled() { (t_enter <= t_exit).then_some(t_enter) } else { padded(t_enter, t_exit) };
            if let Some(t_enter) = verdict {
                hits.mask |= 1 << lane;
                hits.t_enter[lane] = t_enter;
            }
        }
        hits
    }
}
