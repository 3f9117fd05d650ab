struct WebPWalker {
    let reader: SourceReader
    func layout() -> ContainerLayout { ContainerLayout(format: .png, problems: ["not walked yet"], isComplete: false) }
}
