extension Schema {
    /// The step that adds each app's representation: `apps.representation` (`original` or
    /// `compatible`, see `Representation`) and `apps.quality`, the compatible JPEG's quality
    /// as libjpeg's 1...100. Existing apps keep being served their originals.
    static let representationStep = """
        ALTER TABLE apps ADD COLUMN representation TEXT NOT NULL DEFAULT 'original';
        ALTER TABLE apps ADD COLUMN quality INTEGER NOT NULL DEFAULT 80;
        """
}
