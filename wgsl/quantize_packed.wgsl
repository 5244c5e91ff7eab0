// quantize_act's packed modes (4: Q8_0, 5: Q8_K; round_block.wgsl says
// the layout), a run of 32 values a thread: quantize_act takes a value a
// thread, so each block's extreme is a workgroup reduction through
// atomics and barriers, which ran a prompt's activations at a tenth of
// the memory's speed. Here a thread finds its run's largest magnitude
// alone, and in mode 5 the eight runs of a 256-value super-block meet
// once in workgroup memory. The same scales, integers and sums as
// quantize_act's, bit for bit. Words: quantizeActParams (Groups counts
// workgroups of 256 runs; Block is unused).
//!use common
//!use round_q8
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<u32>;
@group(0) @binding(4) var<storage, read> X2: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y2: array<u32>;

// Each run's largest magnitude and the first value of that magnitude
// (mode 5's scale takes its sign).
var<workgroup> run_max: array<f32, 256>;
var<workgroup> run_first: array<f32, 256>;

// Run is one thread's 32 values.
struct Run { v: array<f32, 32> }

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
    // The run's largest magnitude, and its first value of it: magnitudes
    // compare as the CPU's fabsf values do.
    var m = 0.0;
    var first = 0.0;
    for (var j = 0u; j < 32u; j++) {
        let a = abs(r.v[j]);
        if (a > m) {
            m = a;
            first = r.v[j];
        }
    }
    // Mode 5's super-block is eight runs, threads li & ~7 .. +7 (256-value
    // blocks never straddle workgroups); every thread passes the barrier.
    run_max[li] = m;
    run_first[li] = first;
    workgroupBarrier();
    if (!live) { return; }
    let o = row * K;
    if (mode == 4u) {
        let s = q8_scales(m, first, 0u);
        var sum = 0;
        for (var w = 0u; w < 8u; w++) {
            let a = q8_int(r.v[4u * w], s);
            let b = q8_int(r.v[4u * w + 1u], s);
            let c = q8_int(r.v[4u * w + 2u], s);
            let d = q8_int(r.v[4u * w + 3u], s);
            sum += a + b + c + d;
            put(second, o + k0 / 4u + w, pack_q8(a, b, c, d));
        }
        let head = o + K / 4u + 2u * (k0 / 32u);
        put(second, head, bitcast<u32>(s.x));
        put(second, head + 1u, bitcast<u32>(f32(sum)));
        return;
    }
    let b0 = li & ~7u;
    var bm = 0.0;
    var bv = 0.0;
    for (var j = 0u; j < 8u; j++) {
        if (run_max[b0 + j] > bm) {
            bm = run_max[b0 + j];
            bv = run_first[b0 + j];
        }
    }
    let s = q8_scales(bm, bv, 1u);
    var sums = vec2<i32>(0);
    for (var w = 0u; w < 8u; w++) {
        let a = q8k_int(r.v[4u * w], s);
        let b = q8k_int(r.v[4u * w + 1u], s);
        let c = q8k_int(r.v[4u * w + 2u], s);
        let d = q8k_int(r.v[4u * w + 3u], s);
        if (w < 4u) { sums.x += a + b + c + d; } else { sums.y += a + b + c + d; }
        put(second, o + k0 / 4u + w, pack_q8(a, b, c, d));
    }
    let head = o + K / 4u + 20u * (k0 / 256u);
    let run = (k0 % 256u) / 16u;
    put(second, head + 4u + run, bitcast<u32>(sums.x));
    put(second, head + 5u + run, bitcast<u32>(sums.y));
    if (k0 % 256u == 0u) { put(second, head, bitcast<u32>(s.x)); }
}
