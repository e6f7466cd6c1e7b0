#include "workload-dag.h"
