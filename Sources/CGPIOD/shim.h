#ifndef DELAYBOX_CGPIOD_SHIM_H
#define DELAYBOX_CGPIOD_SHIM_H
// libgpiod 1.6 (Debian 12, Raspberry Pi OS bookworm). Its API imports as is.
#include <gpiod.h>
#endif
