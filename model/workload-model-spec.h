#ifndef WORKLOAD_MODEL_SPEC_H
#define WORKLOAD_MODEL_SPEC_H

// Placeholder: the workload layer (issue 4) fills this file.

#endif /* WORKLOAD_MODEL_SPEC_H */
