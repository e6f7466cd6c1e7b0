#include "workload-json.h"
