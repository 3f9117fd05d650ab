import Testing

@Test func photocatalogBuilds() {
    #expect(Bool(true))
}
