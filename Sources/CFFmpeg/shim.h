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
/// AV_NOPTS_VALUE is a cast expression macro.
static inline int64_t dbx_nopts_value(void) { return AV_NOPTS_VALUE; }

#endif
