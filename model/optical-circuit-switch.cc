#include "optical-circuit-switch.h"
