// The packed roundings (quantize_act's modes 4 and 5, round_block.wgsl
// says the layout) a run of 32 values a thread, for the kernels that
// take a prompt's rows (quantize_packed, rmsnorm_packed): a thread finds
// its run's extreme alone, and in mode 5 the eight runs of a 256-value
// super-block, eight neighbouring threads, meet once in workgroup memory
// (put_extreme, a barrier, super_extreme). The same scales, integers and
// sums as round_store's, bit for bit.
//!use round_q8

// Run is one thread's 32 values.
struct Run { v: array<f32, 32> }

// Each thread's run extreme: its largest magnitude and the first value of
// that magnitude (mode 5's scale takes its sign). Magnitudes compare as
// the CPU's fabsf values do.
var<workgroup> run_max: array<f32, 256>;
var<workgroup> run_first: array<f32, 256>;

fn run_extreme(r: Run) -> vec2<f32> {
    var e = vec2<f32>(0.0);
    for (var j = 0u; j < 32u; j++) {
        let a = abs(r.v[j]);
        if (a > e.x) { e = vec2<f32>(a, r.v[j]); }
    }
    return e;
}

fn put_extreme(li: u32, e: vec2<f32>) {
    run_max[li] = e.x;
    run_first[li] = e.y;
}

// super_extreme is the extreme of thread li's super-block (threads li & ~7
// .. +7), after put_extreme and a barrier.
fn super_extreme(li: u32) -> vec2<f32> {
    let b0 = li & ~7u;
    var e = vec2<f32>(0.0);
    for (var j = 0u; j < 8u; j++) {
        if (run_max[b0 + j] > e.x) { e = vec2<f32>(run_max[b0 + j], run_first[b0 + j]); }
    }
    return e;
}

// PackedRun is a run's eight words of integers, its integer sums (mode
// 4's whole run in x, mode 5's two runs of 16 in x and y) and its block's
// scale as the head word holds it.
struct PackedRun { words: array<u32, 8>, sums: vec2<i32>, scale: f32 }

// pack_run rounds run r with its block's extreme e in mode 4 (the run's
// own) or 5 (its super-block's).
fn pack_run(r: Run, e: vec2<f32>, mode: u32) -> PackedRun {
    let s = q8_scales(e.x, e.y, select(1u, 0u, mode == 4u));
    var p: PackedRun;
    p.scale = s.x;
    for (var w = 0u; w < 8u; w++) {
        var q: vec4<i32>;
        if (mode == 4u) {
            q = vec4<i32>(q8_int(r.v[4u * w], s), q8_int(r.v[4u * w + 1u], s), q8_int(r.v[4u * w + 2u], s), q8_int(r.v[4u * w + 3u], s));
        } else {
            q = vec4<i32>(q8k_int(r.v[4u * w], s), q8k_int(r.v[4u * w + 1u], s), q8k_int(r.v[4u * w + 2u], s), q8k_int(r.v[4u * w + 3u], s));
        }
        let t = q.x + q.y + q.z + q.w;
        if (mode == 4u || w < 4u) { p.sums.x += t; } else { p.sums.y += t; }
        p.words[w] = pack_q8(q.x, q.y, q.z, q.w);
    }
    return p;
}

// head_words are the head words of packed run `run` of a row of K, as
// (word of the row, bits), NO_WORD where there is none: mode 4's block
// scale and sum; mode 5's two run sums, and its super-block's scale from
// the run that opens it. The run's integers are words 8·run .. 8·run+7.
const NO_WORD = 0xffffffffu;
fn head_words(p: PackedRun, K: u32, run: u32, mode: u32) -> array<vec2<u32>, 3> {
    if (mode == 4u) {
        let h = K / 4u + 2u * run;
        return array<vec2<u32>, 3>(vec2<u32>(h, bitcast<u32>(p.scale)), vec2<u32>(h + 1u, bitcast<u32>(f32(p.sums.x))), vec2<u32>(NO_WORD, 0u));
    }
    let h = K / 4u + 20u * (run / 8u);
    let s = h + 4u + 2u * (run % 8u);
    return array<vec2<u32>, 3>(vec2<u32>(s, bitcast<u32>(p.sums.x)), vec2<u32>(s + 1u, bitcast<u32>(p.sums.y)), vec2<u32>(select(NO_WORD, h, run % 8u == 0u), bitcast<u32>(p.scale)));
}
