// quantize_act's packed modes (4: Q8_0, 5: Q8_K) for a prompt's rows, a
// run of 32 values a thread (pack_run): quantize_act takes a value a
// thread, so each block's extreme is a workgroup reduction through
// atomics and barriers, which ran a prompt's activations at a tenth of
// the memory's speed. The same scales, integers and sums as
// quantize_act's, bit for bit. Words: quantizeActParams (Groups counts
// workgroups of 256 runs; Block is unused).
//!use common
//!use pack_run
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<u32>;
@group(0) @binding(4) var<storage, read> X2: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y2: array<u32>;

fn load_run(second: bool, row: u32, k0: u32, d1: u32) -> Run {
    var r: Run;
    for (var j = 0u; j < 32u; j++) {
        if (second) {
            r.v[j] = X2[at(P_SECOND_IN, k0 + j, row % d1, row / d1, 0u)];
        } else {
            r.v[j] = X[at(P_FIRST_IN, k0 + j, row % d1, row / d1, 0u)];
        }
    }
    return r;
}

fn put(second: bool, at: u32, bits: u32) {
    if (second) { Y2[at] = bits; } else { Y[at] = bits; }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let second = g >= pu(P_GROUPS);
    let K = pu(select(P_FIRST_K, P_SECOND_K, second));
    let rows = pu(select(P_FIRST_ROWS, P_SECOND_ROWS, second));
    let d1 = pu(select(P_FIRST_D1, P_SECOND_D1, second));
    let mode = pu(P_MODE);
    let runs = K / 32u;
    let u = (g - select(0u, pu(P_GROUPS), second)) * 256u + li;
    let live = u < runs * rows;
    let row = u / runs;
    let k0 = (u % runs) * 32u;
    var r: Run;
    if (live) { r = load_run(second, row, k0, d1); }
    var e = run_extreme(r);
    // Every thread passes the barrier of mode 5's super-blocks (256-value
    // blocks never straddle workgroups).
    put_extreme(li, e);
    workgroupBarrier();
    if (!live) { return; }
    let run = k0 / 32u;
    let o = row * K;
    var b = e;
    if (mode != 4u) { b = super_extreme(li); }
    let p = pack_run(r, b, mode);
    for (var w = 0u; w < 8u; w++) { put(second, o + 8u * run + w, p.words[w]); }
    let hw = head_words(p, K, run, mode);
    for (var i = 0u; i < 3u; i++) {
        if (hw[i].x != NO_WORD) { put(second, o + hw[i].x, hw[i].y); }
    }
}
