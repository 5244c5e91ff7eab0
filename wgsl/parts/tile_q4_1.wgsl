// Q4_1 weights in the tiled product: decoded value by value (tile_dq).
//!use decode_q4_1
//!use tile_dq
