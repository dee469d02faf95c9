#include "cweb.h"
#include <arpa/inet.h>
#include <crypt.h>
#include <dlfcn.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

/// Connections open from one network: an IPv4 address (mapped or not), an IPv6 /64, or a
/// link-local IPv6 address alone (every neighbour's is in fe80::/64).
struct network_count {
  unsigned char key[16];
  size_t length;
  unsigned count;
};

struct dbx_web {
  struct MHD_Daemon *daemon;
  dbx_web_handler handler;
  void *context;
  unsigned per_network_limit;
  pthread_mutex_t lock;
  /// As many as connections may be open: a free one (count 0) is always there for a new network.
  struct network_count networks[DBX_WEB_CONNECTIONS_MAX];
};

/// Whether `address` lies in the prefix of one of this machine's own IPv6 addresses, a
/// prefix of /64 or wider (a LAN's, which holds many homes' phones): a peer on the box's own
/// link, as opposed to one behind a router. An address of its own without a LAN prefix (a
/// /128) makes nothing on-link. getifaddrs on each new connection: tens of microseconds.
static int on_link(const struct in6_addr *address) {
  struct ifaddrs *list = NULL;
  if (getifaddrs(&list) != 0) return 0;
  int found = 0;
  for (struct ifaddrs *entry = list; entry && !found; entry = entry->ifa_next) {
    if (!entry->ifa_addr || !entry->ifa_netmask || entry->ifa_addr->sa_family != AF_INET6) continue;
    const struct in6_addr *own = &((const struct sockaddr_in6 *)entry->ifa_addr)->sin6_addr;
    const struct in6_addr *mask = &((const struct sockaddr_in6 *)entry->ifa_netmask)->sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(own) || IN6_IS_ADDR_LINKLOCAL(own)) continue;
    int bits = 0, same = 1;
    for (int i = 0; i < 16; i++) {
      bits += __builtin_popcount(mask->s6_addr[i]);
      same = same && (own->s6_addr[i] & mask->s6_addr[i]) == (address->s6_addr[i] & mask->s6_addr[i]);
    }
    found = same && bits > 0 && bits <= 64;
  }
  freeifaddrs(list);
  return found;
}

int dbx_web_client_on_link(const char *text) {
  struct in6_addr address;
  if (!text || inet_pton(AF_INET6, text, &address) != 1) return 0;
  return on_link(&address);
}

/// `address`'s network as bytes: 4 for IPv4, 8 (the /64) for an IPv6 peer behind a router,
/// 16 for a link-local or on-link IPv6 address (ClientNetwork's rule); 0 for anything else.
static size_t network_key(const struct sockaddr *address, unsigned char key[16]) {
  if (!address) return 0;
  if (address->sa_family == AF_INET) {
    memcpy(key, &((const struct sockaddr_in *)address)->sin_addr, 4);
    return 4;
  }
  if (address->sa_family != AF_INET6) return 0;
  const struct in6_addr *ip6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
  if (IN6_IS_ADDR_V4MAPPED(ip6)) {
    memcpy(key, ip6->s6_addr + 12, 4);
    return 4;
  }
  size_t length = IN6_IS_ADDR_LINKLOCAL(ip6) || on_link(ip6) ? 16 : 8;
  memcpy(key, ip6->s6_addr, length);
  return length;
}

/// The network's entry (under `web->lock`); with `create`, a free one taken for it.
static struct network_count *network_entry(struct dbx_web *web, const unsigned char *key, size_t length, int create) {
  struct network_count *free_entry = NULL;
  for (size_t i = 0; i < DBX_WEB_CONNECTIONS_MAX; i++) {
    struct network_count *entry = &web->networks[i];
    if (entry->count > 0 && entry->length == length && memcmp(entry->key, key, length) == 0) return entry;
    if (entry->count == 0 && !free_entry) free_entry = entry;
  }
  if (!create || !free_entry) return NULL;
  memcpy(free_entry->key, key, length);
  free_entry->length = length;
  return free_entry;
}

/// libmicrohttpd's accept policy: a network at its limit is refused (the connection closed).
static enum MHD_Result accept_policy(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)length;
  struct dbx_web *web = cls;
  unsigned char key[16];
  size_t key_length = network_key(address, key);
  if (!key_length) return MHD_YES;
  pthread_mutex_lock(&web->lock);
  struct network_count *entry = network_entry(web, key, key_length, 0);
  int allowed = !entry || entry->count < web->per_network_limit;
  pthread_mutex_unlock(&web->lock);
  return allowed ? MHD_YES : MHD_NO;
}

/// Counts each network's connections as they start and close.
static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
  (void)socket_context;
  struct dbx_web *web = cls;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  unsigned char key[16];
  size_t key_length = network_key(info ? info->client_addr : NULL, key);
  if (!key_length) return;
  pthread_mutex_lock(&web->lock);
  struct network_count *entry = network_entry(web, key, key_length, code == MHD_CONNECTION_NOTIFY_STARTED);
  if (entry && code == MHD_CONNECTION_NOTIFY_STARTED) entry->count++;
  else if (entry && code == MHD_CONNECTION_NOTIFY_CLOSED && entry->count > 0) entry->count--;
  pthread_mutex_unlock(&web->lock);
}

/// A request's body as it arrives.
struct upload {
  size_t length;
  int too_large;
  char bytes[DBX_WEB_BODY_LIMIT + 1];
};

static int add_headers(struct MHD_Response *response, const char *const *headers) {
  for (const char *const *header = headers; header && header[0]; header += 2) {
    if (MHD_add_response_header(response, header[0], header[1]) != MHD_YES) return 0;
  }
  return 1;
}

int dbx_web_respond(struct MHD_Connection *connection, unsigned status, const char *const *headers,
                    const void *body, size_t length) {
#if MHD_VERSION >= 0x00097600  // Debian 13's 1.0 deprecates the older call
  struct MHD_Response *response = MHD_create_response_from_buffer_copy(length, body);
#else
  struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
#endif
  if (!response) return MHD_NO;
  int result = add_headers(response, headers) ? MHD_queue_response(connection, status, response) : MHD_NO;
  MHD_destroy_response(response);
  return result;
}

struct stream {
  dbx_web_reader reader;
  dbx_web_reader_done done;
  void *context;
};

static ssize_t read_stream(void *cls, uint64_t position, char *buffer, size_t size) {
  (void)position;
  struct stream *stream = cls;
  ssize_t written = stream->reader(stream->context, buffer, size);
  return written < 0 ? MHD_CONTENT_READER_END_OF_STREAM : written;
}

static void end_stream(void *cls) {
  struct stream *stream = cls;
  stream->done(stream->context);
  free(stream);
}

int dbx_web_respond_stream(struct MHD_Connection *connection, const char *const *headers, dbx_web_reader reader,
                           void *context, dbx_web_reader_done done) {
  struct stream *stream = malloc(sizeof *stream);
  if (!stream) {
    done(context);
    return MHD_NO;
  }
  *stream = (struct stream){reader, done, context};
  struct MHD_Response *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, read_stream, stream, end_stream);
  if (!response) {
    end_stream(stream);
    return MHD_NO;
  }
  int result = add_headers(response, headers) ? MHD_queue_response(connection, MHD_HTTP_OK, response) : MHD_NO;
  MHD_destroy_response(response);
  return result;
}

const char *dbx_web_header(struct MHD_Connection *connection, const char *name) {
  return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

static void client_address(struct MHD_Connection *connection, char *text, size_t size) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  snprintf(text, size, "unknown");
  if (!info || !info->client_addr) return;
  const struct sockaddr *address = info->client_addr;
  if (address->sa_family == AF_INET)
    inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, size);
  else if (address->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, size);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
  (void)version;
  struct dbx_web *server = cls;
  struct upload *upload = *con_cls;
  if (!upload) {  // the headers: the body (if any) comes in the next calls
    upload = calloc(1, sizeof *upload);
    if (!upload) return MHD_NO;
    *con_cls = upload;
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    if (upload->length + *upload_data_size > DBX_WEB_BODY_LIMIT) upload->too_large = 1;
    else {
      memcpy(upload->bytes + upload->length, upload_data, *upload_data_size);
      upload->length += *upload_data_size;
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (upload->too_large) {
    static const char *const headers[] = {"Content-Type", "text/plain; charset=utf-8", NULL};
    static const char message[] = "request too large\n";
    return dbx_web_respond(connection, MHD_HTTP_CONTENT_TOO_LARGE, headers, message, sizeof message - 1);
  }
  upload->bytes[upload->length] = 0;
  char client[INET6_ADDRSTRLEN + 1];
  client_address(connection, client, sizeof client);
  dbx_web_request request = {connection, method, url, upload->bytes, upload->length, client};
  return server->handler(server->context, &request) ? MHD_YES : MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
  (void)cls, (void)connection, (void)code;
  free(*con_cls);
  *con_cls = NULL;
}

dbx_web *dbx_web_start(int listen_fd, unsigned connection_limit, unsigned per_network_limit,
                       unsigned idle_timeout_s, dbx_web_handler handler, void *context) {
  if (connection_limit > DBX_WEB_CONNECTIONS_MAX) connection_limit = DBX_WEB_CONNECTIONS_MAX;
  dbx_web *web = calloc(1, sizeof *web);
  if (!web) return NULL;
  web->handler = handler;
  web->context = context;
  web->per_network_limit = per_network_limit;
  pthread_mutex_init(&web->lock, NULL);
  // A thread per connection: a stream's reader may wait for the next status without
  // holding up the others, and with no connection nothing wakes but the accept.
  web->daemon = MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC, 0, accept_policy,
      web, on_request, web,
      MHD_OPTION_LISTEN_SOCKET, listen_fd,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_NOTIFY_CONNECTION, on_connection, web,
      MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_s,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(32 * 1024),
      MHD_OPTION_THREAD_STACK_SIZE, (size_t)(256 * 1024),
      MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
      MHD_OPTION_END);
  if (!web->daemon) {
    pthread_mutex_destroy(&web->lock);
    free(web);
    return NULL;
  }
  return web;
}

void dbx_web_stop(dbx_web *web, int keep_socket) {
  if (keep_socket) MHD_quiesce_daemon(web->daemon);  // it no longer listens, and leaves the socket open
  MHD_stop_daemon(web->daemon);
  pthread_mutex_destroy(&web->lock);
  free(web);
}

int dbx_web_hash_password(const char *password, char *hash, size_t size) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  if (!crypt_gensalt_rn("$y$", 0, NULL, 0, salt, sizeof salt)) return -1;
  return dbx_web_crypt(password, salt, hash, size);
}

int dbx_web_crypt(const char *password, const char *setting, char *hash, size_t size) {
  struct crypt_data *data = calloc(1, sizeof *data);
  if (!data) return -1;
  const char *made = crypt_r(password, setting, data);
  int result = -1;
  if (made && made[0] == '$' && strlen(made) < size) {
    strcpy(hash, made);
    result = 0;
  } else if (!made || made[0] != '$') errno = EINVAL;
  else errno = ERANGE;
  explicit_bzero(data, sizeof *data);
  free(data);
  return result;
}

int dbx_web_check_password(const char *password, const char *hash) {
  struct crypt_data *data = calloc(1, sizeof *data);
  if (!data) return 0;
  const char *made = crypt_r(password, hash, data);
  size_t length = strlen(hash);
  int same = made && made[0] == '$' && strlen(made) == length;
  unsigned char difference = 0;
  for (size_t i = 0; same && i < length; i++) difference |= (unsigned char)(made[i] ^ hash[i]);
  explicit_bzero(data, sizeof *data);
  free(data);
  return same && difference == 0;
}

int dbx_web_random(void *buffer, size_t size) {
  size_t filled = 0;
  while (filled < size) {
    ssize_t got = getrandom((char *)buffer + filled, size - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    filled += (size_t)got;
  }
  return 0;
}

/// libpwquality's calls, looked up once (dlopen: a box without the library checks length only).
static struct {
  void *(*default_settings)(void);
  int (*read_config)(void *settings, const char *file, void **auxerror);
  int (*check)(void *settings, const char *password, const char *old, const char *user, void **auxerror);
  const char *(*strerror)(char *buffer, size_t length, int code, void *auxerror);
  void (*free_settings)(void *settings);
} pwquality;
static pthread_once_t pwquality_once = PTHREAD_ONCE_INIT;

static void pwquality_open(void) {
  void *library = dlopen("libpwquality.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return;
  *(void **)&pwquality.default_settings = dlsym(library, "pwquality_default_settings");
  *(void **)&pwquality.read_config = dlsym(library, "pwquality_read_config");
  *(void **)&pwquality.check = dlsym(library, "pwquality_check");
  *(void **)&pwquality.strerror = dlsym(library, "pwquality_strerror");
  *(void **)&pwquality.free_settings = dlsym(library, "pwquality_free_settings");
  if (!pwquality.default_settings || !pwquality.read_config || !pwquality.check || !pwquality.strerror
      || !pwquality.free_settings)
    pwquality.check = NULL;
}

int dbx_web_password_quality(const char *password, char *reason, size_t size) {
  pthread_once(&pwquality_once, pwquality_open);
  if (!pwquality.check) return -1;
  void *settings = pwquality.default_settings();
  if (!settings) return -1;
  pwquality.read_config(settings, NULL, NULL);  // the system's settings, when it has a file
  void *auxerror = NULL;
  int score = pwquality.check(settings, password, NULL, NULL, &auxerror);
  if (score < 0 && size > 0) snprintf(reason, size, "%s", pwquality.strerror(NULL, 0, score, auxerror));
  pwquality.free_settings(settings);
  return score < 0 ? 0 : 1;
}
