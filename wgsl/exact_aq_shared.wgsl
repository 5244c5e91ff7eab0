// The exact products' 8-bit activation values for the blocks kernels
// (exact_blocks): a workgroup's rows all take the same activation row, so
// its values for the blocks in hand are recovered from X once (fill_aq),
// packed four to a word in workgroup memory, rather than by every row's
// thread from X (a load, a multiply and a rounding a value, where the
// integer product itself is a multiply-add).
const AQ_WORDS = CB * EXACT_BLOCK / 4u;
// Two chunks' values: the one read and the one filled.
var<workgroup> aq_words: array<u32, 2u * AQ_WORDS>;
// aq_first is the element of X that the chunk read starts at, aq_base
// the word of aq_words.
var<private> aq_first: u32;
var<private> aq_base: u32;

// fill_aq packs blocks c0 .. c0+CB-1 (those below nb) of the activation
// row at xo, scales at so, into half buf of aq_words with all THREADS
// threads, and makes it the half aq reads. Call from uniform control
// flow; a barrier must follow before aq reads them.
fn fill_aq(li: u32, live: bool, xo: u32, so: u32, c0: u32, nb: u32, buf: u32) {
    aq_first = xo + c0 * EXACT_BLOCK;
    aq_base = buf * AQ_WORDS;
    // Threads R on take the first words: threads below R fold before.
    for (var w = (li + THREADS - R) % THREADS; w < AQ_WORDS; w += THREADS) {
        let blk = c0 + 4u * w / EXACT_BLOCK;
        if (live && blk < nb) {
            let a = act_block(xo, so, EXACT_BLOCK, blk);
            let e = 4u * w % EXACT_BLOCK;
            var p = 0u;
            for (var i = 0u; i < 4u; i++) { p |= (u32(x_q(a, e + i)) & 255u) << (8u * i); }
            aq_words[aq_base + w] = p;
        }
    }
}

// aq4 is the word holding value i, unpacked: values i .. i+3 where i is
// a multiple of 4.
fn aq4(a: Act, i: u32) -> vec4<i32> { return s8x4(aq_words[aq_base + ((a.xo + i - aq_first) >> 2u)]); }

fn aq(a: Act, i: u32) -> i32 { return aq4(a, i)[(a.xo + i - aq_first) & 3u]; }
