extension ViewInode {
    /// The hash state for the compatible JPEGs of the view directory at `directoryPath` at
    /// `quality`: a JPEG is other bytes than the original (and than the JPEG at another
    /// quality), so it gets another number and the kernel never serves one's cached pages
    /// or size for the other, also when an app switches representation.
    static func compatibleFilePrefix(directoryPath: [UInt8], quality: Int) -> FNV1a {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "j"))
        hash.add(UInt8(clamping: quality))
        hash.add(directoryPath)
        hash.add(0)
        return hash
    }
}
