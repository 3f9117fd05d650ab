import PhotoCore

print("photofs \(PhotoCoreVersion.version)")
