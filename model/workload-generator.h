#ifndef WORKLOAD_GENERATOR_H
#define WORKLOAD_GENERATOR_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_GENERATOR_H */
