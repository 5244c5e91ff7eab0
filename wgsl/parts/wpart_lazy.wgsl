// The weight half of a matvec part (wload, wdot: see dot_q4_0.wgsl) for
// the types whose dot_TYPE does not decode a part apart from its dot: the
// part's address, decoded again by dot_part for each token. matmul_tokens
// builds for every type with it; the batches of these types keep the
// matvec (splitsDecode in gpu/webgpu).
struct WPart { rb: u32, blk: u32, part: u32 }
fn wload(rb: u32, blk: u32, part: u32) -> WPart { return WPart(rb, blk, part); }
fn wdot(w: WPart, x: XPart) -> f32 { return dot_part(w.rb, w.blk, w.part, x); }
