#include "workload-windows.h"
