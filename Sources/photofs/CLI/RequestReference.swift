/// The request file and the owner's request list, for app authors: the text an app writes
/// to `apps/APP/.request`, what it reads back, and what `.requests` at the mount root holds.
/// Rendered into the man page's REQUEST FILE section.
enum RequestReference {
    /// The items of a request, each with its default.
    static let items = [
        ReferenceRow(
            synopsis: "media=M",
            meaning: "what may be chosen: image, video, live, screenshot, panorama (plurals too), combined with any(...), all(...), "
                + "not(...) (default: everything the app's filter lets through)"),
        ReferenceRow(
            synopsis: "limit=N",
            meaning: "at most N photos (1: pick a single photo; 0: as many as the app's own limit allows) (default: 0)"),
        ReferenceRow(synopsis: "ordered, ordered=no", meaning: "number the picks in the order they are made (default: ordered)"),
        ReferenceRow(
            synopsis: "mode=add, mode=replace", meaning: "the choice is added to the app's photos, or replaces them (default: add)"),
        ReferenceRow(synopsis: "timeout=S", meaning: "answer expired after S seconds (1 to 3600) (default: 600)"),
    ]

    /// Requests an app may write, each accepted by the daemon.
    static let examples = ["media=image limit=3", "media=any(image,video) limit=1 ordered=no", "mode=replace; timeout=120"]

    static let writing = """
        An app asks the person for photos by writing one line to .request in its view \
        ($PHOTOFS_DIR/.request inside photofs run, MOUNTPOINT/apps/APP/.request outside). Items \
        are separated by spaces, ';' or newlines; every item is optional. A request only narrows: \
        the picker offers what passes both the app's filter and media, and the limit is the \
        smaller of limit and the room the app's own limit leaves. The write fails with EINVAL \
        (malformed, with the column in the log), EBUSY (a request of this app is already \
        waiting) or EDQUOT (the app is at its limit; mode=replace still works).
        """

    static let reading = """
        Then the app reads .request. While the request waits, read(2) blocks (with O_NONBLOCK it \
        fails with EAGAIN, and poll(2) reports the file readable once it is answered). The answer \
        is 'selected N' followed by the N chosen names in the app's view, in the order picked, one \
        per line (a backslash written \\\\ and a newline byte \\n); or 'cancelled'; or 'expired'. \
        It stays readable until the app's next request. The app can never grant itself anything: \
        the person answers, in photofs pick.
        """

    static let ownerSide = """
        The owner's side is .requests at the mount root (the owner only; not listed): reading it \
        gives one line per pending request, such as 'id=3 app=editor limit=3 mode=add ordered=yes \
        waited=12 expires-in=588 media=image'. photofs requests lists them and photofs pick APP \
        answers the app's request.
        """
}
