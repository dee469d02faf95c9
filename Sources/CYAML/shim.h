// libyaml (Debian: libyaml-dev; the boards: libyaml-0-2), read through its event API.
#include <yaml.h>
