#include "workload-model-spec.h"
