// rpi8blk: weights repacked, 8-bit activations, a whole block a thread.
@group(0) @binding(2) var<storage, read> WQ: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> WD: array<u32>;
@group(0) @binding(5) var<storage, read> XQ: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read> XS: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn accumulate(n0: u32, li: u32) {
    for (var blk = li; blk < P.nb; blk += WG) {
        let xl = XQ[blk * 2u];
        let xh = XQ[blk * 2u + 1u];
        let s = XS[blk];
        for (var r = 0u; r < ROWS; r++) {
            let bi = (n0 + r) * P.nb + blk;
            let q = WQ[bi];
            let d = half_in(WD[bi >> 1u], bi * 2u);
            let lo = (q & vec4<u32>(M4));
            let hi = (q >> vec4<u32>(4u)) & vec4<u32>(M4);
            let i = dot4I8Packed(lo.x, xl.x) + dot4I8Packed(lo.y, xl.y) + dot4I8Packed(lo.z, xl.z) + dot4I8Packed(lo.w, xl.w)
                  + dot4I8Packed(hi.x, xh.x) + dot4I8Packed(hi.y, xh.y) + dot4I8Packed(hi.z, xh.z) + dot4I8Packed(hi.w, xh.w);
            acc[r] += d * s.x * (f32(i) - 8.0 * s.y);
        }
    }
}
