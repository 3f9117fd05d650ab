struct MovieWalker {
    let reader: SourceReader
    let format: MediaFormat
    func layout() -> ContainerLayout { ContainerLayout(format: format, problems: ["not walked yet"], isComplete: false) }
}
