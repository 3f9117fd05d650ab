import Glibc

/// The C library's mathematical functions the code needs (the standard library has none).
public enum Math {
    /// The cosine of `x` radians (libm's `cos`).
    @inlinable
    public static func cosine(_ x: Double) -> Double { cos(x) }
}
