// nofuse returns x in a way no compiler can see through, so a product
// that the CPU rounds before an add is not fused into a multiply-add
// (Vulkan drivers may contract a*b+c; NVIDIA's does). The kernel's words
// have P_ZERO, a word that holds 0.
fn nofuse(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ pu(P_ZERO)); }
