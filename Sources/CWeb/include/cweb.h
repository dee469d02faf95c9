#ifndef DELAYBOX_CWEB_H
#define DELAYBOX_CWEB_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// libmicrohttpd, as the web door uses it: a server on a listening socket the caller
/// made (so that its errors are the caller's to word, and systemd's socket activation is
/// the same path), a thread per connection, each request handed over whole (its body
/// collected here, at most `DBX_WEB_BODY_LIMIT` bytes), and answered with a whole body or
/// a stream (Server-Sent Events). Wrapped because MHD_start_daemon is variadic, which
/// Swift cannot call.

/// The longest request body taken (bytes): a login, a console line, a station link, a
/// backup restored (`BoxBackup.largestBytes` and a little).
#define DBX_WEB_BODY_LIMIT 65536

struct MHD_Daemon;
struct MHD_Connection;

typedef struct dbx_web_request {
  struct MHD_Connection *connection;
  const char *method;
  /// The path, without the query.
  const char *url;
  const char *body;
  size_t body_length;
  /// The peer's address as text (an IPv4 or IPv6 address).
  const char *client;
} dbx_web_request;

/// Answers one request: must call dbx_web_respond or dbx_web_respond_stream once, and
/// return what it returned.
typedef int (*dbx_web_handler)(void *context, const dbx_web_request *request);

/// A stream's next bytes: how many were written to `buffer` (at most `size`), or -1 at
/// its end. May block (each connection has its own thread).
typedef ssize_t (*dbx_web_reader)(void *context, char *buffer, size_t size);
/// The stream's connection is gone: `context` may be released.
typedef void (*dbx_web_reader_done)(void *context);

typedef struct dbx_web dbx_web;

/// Connections at most (a larger `connection_limit` is taken as this).
#define DBX_WEB_CONNECTIONS_MAX 64

/// Serves on `listen_fd` until dbx_web_stop; NULL if libmicrohttpd refused to start. At most
/// `connection_limit` connections, `per_network_limit` of them from one network (an IPv4
/// address, an IPv6 /64: a LAN host has as many IPv6 addresses as it likes).
dbx_web *dbx_web_start(int listen_fd, unsigned connection_limit, unsigned per_network_limit,
                       unsigned idle_timeout_s, dbx_web_handler handler, void *context);
/// Stops accepting, waits for every connection's thread (a stream's reader must have been
/// told to end) and frees `web`; closes the listening socket unless `keep_socket` (systemd's,
/// for the next server).
void dbx_web_stop(dbx_web *web, int keep_socket);

/// Hashes `password` as /etc/shadow does (libcrypt's yescrypt, a fresh salt) into
/// `hash` (`size` >= 128): 0 on success, -1 on failure (errno).
int dbx_web_hash_password(const char *password, char *hash, size_t size);
/// Hashes `password` with libcrypt under `setting` (a `$y$…` setting or hash: its method,
/// cost and salt) into `hash` (`size` >= 128): 0 on success, -1 on failure (errno). A key
/// derived from a passphrase is this hash's last part.
int dbx_web_crypt(const char *password, const char *setting, char *hash, size_t size);
/// 1 if `password` is the one `hash` was made from, in time independent of where they differ.
int dbx_web_check_password(const char *password, const char *hash);

/// A request header's value, or NULL.
const char *dbx_web_header(struct MHD_Connection *connection, const char *name);

/// Answers with `body`; `headers` is NULL-terminated name, value pairs (or NULL).
int dbx_web_respond(struct MHD_Connection *connection, unsigned status, const char *const *headers,
                    const void *body, size_t length);
/// Answers 200 with a body of unknown length read from `reader` until it ends.
int dbx_web_respond_stream(struct MHD_Connection *connection, const char *const *headers, dbx_web_reader reader,
                           void *context, dbx_web_reader_done done);

/// Scores `password` with libpwquality (the library passwd and GNOME use: cracklib's
/// dictionary, /etc/security/pwquality.conf), opened at the first call: 1 acceptable, 0 weak
/// (its reason in `reason`), -1 when the box has no libpwquality (the package recommends it).
int dbx_web_password_quality(const char *password, char *reason, size_t size);

/// Fills `buffer` with `size` bytes from the kernel's secure random source: 0, or -1 (errno).
int dbx_web_random(void *buffer, size_t size);

/// 1 when `address` (IPv6 text) is in the /64 of one of this machine's own global IPv6
/// addresses — a peer on the box's own link — else 0.
int dbx_web_client_on_link(const char *address);

#endif
