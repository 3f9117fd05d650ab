extension Schema {
    /// The step for plans made before the planner walked what follows a still's image data
    /// (a motion photo's video, a Samsung trailer) and before a malformed XMP packet was
    /// blanked whole: such a plan may leave the appended video's position in a `strip` view.
    /// Every asset's inode is forgotten (as in version 2), in its row and its plan rows
    /// alike, so the next index (which `photofs mount` runs before the mount is ready)
    /// sees each file as touched, reads it again and stores fresh plans and location sources.
    static let trailerWalkStep = """
        UPDATE assets SET inode = 0;
        UPDATE asset_plans SET inode = 0;
        """
}
