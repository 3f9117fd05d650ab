#!/usr/bin/env python3
"""Writes a realistic photo library for index-bench.sh: camera-size JPEGs (12-24 MP) with a
full EXIF block (camera, exposure, dates, GPS, a maker note and a thumbnail), some HEIC
photos and a few large MP4 videos whose movie box sits after (or before) a large mdat.

Usage: real_library.py DIR [--jpegs N] [--heics N] [--videos N] [--video-mib N] [--seed S]

The pixel data of the JPEGs comes from a few base images made once with ImageMagick
(`convert`); every library JPEG is a base image's entropy-coded data behind its own EXIF
block (its own date, camera, position and unique id), so no two files are alike and each
has the size and structure of a camera JPEG. HEIC files: each base image is encoded once by
heif-enc (libheif) with a full EXIF block, and every library HEIC is one of those with its
own ImageUniqueID and capture date patched into the EXIF item (same pixels, own identity:
the EXIF item lies in the file's last 64 KiB). Videos are valid ISO-BMFF files written
here: ftyp, a large mdat of random bytes, and a moov with mvhd, one video trak (tkhd) and a udta location.
A file DIR.complete marks a finished library."""
import os, random, re, struct, subprocess, sys

BASES = [(4000, 3000), (4608, 3456), (5184, 3888), (5472, 3648), (6000, 4000)]


def rational(num, den):
    return struct.pack("<II", num, den)


def ifd(entries, at, next_ifd=0):
    """One little-endian TIFF IFD placed at offset `at`: entries are (tag, type, count,
    value bytes); values over 4 bytes go to a data area right after the entry table."""
    entries = sorted(entries)
    table_size = 2 + 12 * len(entries) + 4
    data = b""
    table = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if len(value) <= 4:
            table += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            if len(data) % 2:
                data += b"\0"
            table += struct.pack("<HHII", tag, kind, count, at + table_size + len(data))
            data += value
    table += struct.pack("<I", next_ifd)
    return table + data


def ascii_(tag, text):
    raw = text.encode() + b"\0"
    return (tag, 2, len(raw), raw)


def exif_block(rng, width, height, index, thumbnail):
    """The APP1 payload ("Exif\\0\\0" + TIFF) of one camera photo."""
    year = rng.randint(2008, 2025)
    date = "%04d:%02d:%02d %02d:%02d:%02d" % (year, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                                              rng.randint(0, 59), rng.randint(0, 59))
    make, model, lens = rng.choice([("Canon", "Canon EOS 5D Mark IV", "EF24-105mm f/4L IS II USM"),
                                    ("NIKON CORPORATION", "NIKON Z 6_2", "NIKKOR Z 24-70mm f/4 S"),
                                    ("SONY", "ILCE-7M3", "FE 28-70mm F3.5-5.6 OSS"),
                                    ("FUJIFILM", "X-T4", "XF16-80mmF4 R OIS WR"),
                                    ("Apple", "iPhone 13 Pro", "iPhone 13 Pro back triple camera 5.7mm f/1.5")])
    lat, lon = rng.uniform(-60, 70), rng.uniform(-170, 170)

    def dms(value):
        value = abs(value)
        d = int(value)
        m = int((value - d) * 60)
        s = int(((value - d) * 60 - m) * 60 * 100)
        return rational(d, 1) + rational(m, 1) + rational(s, 100)

    maker_note = bytes(rng.getrandbits(8) for _ in range(64)) * 96  # 6 KiB, like a camera's
    ifd0_at = 8
    ifd0_entries = [
        ascii_(0x010F, make), ascii_(0x0110, model), (0x0112, 3, 1, struct.pack("<H", rng.choice([1, 1, 1, 6, 8, 3]))),
        (0x011A, 5, 1, rational(300, 1)), (0x011B, 5, 1, rational(300, 1)), (0x0128, 3, 1, struct.pack("<H", 2)),
        ascii_(0x0131, "Firmware 1.%d" % rng.randint(0, 9)), ascii_(0x0132, date), ascii_(0x013B, "photofs bench"),
        (0x0213, 3, 1, struct.pack("<H", 2)), (0x8769, 4, 1, b"\0\0\0\0"), (0x8825, 4, 1, b"\0\0\0\0")]
    # Lay out IFD0, then the Exif IFD, the GPS IFD, IFD1 and the thumbnail; offsets are
    # known only once the earlier parts are built, so build twice.
    def build(exif_at, gps_at, ifd1_at):
        e0 = [x for x in ifd0_entries if x[0] not in (0x8769, 0x8825)]
        e0 += [(0x8769, 4, 1, struct.pack("<I", exif_at)), (0x8825, 4, 1, struct.pack("<I", gps_at))]
        part0 = ifd(e0, ifd0_at, ifd1_at)
        exif_entries = [
            (0x829A, 5, 1, rational(1, rng.choice([60, 125, 250, 500, 1000]))), (0x829D, 5, 1, rational(rng.choice([28, 40, 56, 80]), 10)),
            (0x8822, 3, 1, struct.pack("<H", 2)), (0x8827, 3, 1, struct.pack("<H", rng.choice([100, 200, 400, 800, 1600]))),
            (0x9000, 7, 4, b"0232"), ascii_(0x9003, date), ascii_(0x9004, date), ascii_(0x9010, "+02:00"), ascii_(0x9011, "+02:00"),
            (0x9101, 7, 4, b"\1\2\3\0"), (0x9204, 10, 1, struct.pack("<ii", 0, 3)), (0x9207, 3, 1, struct.pack("<H", 5)),
            (0x9209, 3, 1, struct.pack("<H", 16)), (0x920A, 5, 1, rational(rng.randint(16, 200), 1)),
            (0x927C, 7, len(maker_note), maker_note), (0xA001, 3, 1, struct.pack("<H", 1)),
            (0xA002, 4, 1, struct.pack("<I", width)), (0xA003, 4, 1, struct.pack("<I", height)),
            (0xA402, 3, 1, struct.pack("<H", 0)), (0xA403, 3, 1, struct.pack("<H", 0)),
            ascii_(0xA420, "%032x" % (index * 2654435761 % (1 << 128))), ascii_(0xA433, make), ascii_(0xA434, lens)]
        part_exif = ifd(exif_entries, exif_at)
        gps_entries = [
            (0x0000, 1, 4, b"\2\3\0\0"), ascii_(0x0001, "N" if lat >= 0 else "S"), (0x0002, 5, 3, dms(lat)),
            ascii_(0x0003, "E" if lon >= 0 else "W"), (0x0004, 5, 3, dms(lon)), (0x0005, 1, 1, b"\0"),
            (0x0006, 5, 1, rational(rng.randint(0, 3000), 1))]
        part_gps = ifd(gps_entries, gps_at)
        thumb_at = ifd1_at + 2 + 12 * 3 + 4
        part1 = ifd([(0x0103, 3, 1, struct.pack("<H", 6)), (0x0201, 4, 1, struct.pack("<I", thumb_at)),
                     (0x0202, 4, 1, struct.pack("<I", len(thumbnail)))], ifd1_at)
        return part0, part_exif, part_gps, part1

    state = rng.getstate()
    p0, pe, pg, p1 = build(0, 0, 0)
    exif_at = ifd0_at + len(p0)
    gps_at = exif_at + len(pe)
    ifd1_at = gps_at + len(pg)
    ifd1_at += ifd1_at % 2
    rng.setstate(state)  # the same random choices on the second pass
    p0, pe, pg, p1 = build(exif_at, gps_at, ifd1_at)
    tiff = b"II*\0" + struct.pack("<I", ifd0_at) + p0 + pe + pg
    tiff = tiff.ljust(ifd1_at, b"\0") + p1 + thumbnail
    return b"Exif\0\0" + tiff


def strip_to_image(jpeg):
    """A base JPEG without SOI and without its APPn segments (the library adds its own)."""
    pos, out = 2, b""
    while pos < len(jpeg):
        marker = jpeg[pos + 1]
        if marker == 0xDA:
            return out + jpeg[pos:]
        length = struct.unpack(">H", jpeg[pos + 2:pos + 4])[0]
        if not 0xE0 <= marker <= 0xEF:
            out += jpeg[pos:pos + 2 + length]
        pos += 2 + length
    raise SystemExit("base JPEG has no SOS")


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def movie_box(width, height, seconds):
    mvhd = box(b"mvhd", b"\0\0\0\0" + struct.pack(">IIII", 3786825600, 3786825600, 1000, seconds * 1000) + b"\0\1\0\0\1\0"
               + b"\0" * 10 + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + b"\0" * 24 + struct.pack(">I", 2))
    tkhd = box(b"tkhd", b"\0\0\0\3" + struct.pack(">IIIII", 3786825600, 3786825600, 1, 0, seconds * 1000) + b"\0" * 8
               + b"\0\0\0\0\0\0\0\0" + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
               + struct.pack(">II", width << 16, height << 16))
    xyz = box(b"\xa9xyz", struct.pack(">HH", 17, 0x15c7) + b"+48.8583+002.2945/")
    udta = box(b"udta", xyz + box(b"\xa9mak", struct.pack(">HH", 5, 0x15c7) + b"Apple"))
    return box(b"moov", mvhd + box(b"trak", tkhd) + udta)


def write_video(path, rng, mib, moov_first):
    ftyp = box(b"ftyp", b"qt  \0\0\0\0qt  ")
    moov = movie_box(3840, 2160, 60 + rng.randint(0, 600))
    chunk = rng.randbytes(1 << 20)
    with open(path, "wb") as out:
        out.write(ftyp)
        if moov_first:
            out.write(moov)
        out.write(struct.pack(">I", 8 + mib * (1 << 20)) + b"mdat")
        for i in range(mib):
            out.write(chunk[i % 997:] + chunk[:i % 997])
        if not moov_first:
            out.write(moov)


def unique_id_for(index):
    """The ImageUniqueID exif_block writes for `index`."""
    return ("%032x" % (index * 2654435761 % (1 << 128))).encode()


def heic_base(work, k, base, thumbnail):
    """One HEIC per base image, encoded once by heif-enc (libheif, x265) from the base with
    a full EXIF block, and cached in `work`; returns its bytes with the ImageUniqueID and
    capture date its EXIF holds, for per-file patching."""
    w, h, image = base
    path = "%s/heic-base-%d.heic" % (work, k)
    app1 = exif_block(random.Random(1000 + k), w, h, 100000 + k, thumbnail)
    # The capture date: the first "YYYY:MM:DD HH:MM:SS" in the block (all three date tags hold it).
    date = re.search(rb"\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}", app1).group(0)
    if not os.path.exists(path):
        source = "%s/heic-source-%d.jpg" % (work, k)
        with open(source, "wb") as out:
            out.write(b"\xff\xd8\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + image)
        subprocess.run(["heif-enc", "-q", "50", "-p", "preset=ultrafast", "-o", path + ".tmp.heic", source], check=True,
                       stdout=subprocess.DEVNULL)
        os.rename(path + ".tmp.heic", path)
        os.unlink(source)
    with open(path, "rb") as f:
        data = f.read()
    unique_id = unique_id_for(100000 + k)
    if data.count(unique_id) != 1 or data.count(date) < 1:
        raise SystemExit("%s: heif-enc did not keep the EXIF block" % path)
    return data, unique_id, date


def main():
    args = sys.argv[1:]
    opts = {"--jpegs": 1000, "--heics": 200, "--videos": 4, "--video-mib": 1024, "--seed": 7}
    root = None
    while args:
        a = args.pop(0)
        if a in opts:
            opts[a] = int(args.pop(0))
        else:
            root = a
    if root is None:
        raise SystemExit(__doc__)
    rng = random.Random(opts["--seed"])
    work = root + ".bases"
    os.makedirs(work, exist_ok=True)
    bases = []
    for i, (w, h) in enumerate(BASES):
        path = "%s/base-%d.jpg" % (work, i)
        if not os.path.exists(path):
            subprocess.run(["convert", "-size", "%dx%d" % (w, h), "gradient:#%06x-#%06x" % (rng.getrandbits(24), rng.getrandbits(24)),
                            "-attenuate", "1.0", "+noise", "Gaussian", "-quality", "88", path + ".tmp.jpg"], check=True)
            os.rename(path + ".tmp.jpg", path)
        with open(path, "rb") as f:
            bases.append((w, h, strip_to_image(f.read())))
    thumb_path = work + "/thumb.jpg"
    if not os.path.exists(thumb_path):
        subprocess.run(["convert", "-size", "160x120", "gradient:", "-quality", "80", thumb_path], check=True)
    with open(thumb_path, "rb") as f:
        thumbnail = f.read()

    for i in range(opts["--jpegs"]):
        w, h, image = bases[i % len(bases)]
        folder = "%s/%04d/%02d" % (root, 2010 + i // 250, 1 + (i // 25) % 10)
        os.makedirs(folder, exist_ok=True)
        path = "%s/IMG_%05d.JPG" % (folder, i)
        if os.path.exists(path):
            continue
        app1 = exif_block(rng, w, h, i, thumbnail)
        with open(path + ".tmp", "wb") as out:
            out.write(b"\xff\xd8\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + image)
        os.rename(path + ".tmp", path)

    os.makedirs(root + "/heic", exist_ok=True)
    heic_bases = {}
    for i in range(opts["--heics"]):
        path = "%s/heic/IMG_%04d.HEIC" % (root, i)
        if os.path.exists(path):
            continue
        k = i % len(bases)
        if k not in heic_bases:
            heic_bases[k] = heic_base(work, k, bases[k], thumbnail)
        data, unique_id, date = heic_bases[k]
        # Its own ImageUniqueID and capture date (same lengths, patched in place in the
        # EXIF item, which heif-enc writes at the end of the file): a file of its own.
        day = 1 + i % 28
        new_date = ("%04d:%02d:%02d %02d:%02d:%02d" % (2010 + i % 15, 1 + i % 12, day, i % 24, i % 60, (i * 7) % 60)).encode()
        patched = data.replace(unique_id, unique_id_for(200000 + i)).replace(date, new_date)
        with open(path + ".tmp", "wb") as out:
            out.write(patched)
        os.rename(path + ".tmp", path)

    os.makedirs(root + "/video", exist_ok=True)
    for i in range(opts["--videos"]):
        path = "%s/video/MOV_%02d.MOV" % (root, i)
        if not os.path.exists(path):
            write_video(path + ".tmp", rng, opts["--video-mib"], moov_first=(i % 2 == 1))
            os.rename(path + ".tmp", path)
    open(root + ".complete", "w").close()


if __name__ == "__main__":
    main()
