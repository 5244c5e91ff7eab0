// What the weight loaders of the tiled product (tile_TYPE) share. A slice
// of a row is 32 values, four parts of eight; a loader fetches the raw
// words of a part (fetch) and decodes them only later (unpack), so the
// next slice's loads are in flight while the current one is multiplied.
// tile_at(part) is where the part's two runs of four consecutive values
// start within the slice.
//!use bytes
struct Vals { a: vec4<f32>, b: vec4<f32> }
