// i8: the file's layout, 8-bit activations and dot4I8Packed, half a block a thread.
@group(0) @binding(1) var<storage, read> W: array<u32>;
@group(0) @binding(5) var<storage, read> XQ: array<u32>;
@group(0) @binding(6) var<storage, read> XS: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn h16(o: u32) -> f32 { return half_in(W[o >> 2u], o); }
fn accumulate(n0: u32, li: u32) {
    let units = P.nb * 2u;
    for (var u = li; u < units; u += WG) {
        let blk = u / 2u;
        let part = u % 2u;
        let xb = blk * 8u + 2u * part;
        let x0 = XQ[xb]; let x1 = XQ[xb + 1u]; let x2 = XQ[xb + 4u]; let x3 = XQ[xb + 5u];
        let s = XS[blk];
        let corr = select(0.0, 8.0 * s.y, part == 0u);
        for (var r = 0u; r < ROWS; r++) {
            let o = (n0 + r) * P.rb + blk * 18u;
            let b = o + 2u + 8u * part;
            let c = b >> 2u;
            let w0 = W[c]; let w1 = W[c + 1u]; let w2 = W[c + 2u];
            let q0 = join32(w0, w1, b);
            let q1 = join32(w1, w2, b);
            let i = dot4I8Packed(q0 & M4, x0) + dot4I8Packed(q1 & M4, x1) + dot4I8Packed((q0 >> 4u) & M4, x2) + dot4I8Packed((q1 >> 4u) & M4, x3);
            acc[r] += h16(o) * s.x * (f32(i) - corr);
        }
    }
}
