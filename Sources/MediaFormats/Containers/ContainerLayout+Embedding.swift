extension ContainerLayout {
    /// Takes in the layout of a file embedded at `offset` (walked through a
    /// `SlicedByteSource`): every range moves to the outer file's offsets, its problems are
    /// prefixed with where it lies, and a structural problem in it makes this layout
    /// incomplete too. Its video facts join `appendedVideos`.
    mutating func adopt(_ inner: ContainerLayout, at offset: Int64, label: String) {
        func moved(_ range: ByteRange) -> ByteRange { ByteRange(offset: range.offset + offset, length: range.length) }
        exifBlocks += inner.exifBlocks.map(moved)
        xmpPackets += inner.xmpPackets.map(moved)
        photoshopResources += inner.photoshopResources.map(moved)
        iptcBlocks += inner.iptcBlocks.map(moved)
        flirChunks += inner.flirChunks.map { FLIRChunk(number: $0.number, total: $0.total, data: moved($0.data)) }
        retaggedBlocks += inner.retaggedBlocks.map { RetaggedBlock(tag: moved($0.tag), replacement: $0.replacement, data: moved($0.data)) }
        opaqueBlocks += inner.opaqueBlocks.map(moved)
        checksummedChunks += inner.checksummedChunks.map {
            ChecksummedChunk(covered: moved($0.covered), checksumOffset: $0.checksumOffset + offset)
        }
        gpmfSamples += inner.gpmfSamples.map(moved)
        trailerBlanks += inner.trailerBlanks.map(moved)
        if var movie = inner.movie {
            movie.locationPayloads = movie.locationPayloads.map(moved)
            appendedVideos.append(movie)
        }
        appendedVideos += inner.appendedVideos.map { video in
            var video = video
            video.locationPayloads = video.locationPayloads.map(moved)
            return video
        }
        for problem in inner.problems { note("\(label) at \(offset): \(problem)", structural: false) }
        if !inner.isComplete { isComplete = false }
        if unreadableMetadata == nil, let why = inner.unreadableMetadata { unreadableMetadata = "\(label) at \(offset): \(why)" }
    }
}
