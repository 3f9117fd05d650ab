import Testing

@Test func photofsBuilds() {
    #expect(Bool(true))
}
