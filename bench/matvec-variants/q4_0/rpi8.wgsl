// rpi8: weights repacked, 8-bit activations, half a block a thread.
@group(0) @binding(2) var<storage, read> WQ: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> WD: array<u32>;
@group(0) @binding(5) var<storage, read> XQ: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read> XS: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> O: array<f32>;
fn accumulate(n0: u32, li: u32) {
    let units = P.nb * 2u;
    for (var u = li; u < units; u += WG) {
        let blk = u / 2u;
        let part = u % 2u;
        let xl = XQ[blk * 4u + part];
        let xh = XQ[blk * 4u + 2u + part];
        let s = XS[blk];
        let corr = select(0.0, 8.0 * s.y, part == 0u);
        for (var r = 0u; r < ROWS; r++) {
            let bi = (n0 + r) * P.nb + blk;
            let q = WQ[bi * 2u + part];
            let d = half_in(WD[bi >> 1u], bi * 2u);
            let i = dot4I8Packed(q.x & M4, xl.x) + dot4I8Packed(q.y & M4, xl.y) + dot4I8Packed((q.x >> 4u) & M4, xh.x) + dot4I8Packed((q.y >> 4u) & M4, xh.y);
            acc[r] += d * s.x * (f32(i) - corr);
        }
    }
}
