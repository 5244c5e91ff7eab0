// i8blk: the file's layout, 8-bit activations, a whole block a thread (the product's kernel since the integer dots).
@group(0) @binding(1) var<storage, read> W: array<u32>;
@group(0) @binding(5) var<storage, read> XQ: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read> XS: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn accumulate(n0: u32, li: u32) {
    for (var blk = li; blk < P.nb; blk += WG) {
        let xl = XQ[blk * 2u];
        let xh = XQ[blk * 2u + 1u];
        let s = XS[blk];
        for (var r = 0u; r < ROWS; r++) {
            let o = (n0 + r) * P.rb + blk * 18u;
            let d = half_in(W[o >> 2u], o);
            let b = o + 2u;
            let c = b >> 2u;
            let w0 = W[c]; let w1 = W[c + 1u]; let w2 = W[c + 2u]; let w3 = W[c + 3u]; let w4 = W[c + 4u];
            let q = vec4<u32>(join32(w0, w1, b), join32(w1, w2, b), join32(w2, w3, b), join32(w3, w4, b));
            let lo = q & vec4<u32>(M4);
            let hi = (q >> vec4<u32>(4u)) & vec4<u32>(M4);
            let i = dot4I8Packed(lo.x, xl.x) + dot4I8Packed(lo.y, xl.y) + dot4I8Packed(lo.z, xl.z) + dot4I8Packed(lo.w, xl.w)
                  + dot4I8Packed(hi.x, xh.x) + dot4I8Packed(hi.y, xh.y) + dot4I8Packed(hi.z, xh.z) + dot4I8Packed(hi.w, xh.w);
            acc[r] += d * s.x * (f32(i) - 8.0 * s.y);
        }
    }
}
