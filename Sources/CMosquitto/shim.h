#ifndef DELAYBOX_CMOSQUITTO_SHIM_H
#define DELAYBOX_CMOSQUITTO_SHIM_H
// libmosquitto 2.0 (Debian 12: 2.0.11, Debian 13: 2.0.21): the MQTT client's C library.
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
