#ifndef WORKLOAD_PHASE_LOG_H
#define WORKLOAD_PHASE_LOG_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_PHASE_LOG_H */
