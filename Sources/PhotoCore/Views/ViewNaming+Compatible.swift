extension ViewNaming {
    /// The name a compatible JPEG is shown under: the file's name with its extension
    /// replaced by `.jpg` (`IMG_0001.HEIC` → `IMG_0001.jpg`), so that apps that go by the
    /// extension open it as JPEG.
    static func jpegName(_ base: [UInt8]) -> [UInt8] {
        var stemPart = stem(of: base)
        let jpg = Array(".jpg".utf8)
        if stemPart.count + jpg.count > nameMax {
            var keep = nameMax - jpg.count
            while keep > 0, stemPart[keep] & 0xC0 == 0x80 { keep -= 1 }
            stemPart = Array(stemPart.prefix(keep))
        }
        return stemPart + jpg
    }
}
