#ifndef DELAYBOX_CGPIOD_SHIM_H
#define DELAYBOX_CGPIOD_SHIM_H
// libgpiod 2.x (Debian 13, Raspberry Pi OS trixie) or 1.6 (Debian 12, bookworm): both
// APIs import as they are; Package.swift tells the adapter which one this is.
#include <gpiod.h>
#endif
