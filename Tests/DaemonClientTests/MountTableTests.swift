import Testing

@testable import DaemonClient

/// The mount table as `/proc/self/mountinfo` writes it, and the library-to-mount lookup the
/// pickers make before each Add.
@Suite("Mount table")
struct MountTableTests {
    static let mountinfo = """
        22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        51 22 0:45 / /home/ann/mnt/photos rw,nosuid,nodev,relatime shared:30 - fuse.photofs /home/ann/Photos rw,user_id=1000
        52 22 0:46 / /home/ann/mnt/with\\040space rw,nosuid shared:31 - fuse.photofs /home/ann/My\\040Pictures rw,user_id=1000
        53 22 0:47 / /mnt/other rw shared:32 - fuse.sshfs host:/x rw
        """

    @Test func onlyPhotofsMountsAreListedWithTheKernelsEscapesUndone() {
        let table = MountTable(parsing: Self.mountinfo)
        #expect(
            table.entries == [
                MountTable.Entry(library: "/home/ann/Photos", mountpoint: "/home/ann/mnt/photos"),
                MountTable.Entry(library: "/home/ann/My Pictures", mountpoint: "/home/ann/mnt/with space"),
            ])
    }

    @Test func aLibraryIsFoundByItsPathAndAnUnmountedOneIsNot() {
        let table = MountTable(parsing: Self.mountinfo)
        #expect(table.mountpoint(ofLibrary: "/home/ann/My Pictures") == "/home/ann/mnt/with space")
        #expect(table.mountpoint(ofLibrary: "/home/ann/Photos") == "/home/ann/mnt/photos")
        #expect(table.mountpoint(ofLibrary: "/home/ann/Other") == nil)
        #expect(table.entry(at: "/mnt/other") == nil)
    }

    @Test func aChannelCallSurvivesItsJSON() throws {
        let call = ChannelCall.pick(app: "editor", request: 7, assets: ["a", "b"], replace: false)
        #expect(ChannelCoding.decode(ChannelCall.self, from: ChannelCoding.encode(call)) == call)
        #expect(ChannelCoding.decode(ChannelReply.self, from: Array("not json".utf8)) == nil)
    }
}
