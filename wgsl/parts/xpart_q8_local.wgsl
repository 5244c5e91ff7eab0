// xpart_q8's activations from workgroup memory: a kernel that rounds its
// own input row (rmsnorm_matmul_round) packs it into xl in the layout
// quantize_act's mode 4 gives a row in a buffer at word 0 (block b's
// integers in words 8b .. 8b+7, its scale and integer sum in words
// K/4+2b and the one after), so the matvec's loop and sums are the
// buffer-reading kernel's. XL_MAXK bounds the row.
//!use dot4_i8
const PARTS = 1u;
const XL_MAXK = 2048u;
var<workgroup> xl: array<vec4<u32>, XL_MAXK * 5u / 64u>;
struct XPart { lo: vec4<u32>, hi: vec4<u32>, d: f32, sum: i32 }
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = blk * 2u;
    let s = xl[(pu(P_K) / 4u + 2u * blk) >> 2u];
    let ds = select(s.xy, s.zw, (blk & 1u) != 0u);
    return XPart(xl[i], xl[i + 1u], bitcast<f32>(ds.x), i32(bitcast<f32>(ds.y)));
}

// xl_put writes word w of the packed row.
fn xl_put(w: u32, v: u32) { xl[w >> 2u][w & 3u] = v; }
