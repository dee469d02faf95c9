#include "csystem.h"
#include <sys/eventfd.h>

int dbx_system_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
