#include "ocs-technology.h"
