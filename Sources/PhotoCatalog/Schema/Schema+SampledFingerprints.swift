/// Schema step 3: sampled fingerprints and the inode change time.
///
/// - `assets.ctime_ns` and `failures.ctime_ns`: the inode change time joins size, mtime and
///   inode in the unchanged rule. Rows migrated with 0 match no file, so the next index
///   reads every file once (about what its metadata needs) and stores a fresh plan.
/// - `assets.content_sha256`: the SHA-256 of the whole file when known (made by `photofs
///   index --verify`, or kept from a catalog made before sampled fingerprints), else NULL.
/// - `assets_state`: a covering index of what the unchanged rule compares, so that a
///   re-index reads one compact index in path order instead of looking up every row
///   (100,000 unchanged files: half the CPU time).
/// - Fingerprints made before this step hashed the whole file; they move to
///   `content_sha256` and the `fingerprint` column keeps them as `sha256:HEX`, which no
///   sampled fingerprint equals. The indexer recognises such a row by that full hash (the
///   file at its path, or a file of its size elsewhere when its path is gone) and keeps its
///   id, so every grant keeps naming the same photo.
extension Schema {
    /// The SQL of step 3.
    static let sampledFingerprintsStep = """
        ALTER TABLE assets ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE assets ADD COLUMN content_sha256 TEXT;
        ALTER TABLE failures ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT 0;
        UPDATE assets SET content_sha256 = fingerprint, fingerprint = 'sha256:' || fingerprint;
        CREATE INDEX assets_state ON assets(path, id, size, mtime_ns, inode, ctime_ns);
        """

    /// How a fingerprint made before sampled fingerprints is kept (`sha256:` + full hash).
    static let legacyFingerprintPrefix = "sha256:"
}
