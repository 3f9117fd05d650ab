/// MediaFormats: pure Swift that understands photo and video files as bytes. No C library,
/// no file system, no SQLite: magic-byte sniffing, the container walkers (JPEG, PNG, GIF,
/// WebP, TIFF, ISO-BMFF, QuickTime), the TIFF/IFD walker, XMP scanners, location
/// redaction planning and the byte-patch overlay that serves a redacted file, plus the
/// hashes the formats need (MD5 for the IPTC digest). `PhotoMetadata` and `PhotoCore`
/// build on it.
