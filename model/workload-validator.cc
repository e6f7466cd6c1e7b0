#include "workload-validator.h"
