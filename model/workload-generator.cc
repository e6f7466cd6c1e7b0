#include "workload-generator.h"
