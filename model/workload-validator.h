#ifndef WORKLOAD_VALIDATOR_H
#define WORKLOAD_VALIDATOR_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_VALIDATOR_H */
