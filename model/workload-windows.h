#ifndef WORKLOAD_WINDOWS_H
#define WORKLOAD_WINDOWS_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_WINDOWS_H */
