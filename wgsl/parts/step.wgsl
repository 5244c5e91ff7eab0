// The step's position, written before every run, and, when its tokens are
// placed one by one (gpu.Place: a decode batch of several sequences, or a
// chunk of one sequence in a slot of a shared cache), each token's
// position and the cache row where its sequence starts, two tokens a
// vector (gpu.MaxPlaces of them).
struct Step { pos: u32, placed: u32, pad1: u32, pad2: u32, places: array<vec4<u32>, 128> }
@group(0) @binding(1) var<uniform> S: Step;

// tok_pos is the position of the step's token t in its sequence.
fn tok_pos(t: u32) -> u32 {
    if (S.placed != 0u) { return S.places[t / 2u][(t % 2u) * 2u]; }
    return S.pos + t;
}

// tok_base is the cache row where the sequence of the step's token t
// starts: the token is stored at row tok_base + tok_pos and attends to
// rows tok_base .. tok_base + tok_pos.
fn tok_base(t: u32) -> u32 {
    if (S.placed != 0u) { return S.places[t / 2u][(t % 2u) * 2u + 1u]; }
    return 0u;
}
