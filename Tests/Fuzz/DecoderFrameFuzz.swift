// libFuzzer target: what crosses the decoder socket and the cache: request and response
// frames (decoded, re-encoded, decoded again to the same value), PNG text chunks of a
// cached thumbnail, and a video's duration and placeholder.

func fuzzDecoderFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let request = FrameCodec.decodeRequest(bytes) {
        precondition(FrameCodec.decodeRequest(FrameCodec.encode(request)) == request, "request does not round-trip")
    }
    if let response = FrameCodec.decodeResponse(bytes) {
        precondition(FrameCodec.decodeResponse(FrameCodec.encode(response)) == response, "response does not round-trip")
    }
    _ = PNGChunks.text(of: bytes)
    let seconds = MovieDuration.seconds(of: MemoryByteSource(bytes))
    let placeholder = VideoPlaceholder.image(box: 128, videoWidth: size % 5000, videoHeight: size % 3000, seconds: seconds)
    precondition(placeholder.width <= 128 && placeholder.height <= 128, "placeholder larger than its box")
    return 0
}
