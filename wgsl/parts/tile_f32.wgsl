// F32 weights in the tiled product: decoded value by value (tile_dq).
//!use decode_f32
//!use tile_dq
