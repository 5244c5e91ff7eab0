// coords splits element index e of a shape (four counts) into its four
// indices, dimension 0 fastest.
inline uint4 coords(constant uint* shape, uint e) {
    uint r1 = e / shape[0];
    uint r2 = r1 / shape[1];
    return uint4(e % shape[0], r1 % shape[1], r2 % shape[2], r2 / shape[2]);
}
