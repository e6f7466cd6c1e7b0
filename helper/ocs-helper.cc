#include "ocs-helper.h"
