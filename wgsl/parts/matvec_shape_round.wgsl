// The workgroup of the decode products that round their own output for
// the product after them (matmul_round, matmul_gate_up_round): GROUPS
// matvec workgroups of matvec_shape's WG and order side by side, so one
// dispatch workgroup holds ROWS·GROUPS = 32 rows, one whole block of
// 8-bit rounding, and every value its scale comes from. Each group sums
// as a workgroup of its own (a row's sums do not depend on ROWS), so the
// products are matmul's bit for bit. Two rows a group keep the workgroup
// at 512 threads: 1024 left whole SMs idle at the end of a product.
const ROWS = 2u;
const WG = 32u;
const GROUPS = 16u;
const THREADS = WG * GROUPS;
