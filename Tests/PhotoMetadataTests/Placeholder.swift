import Testing

@Test func photometadataBuilds() {
    #expect(Bool(true))
}
