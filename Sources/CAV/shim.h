// The only door to FFmpeg's libavformat, libavcodec and libswscale: a video's poster frame,
// its duration and rotation, and BMP images. Only PhotoImaging imports it. The helpers
// below do what Swift cannot spell (macros, fixed arrays of plane pointers).
#ifndef PHOTOFS_CAV_SHIM_H
#define PHOTOFS_CAV_SHIM_H
#include <errno.h>
#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/log.h>

static inline int photofs_av_again(void) { return AVERROR(EAGAIN); }
static inline int photofs_av_eof(void) { return AVERROR_EOF; }
static inline int64_t photofs_av_nopts(void) { return AV_NOPTS_VALUE; }
// The whence values of an AVIOContext seek callback (lseek's).
static inline int photofs_av_seek_set(void) { return SEEK_SET; }
static inline int photofs_av_seek_cur(void) { return SEEK_CUR; }
static inline int photofs_av_seek_end(void) { return SEEK_END; }

// A demuxer that wants to open another resource (a playlist entry, a movie reference)
// is refused: only the bytes of the one file handed over are ever read.
static inline int photofs_av_refuse_open(struct AVFormatContext *context, AVIOContext **io, const char *url, int flags,
                                         AVDictionary **options) {
    (void)context; (void)io; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

static inline void photofs_av_forbid_other_files(AVFormatContext *context) { context->io_open = photofs_av_refuse_open; }

// The rotation a player applies to the stream's frames, in degrees counter-clockwise
// (0 when the stream has no display matrix).
static inline double photofs_av_rotation(const AVStream *stream) {
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix == NULL) return 0;
    double angle = av_display_rotation_get(matrix);
    return angle != angle ? 0 : angle;
}

// Scales `frame` into packed 24-bit RGB rows of `stride` bytes at `pixels`.
static inline int photofs_av_scale(struct SwsContext *scaler, const AVFrame *frame, uint8_t *pixels, int stride) {
    uint8_t *planes[4] = {pixels, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    return sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}
#endif
