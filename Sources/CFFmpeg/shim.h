#ifndef DELAYBOX_CFFMPEG_SHIM_H
#define DELAYBOX_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>

// One-line forwarders for what Swift cannot import: function-like and expression macros.

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno.
static inline int dbx_averror(int errnum) { return AVERROR(errnum); }
/// AVERROR_EOF is a macro built from FFERRTAG.
static inline int dbx_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_EXIT: what a read returns when the interrupt callback stopped it.
static inline int dbx_averror_exit(void) { return AVERROR_EXIT; }
/// AVERROR_HTTP_NOT_FOUND and friends are FFERRTAG macros.
static inline int dbx_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int dbx_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int dbx_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int dbx_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// What avformat_open_input returns for a protocol or container the library was built without.
static inline int dbx_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int dbx_averror_demuxer_not_found(void) { return AVERROR_DEMUXER_NOT_FOUND; }
static inline int dbx_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AV_NOPTS_VALUE is a cast expression macro.
static inline int64_t dbx_nopts_value(void) { return AV_NOPTS_VALUE; }

/// av_log's callback takes a va_list, which Swift imports differently per CPU (a pointer on
/// x86-64, a struct on arm64, where Swift 6.0 crashes compiling it): the line is formatted
/// here, in C, and handed whole to Swift's `dbx_ffmpeg_log_line` (DelayboxFFmpeg's FFmpegLog).
void dbx_ffmpeg_log_line(int level, const char *line);
static inline void dbx_av_log_callback(void *context, int level, const char *format, va_list arguments) {
    if (level > av_log_get_level()) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(context, level, format, arguments, line, (int)sizeof line, &print_prefix);
    dbx_ffmpeg_log_line(level, line);
}
/// Sends av_log's messages at `level` or more severe to `dbx_ffmpeg_log_line`.
static inline void dbx_av_log_install(int level) {
    av_log_set_level(level);
    av_log_set_callback(dbx_av_log_callback);
}

#endif
