#include "workload-phase-log.h"
