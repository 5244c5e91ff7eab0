// The workgroup of a decode product whose last workgroup to finish also
// normalises the row it wrote (matmul_norm): GROUPS matvec workgroups of
// matvec_shape's ROWS and WG side by side, so a dispatch workgroup has
// the 256 threads the norm and its rounding take (rmsnorm_round's, one
// value a thread). Each group sums as a workgroup of its own, so the
// products are matmul's bit for bit, and as many threads read the
// weights as in matmul.
const ROWS = 2u;
const WG = 64u;
const GROUPS = 4u;
const THREADS = WG * GROUPS;
