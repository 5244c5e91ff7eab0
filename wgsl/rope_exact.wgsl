// Rotary position embedding as the CPU backend computes it (Options.Exact):
// cos and sin come from a table the host filled with the CPU's own code
// (glibc's sincosf is float64 arithmetic, which WGSL lacks), [position]
// [pair][cos, sin], already times mscale; each rotated value is the
// CPU's one multiply-add with the other product rounded first. One
// thread per rotated pair, which also copies its share of the head's
// unrotated rest. Words: 0 head dim, 1 heads, 2 tokens, 3 dims, 4 NeoX,
// 5 zero (nofuse), In at 6, Out at 11.
//!use common
//!use step
//!use exact_orders
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read> CS: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

const ZERO_WORD = 5u;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let hd = pu(0u);
    let H = pu(1u);
    let pairs = pu(3u) / 2u;
    let p = i % pairs;
    let h = (i / pairs) % H;
    let t = i / (pairs * H);
    if (t >= pu(2u)) { return; }
    for (var e = 2u * pairs + p; e < hd; e += pairs) {
        O[at(11u, e, h, t, 0u)] = X[at(6u, e, h, t, 0u)];
    }
    var a = 2u * p;
    var b = a + 1u;
    if (pu(4u) != 0u) {
        a = p;
        b = p + pairs;
    }
    let c = (S.pos + t) * 2u * pairs + 2u * p;
    let cs = CS[c];
    let sn = CS[c + 1u];
    let x0 = X[at(6u, a, h, t, 0u)];
    let x1 = X[at(6u, b, h, t, 0u)];
    O[at(11u, a, h, t, 0u)] = fma_exact(x0, cs, -nofuse(x1 * sn));
    O[at(11u, b, h, t, 0u)] = fma_exact(x0, sn, nofuse(x1 * cs));
}
