#include "ocs-net-device.h"
