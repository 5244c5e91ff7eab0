// F16 weights in the tiled product: decoded value by value (tile_dq).
//!use decode_f16
//!use tile_dq
